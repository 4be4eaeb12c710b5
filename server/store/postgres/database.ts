/**
 * Opens the PostgreSQL store named by DATABASE_URL: a connection pool, a first connection that
 * turns the usual misconfigurations into one clear line (unreachable, wrong password, no such
 * database), then the migrations, applied once however many instances start together (a
 * transaction-scoped advisory lock), refusing a schema newer than this service knows. A database
 * that stops answering never hangs a caller: every statement has a deadline (its connection is
 * destroyed when it overruns), and a ping (watch.ts) finds the silence within seconds, after which
 * statements fail at once until it answers again. A database that answers but is busy (a row
 * locked by another transaction for long, a slow statement, every pooled connection in use) is
 * told apart: the server cancels the statement first (lock_timeout, statement_timeout, set under
 * the client deadline) and the caller gets StoreBusy (503 with Retry-After), connection kept.
 */
import { setTimeout } from 'node:timers/promises';
import pg from 'pg';
import { refuseNewerSchema, StoreConfigError } from '../schema-version.js';
import { postgresMigrations } from './migrations.js';
import { TransactionScope } from '../transaction-scope.js';
import { StoreBusy } from '../store-busy.js';
import { sqlOf, types, type PgDb, type Sql } from './sql.js';
import { DatabaseUnreachable, DatabaseUnresponsive, destroyConnection, ResponsivenessWatch, type WatchTimings } from './watch.js';

/**
 * How long a request may wait for a pooled connection: starts racing for one account queue on
 * its row lock while holding their connections, so a burst (500 starts over three instances)
 * waits its turn rather than failing; within the HTTP request deadline (30 s).
 */
const POOL_WAIT_MS = 25_000;
/** Connections per instance: placement transactions hold one while they lock. */
const POOL_SIZE = 10;
/**
 * How long one statement may go unanswered before it fails (and its connection is destroyed):
 * a database that stopped answering (frozen, partitioned) would otherwise hold the request, and
 * its pooled connection, for the kernel's ~15 minutes of retransmissions. Far above any
 * request's statement, including the placement lock waits of a burst (tens of transactions
 * queued on one account's row, milliseconds each).
 */
export const STATEMENT_DEADLINE_MS = 10_000;
/** The retention's deletes (unhurried()): a backlog of ended sessions or events may take minutes, not seconds. */
export const MAINTENANCE_DEADLINE_MS = 10 * 60_000;

/** PostgreSQL's own bounds on a statement, a little under the client's deadline so that it cancels first. */
export interface ServerTimeouts {
  /** lock_timeout: how long a statement waits for a lock another transaction holds (then 55P03). */
  lockMs: number;
  /** statement_timeout: how long a statement may run, its lock waits included (then 57014). */
  statementMs: number;
}
/**
 * The requests' statements: a lock wait past 8 s (a transaction of another instance that froze
 * mid-way, an operator's open transaction) or a statement past 9 s is cancelled by the server,
 * before the 10 s client deadline would destroy the connection and take the database for
 * unresponsive (/readyz down) although it answers. Far above a burst's placement lock waits.
 */
export const SERVER_TIMEOUTS: ServerTimeouts = { lockMs: 8_000, statementMs: 9_000 };
/** The retention's: the same lock wait (a delete should not sit on locks it holds while waiting), most of the maintenance deadline to run. */
const MAINTENANCE_SERVER_TIMEOUTS: ServerTimeouts = { lockMs: SERVER_TIMEOUTS.lockMs, statementMs: MAINTENANCE_DEADLINE_MS - 30_000 };

/**
 * The statements that set the timeouts, for the session or (LOCAL) for the transaction only. Two
 * places, so that they also hold behind PgBouncer in transaction mode, where a session's SET lands
 * on whichever server connection ran it: every transaction sets its own (SET LOCAL, in BEGIN's
 * round trip: exact there too); each pooled connection sets them once when it connects, for the
 * statements run outside a transaction (exact on a direct connection; see the README).
 */
