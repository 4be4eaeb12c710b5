/**
 * Opens the PostgreSQL store named by DATABASE_URL: a connection pool, a first connection that
 * turns the usual misconfigurations into one clear line (unreachable, wrong password, no such
 * database), then the migrations, applied once however many instances start together (a
 * transaction-scoped advisory lock), refusing a schema newer than this service knows.
 */
import { setTimeout } from 'node:timers/promises';
import pg from 'pg';
import { refuseNewerSchema, StoreConfigError } from '../schema-version.js';
import { postgresMigrations } from './migrations.js';
import { TransactionScope } from '../transaction-scope.js';
import { sqlOf, types, type Sql } from './sql.js';

/** Connections per instance: placement transactions hold one while they lock. */
/**
 * How long a request may wait for a pooled connection: starts racing for one account queue on
 * its row lock while holding their connections, so a burst (500 starts over three instances)
 * waits its turn rather than failing; within the HTTP request deadline (30 s).
 */
const POOL_WAIT_MS = 25_000;
const POOL_SIZE = 10;
/** deadlock_detected, serialization_failure: the transaction did nothing and may simply run again. */
const RETRYABLE = new Set(['40P01', '40001']);
const MAX_RETRIES = 5;
/** A random pause before running again, so the same transactions do not meet again in step. */
const RETRY_JITTER_MS = 10;
/** Taken while migrating, so that instances starting together migrate once. */
const MIGRATION_LOCK = 0x5e55_0001;

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

export interface PostgresDatabase {
  pool: pg.Pool;
  /** Runs on the caller's transaction when there is one, else on any pooled connection. */
  sql: Sql;
  /**
   * Run fn inside BEGIN ... COMMIT (ROLLBACK when it throws) on one connection; every statement
   * sent through `sql` from inside fn runs in it. Nested calls join the outer transaction.
   * `committed` runs once it has committed (SessionRepository.transaction's).
   */
  transaction<T>(fn: () => Promise<T>, committed?: (result: T) => void): Promise<T>;
  close(): Promise<void>;
}

export async function openPostgres(url: string, options: { poolSize?: number } = {}): Promise<PostgresDatabase> {
  const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? POOL_SIZE, connectionTimeoutMillis: POOL_WAIT_MS, types });
  // An idle connection the server dropped is replaced on the next checkout; not fatal.
  pool.on('error', () => {});
  const scope = new TransactionScope<Sql>();
  const poolSql = sqlOf(pool);
  const sql: Sql = {
    rows: (text, values) => (scope.current() ?? poolSql).rows(text, values),
    prepared: (text, values) => (scope.current() ?? poolSql).prepared(text, values),
    run: (text, values) => (scope.current() ?? poolSql).run(text, values),
  };
  const attempt = async <T>(fn: () => Promise<T>): Promise<T> => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const result = await scope.run(sqlOf(client), fn);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  };
  const transaction = async <T>(fn: () => Promise<T>, committed?: (result: T) => void): Promise<T> => {
    if (scope.current()) return committed ? Promise.reject(new Error('a nested transaction has no commit of its own')) : fn();
    // fn only touches the store (the port's rule), so a transaction PostgreSQL chose as a
    // deadlock's or a serialization conflict's victim is run again, after the others went on.
    for (let retries = 0; ; retries++) {
      try {
        const result = await attempt(fn);
        // Committed is durable here (synchronous_commit): nothing runs beside an fsync.
        committed?.(result);
        return result;
      } catch (error) {
        if (retries === MAX_RETRIES || !RETRYABLE.has((error as { code?: string }).code ?? '')) throw error;
        await setTimeout(Math.random() * RETRY_JITTER_MS * (retries + 1));
      }
    }
  };
  try {
    await transaction(() => migrate(url, sql));
  } catch (error) {
    await pool.end().catch(() => {});
    throw explain(url, error);
  }
  return { pool, sql, transaction, close: () => pool.end() };
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
