/**
 * Degraded, never dead. Work with no caller to answer (runtime events, timers, flushes, webhook
 * delivery, quota ticks) that fails, typically on the store (a full disk, an I/O error), is
 * logged here with an identifier and retried by its owner; while anything is failing the service
 * is degraded (GET /readyz answers 503). A component recovers when its own next attempt
 * succeeds; store failures of requests (which have no retry of their own) recover when a probe
 * write to the store succeeds, tried every second while degraded.
 */
import { randomUUID } from 'node:crypto';
import type { FailureReporter } from './domain/ports/failure-reporter.js';

/** The readiness problem of an instance that is shutting down (SIGTERM). */
const SHUTDOWN = 'shutdown';

export interface Problem {
  component: string;
  since: number;
  identifier: string;
}

export interface HealthOptions {
  log: {
    error(fields: object, message: string): void;
    warn(fields: object, message: string): void;
    info(fields: object, message: string): void;
  };
  /** A small write to the store; throws when the store cannot take writes. */
  probe: () => Promise<void>;
  probeEveryMs?: number;
  now: () => number;
}

/** The component of request failures that only the probe clears. */
export const STORE = 'store';

/** An error that means the store cannot write now (full disk, I/O error), as opposed to a bug. */
export function isStoreFault(error: unknown): boolean {
  if (isStoreBusy(error)) return false;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') {
    // SQLite and the file system; PostgreSQL: connection lost or refused (08, ECONN*), out of disk or
    // memory (53), shutting down (57P0x), read-only (25006), not answering within its deadline
    // (postgres/watch.ts).
    return /^(SQLITE_(FULL|IOERR|CANTOPEN|READONLY)|ENOSPC|EDQUOT|EIO|EROFS|ECONNREFUSED|ECONNRESET|08...|53...|57P0[1-3]|25006|DATABASE_UNRESPONSIVE$)/.test(code);
  }
  // node-postgres names a dropped connection only in its message.
  const message = error instanceof Error ? error.message : '';
  return /^(Connection terminated|Client has encountered a connection error|Query read timeout)/.test(message);
}

/**
 * An error that means the store's disk is full (SQLite's SQLITE_FULL, the file system's ENOSPC or
 * EDQUOT, PostgreSQL's disk_full 53100): nothing of the write was kept, and the same request may
 * succeed once there is space again. A store fault too (isStoreFault: degraded until a probe
 * write succeeds); the HTTP layer answers it 503 with Retry-After, not 500 (it is no bug).
 */
export function isStoreFull(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EDQUOT' || code === '53100';
}

/**
 * An error that means the database could not be reached before anything of the request was sent
 * (postgres/watch.ts's DatabaseUnreachable: refused while connecting, or known not to answer): a
 * store fault (degraded until a probe write succeeds), but no bug; the HTTP layer answers it 503
 * with Retry-After, and the same request may succeed once the database is back.
 */
export function isStoreUnreachable(error: unknown): boolean {
  return (error as { nothingSent?: unknown } | null)?.nothingSent === true;
}

/**
 * An error that means the store is busy, not broken (store/store-busy.ts): the request may simply
 * be tried again (503 with Retry-After), and the service stays ready. PostgreSQL's own
 * cancellations (lock_not_available 55P03 past lock_timeout, query_canceled 57014 past
 * statement_timeout) and node-postgres's full pool count too where they reach here unwrapped
 * (the cluster's pools).
 */
export function isStoreBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'STORE_BUSY' || code === '55P03' || code === '57014') return true;
  return error instanceof Error && error.message.startsWith('timeout exceeded when trying to connect');
}

export class Health implements FailureReporter {
  private readonly problems = new Map<string, Problem>();
  private probeTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: HealthOptions) {}

  failed(component: string, error: unknown): string {
    const identifier = randomUUID();
    if (isStoreBusy(error)) {
      // A busy store is not a failing component: its owner retries, and readiness is not touched.
      this.options.log.warn({ err: error, identifier, component }, `${component} found the store busy; it is retried`);
      return identifier;
    }
    this.options.log.error({ err: error, identifier, component }, `${component} failed; it is retried`);
    if (!this.problems.has(component)) this.problems.set(component, { component, since: this.options.now(), identifier });
    this.startProbing();
    return identifier;
  }

  recovered(component: string): void {
    const problem = this.problems.get(component);
    if (!problem) return;
    this.problems.delete(component);
    this.options.log.info({ component, identifier: problem.identifier }, `${component} recovered`);
  }

  /** Run work for a component: a failure is reported (never thrown), a success clears it. */
  async guard(component: string, work: () => void | Promise<void>): Promise<void> {
    try {
      await work();
      this.recovered(component);
    } catch (error) {
      this.failed(component, error);
    }
  }

  readiness(): { ready: boolean; problems: Problem[] } {
    return { ready: this.problems.size === 0, problems: [...this.problems.values()] };
  }

  /** The instance is shutting down: not ready from now on (a proxy stops sending it requests), and never again. */
  shuttingDown(): void {
    this.problems.set(SHUTDOWN, { component: SHUTDOWN, since: this.options.now(), identifier: randomUUID() });
  }

  close(): void {
    clearInterval(this.probeTimer);
    this.probeTimer = undefined;
  }

  private startProbing(): void {
    if (this.probeTimer) return;
    let probing = false;
    this.probeTimer = setInterval(async () => {
      if (probing) return;
      probing = true;
      if (this.problems.has(STORE)) {
        try {
          await this.options.probe();
          this.recovered(STORE);
        } catch {
          // Still failing; the first failure was logged.
        }
      }
      probing = false;
      if (this.problems.size === 0) this.close();
    }, this.options.probeEveryMs ?? 1000);
    this.probeTimer.unref();
  }
}