function settingTimeouts(timeouts: ServerTimeouts, scope: 'SESSION' | 'LOCAL'): string {
  const ms = (value: number) => {
    if (!Number.isInteger(value) || value < 0) throw new Error(`a server timeout must be a whole number of ms, not ${value}`);
    return value;
  };
  return `SET ${scope} lock_timeout = ${ms(timeouts.lockMs)}; SET ${scope} statement_timeout = ${ms(timeouts.statementMs)}`;
}
/** The database counts as not answering (/readyz, new requests refused) when a ping gets no answer in 5 s (a loaded machine may take seconds); pinged every second. */
export const WATCH_TIMINGS: WatchTimings = { everyMs: 1000, deadlineMs: 5000 };
/** deadlock_detected, serialization_failure: the transaction did nothing and may simply run again. */
const RETRYABLE = new Set(['40P01', '40001']);
const MAX_RETRIES = 5;
/** A random pause before running again, so the same transactions do not meet again in step. */
const RETRY_JITTER_MS = 10;
/** Taken while migrating, so that instances starting together migrate once. */
const MIGRATION_LOCK = 0x5e55_0001;

/**
 * Whether opening a pooled connection failed because the database was not there to take it: the
 * socket refused, reset or unroutable, PostgreSQL shutting down or starting up (57P01-57P03), a
 * connection exception (class 08), or the connection closed while opening. Not a wrong password
 * or a missing database: those stay what they are.
 */
function connectionFailed(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^(ECONNREFUSED|ECONNRESET|EPIPE|EHOSTUNREACH|ENETUNREACH|ETIMEDOUT|57P0[1-3]|08...)$/.test(code)) return true;
  return error instanceof Error && error.message.startsWith('Connection terminated');
}

