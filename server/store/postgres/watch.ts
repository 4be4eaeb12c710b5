/**
 * Whether the database answers at all. A PostgreSQL that stopped answering (frozen, a network
 * partition, a host that vanished) gives no error: the kernel keeps retransmitting for about
 * 15 minutes, so a statement already sent would wait that long. The statements' own deadlines
 * bound each request; this watch tells, within seconds, that the database is not answering (for
 * /readyz and so that new requests fail at once instead of each waiting out its deadline), and
 * that it answers again. It pings on a connection of its own, not a pooled one: a pool busy with
 * legitimate work must not read as a dead database.
 */
import pg from 'pg';

/** The database did not answer in time: a store fault (health.ts's isStoreFault), not a bug. */
export class DatabaseUnresponsive extends Error {
  readonly code = 'DATABASE_UNRESPONSIVE';
}

/**
 * The database could not be reached before the caller's statement was sent (the connection was
 * refused or dropped while opening, or the database was already known not to answer): nothing of
 * that statement was done, so the same request may simply be tried again once it answers (a
 * restart or a failover takes seconds). Still a store fault; the HTTP layer answers it 503 with
 * Retry-After (health.ts's isStoreUnreachable), not the 500 of a bug.
 */
export class DatabaseUnreachable extends DatabaseUnresponsive {
  readonly nothingSent = true;
}

export interface WatchTimings {
  /** How often the database is pinged. */
  everyMs: number;
  /** How long a ping (or the connection for it) may take before the database counts as not answering. */
  deadlineMs: number;
}

/** Destroy a client's socket: its statement may still be running, so the connection is never reused. */
export function destroyConnection(client: pg.Client | pg.PoolClient): void {
  (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
}

export class ResponsivenessWatch {
  private client: pg.Client | undefined;
  private failure: DatabaseUnresponsive | undefined;
  private pinging = false;
  private closed = false;
  private readonly timer: NodeJS.Timeout;
  private readonly listeners = new Set<(error: Error) => void>();
  private readonly silentListeners = new Set<(error: DatabaseUnresponsive) => void>();

  constructor(
    private readonly config: pg.ClientConfig,
    private readonly timings: WatchTimings,
  ) {
    this.timer = setInterval(() => void this.ping(), timings.everyMs);
    this.timer.unref();
  }

  /** Why the database counts as not answering now, or undefined while it answers. */
  get unresponsive(): DatabaseUnresponsive | undefined {
    return this.failure;
  }

  /** Told once each time the database stops answering (or a statement overran its deadline). */
  onUnresponsive(listener: (error: Error) => void): void {
    this.listeners.add(listener);
  }

  /** Told once each time a ping finds the database not answering (not on statements' overruns). */
  onSilent(listener: (error: DatabaseUnresponsive) => void): void {
    this.silentListeners.add(listener);
  }

  /** A statement that overran its deadline: told at once, without waiting for the next ping. */
  overran(error: Error): void {
    for (const listener of [...this.listeners]) listener(error);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    this.listeners.clear();
    this.silentListeners.clear();
    const client = this.client;
    this.client = undefined;
    if (client) destroyConnection(client);
  }

  private async ping(): Promise<void> {
    if (this.pinging || this.closed) return;
    this.pinging = true;
    try {
      if (!this.client) {
        const client = new pg.Client({ ...this.config, connectionTimeoutMillis: this.timings.deadlineMs, keepAlive: true });
        // A dropped connection shows as the next ping's failure; never a crash.
        client.on('error', () => {});
        this.client = client;
        await client.connect();
        if (this.closed) return destroyConnection(client);
      }
      if (!(await this.answers(this.client))) throw new Error('no answer to SELECT 1');
      this.failure = undefined;
    } catch (error) {
      if (this.client) destroyConnection(this.client);
      this.client = undefined;
      const first = !this.failure;
      this.failure = new DatabaseUnresponsive(
        `the database did not answer within ${this.timings.deadlineMs} ms (${error instanceof Error ? error.message : String(error)})`,
      );
      if (first) for (const listener of [...this.silentListeners, ...this.listeners]) listener(this.failure);
    } finally {
      this.pinging = false;
    }
  }

  /**
   * Whether SELECT 1 is answered within the deadline. When the deadline's timer fires, the answer
   * may already wait unread in the socket (this process was stalled, not the database: timers run
   * before I/O in the event loop's turn), so one I/O phase is let through before deciding.
   */
  private async answers(client: pg.Client): Promise<boolean> {
    let answered = false;
    let failure: unknown;
    const query = client.query('SELECT 1').then(
      () => void (answered = true),
      (error: unknown) => void (failure = error),
    );
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([query, new Promise<void>((resolve) => (timer = setTimeout(resolve, this.timings.deadlineMs)))]);
    clearTimeout(timer);
    if (!answered && failure === undefined) await new Promise<void>((resolve) => setImmediate(resolve));
    if (failure !== undefined) throw failure;
    return answered;
  }
}