/** The database's address without its password, for messages. */
export function describeDatabase(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.username ? `${decodeURIComponent(parsed.username)}@` : ''}${parsed.host}${parsed.pathname}`;
  } catch {
    return 'DATABASE_URL';
  }
}

function explain(url: string, error: unknown): Error {
  const where = describeDatabase(url);
  const code = (error as { code?: string }).code;
  const reason =
    code === '28P01' || code === '28000'
      ? 'the password (or user) is wrong'
      : code === '3D000'
        ? 'that database does not exist (create it first: createdb)'
        : code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EHOSTUNREACH' || code === 'ETIMEDOUT' || /timeout/i.test((error as Error).message)
          ? `it is unreachable (${(error as Error).message})`
          : undefined;
  if (!reason) return error as Error;
  return new StoreConfigError(`cannot use the PostgreSQL database ${where} (DATABASE_URL): ${reason}`);
}

export interface PostgresDatabase extends PgDb {
  pool: pg.Pool;
  /** Runs on the caller's transaction when there is one, else on any pooled connection. */
  sql: Sql;
  /**
   * Run fn inside BEGIN ... COMMIT (ROLLBACK when it throws) on one connection; every statement
   * sent through `sql` from inside fn runs in it. Nested calls join the outer transaction.
   * `committed` runs once it has committed (SessionRepository.transaction's).
   */
  transaction<T>(fn: () => Promise<T>, committed?: (result: T) => void): Promise<T>;
  /** Told when the database stops answering (a ping) or a statement overran its deadline. */
  onUnresponsive(listener: (error: Error) => void): void;
  close(): Promise<void>;
}

export interface PostgresOptions {
  poolSize?: number;
  /** Tests: a shorter statement deadline, pool wait, server-side timeouts or watch. */
  statementDeadlineMs?: number;
  poolWaitMs?: number;
  serverTimeouts?: ServerTimeouts;
  watch?: WatchTimings;
}

export async function openPostgres(url: string, options: PostgresOptions = {}): Promise<PostgresDatabase> {
  const statementDeadlineMs = options.statementDeadlineMs ?? STATEMENT_DEADLINE_MS;
  const poolWaitMs = options.poolWaitMs ?? POOL_WAIT_MS;
  const serverTimeouts = options.serverTimeouts ?? SERVER_TIMEOUTS;
  // The migrations first, on a connection of their own without statement deadlines: a migration
  // rewriting a large table may legitimately take minutes.
  try {
    await migrateOn(url);
  } catch (error) {
    throw explain(url, error);
  }
  // keepAlive: an idle pooled connection to a vanished host is noticed and replaced.
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? POOL_SIZE,
    connectionTimeoutMillis: poolWaitMs,
    keepAlive: true,
    types,
    // The statements outside a transaction get the server-side timeouts too (a transaction sets its own).
    onConnect: async (client) => {
      // Bounded like any statement: a database gone silent just after accepting must not hold the pool's slot.
      await client.query({ text: settingTimeouts(serverTimeouts, 'SESSION'), query_timeout: statementDeadlineMs } as pg.QueryConfig);
    },
  });
  // An idle connection the server dropped is replaced on the next checkout; not fatal.
  pool.on('error', () => {});
  const watch = new ResponsivenessWatch({ connectionString: url }, options.watch ?? WATCH_TIMINGS);
  const scope = new TransactionScope<Sql>();

  /** While the database is known not to answer, fail at once rather than each request waiting out a deadline. */
  const refuseWhileUnresponsive = () => {
    const failure = watch.unresponsive;
    if (failure) throw new DatabaseUnreachable(`${failure.message}; refused without trying until it answers again`);
  };
  /** Back to the pool, unless its statement overran: then destroyed (it may still run; the connection is blocked behind it). */
  const giveBack = (client: pg.PoolClient, error?: unknown) => {
    if (error instanceof DatabaseUnresponsive) {
      destroyConnection(client);
      client.release(error);
      watch.overran(error);
    } else {
      // With an error (a failed ROLLBACK), the pool ends the connection; a broken one it ends anyway.
      client.release(error instanceof Error ? error : undefined);
    }
  };
  // Requests waiting for a pooled connection (up to POOL_WAIT_MS) when the ping finds the database
  // silent: they would wait out that wait (a new connection to a silent database never completes),
  // so they fail then. A set, not a race with a shared promise: that would keep a reaction per checkout.
  const waiting = new Set<(error: DatabaseUnresponsive) => void>();
  watch.onSilent((failure) => {
    for (const giveUp of [...waiting]) giveUp(failure);
    waiting.clear();
  });
  const checkout = () => {
    refuseWhileUnresponsive();
    return new Promise<pg.PoolClient>((resolve, reject) => {
      let settled = false;
      const giveUp = (failure: DatabaseUnresponsive) => {
        if (settled) return;
        settled = true;
        reject(new DatabaseUnreachable(`${failure.message}; gave up waiting for a connection`));
      };
      waiting.add(giveUp);
      pool.connect().then(
        (client) => {
          waiting.delete(giveUp);
          if (settled) return client.release();
          settled = true;
          resolve(client);
        },
        (error: unknown) => {
          waiting.delete(giveUp);
          if (settled) return;
          settled = true;
          // Every connection stayed in use for the whole wait: busy, not broken (the ping tells a silent database).
          const full = error instanceof Error && error.message.startsWith('timeout exceeded when trying to connect');
          if (full) return reject(new StoreBusy(`the database is busy: no pooled connection was free within ${poolWaitMs} ms`, { cause: error }));
          // Refused or dropped while connecting (stopped, restarting, not up yet): nothing was sent.
          if (connectionFailed(error)) return reject(new DatabaseUnreachable(`the database could not be reached (${(error as Error).message})`, { cause: error }));
          reject(error as Error);
        },
      );
    });
  };
  const onPool = (deadlineMs: number): Sql => {
    const run =
      <K extends keyof Sql>(method: K) =>
      async (text: string, values?: readonly unknown[]) => {
        const client = await checkout();
        try {
          const result = await (sqlOf(client, deadlineMs)[method] as (t: string, v?: readonly unknown[]) => Promise<unknown>)(text, values);
          giveBack(client);
          return result;
        } catch (error) {
          // An SQL error (a constraint) leaves the connection fine; an overrun does not.
          giveBack(client, error instanceof DatabaseUnresponsive ? error : undefined);
          throw error;
        }
      };
    return { rows: run('rows'), prepared: run('prepared'), run: run('run') } as Sql;
  };
  const poolSql = onPool(statementDeadlineMs);
  const sql: Sql = {
    rows: (text, values) => (scope.current() ?? poolSql).rows(text, values),
    prepared: (text, values) => (scope.current() ?? poolSql).prepared(text, values),
    run: (text, values) => (scope.current() ?? poolSql).run(text, values),
  };
  const attempt = async <T>(fn: () => Promise<T>, deadlineMs: number, timeouts: ServerTimeouts): Promise<T> => {
    const client = await checkout();
    const own = sqlOf(client, deadlineMs);
    try {
      await own.run(`BEGIN; ${settingTimeouts(timeouts, 'LOCAL')}`);
      const result = await scope.run(own, fn);
      await own.run('COMMIT');
      giveBack(client);
      return result;
    } catch (error) {
      // A connection whose statement overran answers nothing more: no ROLLBACK (the server rolls
      // back when the connection closes), or it would wait out a deadline again.
      if (error instanceof DatabaseUnresponsive) {
        giveBack(client, error);
        throw error;
      }
      const rolledBack = await own.run('ROLLBACK').then(
        () => undefined,
        (rollbackError: unknown) => rollbackError,
      );
      giveBack(client, rolledBack);
      throw error;
    }
  };
  const runTransaction = async <T>(
    fn: () => Promise<T>,
    committed: ((result: T) => void) | undefined,
    deadlineMs: number,
    timeouts: ServerTimeouts,
  ): Promise<T> => {
    if (scope.current()) return committed ? Promise.reject(new Error('a nested transaction has no commit of its own')) : fn();
    // fn only touches the store (the port's rule), so a transaction PostgreSQL chose as a
    // deadlock's or a serialization conflict's victim is run again, after the others went on.
    for (let retries = 0; ; retries++) {
      try {
        const result = await attempt(fn, deadlineMs, timeouts);
        // Committed is durable here (synchronous_commit): nothing runs beside an fsync.
        committed?.(result);
        return result;
      } catch (error) {
        if (retries === MAX_RETRIES || !RETRYABLE.has((error as { code?: string }).code ?? '')) throw error;
        await setTimeout(Math.random() * RETRY_JITTER_MS * (retries + 1));
      }
    }
  };
  return {
    pool,
    sql,
    transaction: (fn, committed) => runTransaction(fn, committed, statementDeadlineMs, serverTimeouts),
    unhurried: (fn) => runTransaction(fn, undefined, MAINTENANCE_DEADLINE_MS, MAINTENANCE_SERVER_TIMEOUTS),
    onUnresponsive: (listener) => watch.onUnresponsive(listener),
    close: async () => {
      await watch.close();
      await pool.end();
    },
  };
}

/** Apply the migrations on a connection of their own, once however many instances start together. */
async function migrateOn(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: POOL_WAIT_MS, types });
  client.on('error', () => {});
  await client.connect();
  try {
    const sql = sqlOf(client, undefined);
    // No server-side bounds either (behind PgBouncer, this may run on a server connection a pooled one set them on).
    await sql.run(`BEGIN; ${settingTimeouts({ lockMs: 0, statementMs: 0 }, 'LOCAL')}`);
    try {
      await migrate(url, sql);
      await sql.run('COMMIT');
    } catch (error) {
      await sql.run('ROLLBACK').catch(() => {});
      throw error;
    }
  } finally {
    await client.end().catch(() => {});
  }
}

async function migrate(url: string, sql: Sql): Promise<void> {
  await sql.run('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
  await sql.run('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied BIGINT NOT NULL)');
  const applied = (await sql.rows<{ version: number }>('SELECT version FROM schema_migrations')).map((r) => r.version);
  refuseNewerSchema(`the PostgreSQL database ${describeDatabase(url)}`, applied, postgresMigrations);
  for (const migration of postgresMigrations) {
    if (applied.includes(migration.version)) continue;
    await sql.run(migration.sql);
    await sql.run('INSERT INTO schema_migrations (version, name, applied) VALUES ($1, $2, $3)', [migration.version, migration.name, Date.now()]);
  }
}
