/**
 * The one thing the PostgreSQL repositories need: run a statement, get its rows. A pool runs
 * each statement on any connection; a transaction's client runs them all on its own.
 */
import { createHash } from 'node:crypto';
import pg from 'pg';
import { StoreBusy } from '../store-busy.js';
import { DatabaseUnresponsive } from './watch.js';

/** PostgreSQL's SQLSTATEs for a statement it cancelled: past lock_timeout, past statement_timeout (or cancelled by an operator). */
const LOCK_NOT_AVAILABLE = '55P03';
const QUERY_CANCELED = '57014';

export interface Sql {
  rows<R>(text: string, values?: readonly unknown[]): Promise<R[]>;
  /**
   * Rows of a statement parsed and planned once per connection (a named prepared statement):
   * for the hot reads, whose planning costs as much as running them. Its result columns must
   * be named, not `*`, so that a column another instance's migration adds cannot change the
   * prepared result type under it.
   */
  prepared<R>(text: string, values?: readonly unknown[]): Promise<R[]>;
  /** The number of rows the statement changed. */
  run(text: string, values?: readonly unknown[]): Promise<number>;
}

/** The statements and the transactions of one database (see database.ts). */
export interface PgDb {
  sql: Sql;
  transaction<T>(fn: () => Promise<T>, committed?: (result: T) => void): Promise<T>;
  /**
   * Run fn in a transaction whose statements have the maintenance deadline (minutes), not the
   * requests' (seconds): retention deletes may have a large backlog to clear.
   */
  unhurried<T>(fn: () => Promise<T>): Promise<T>;
}

/**
 * Rows read as SQLite's are (so both adapters share their row mappers): bigint (times in ms,
 * counts) as a number (every value stored is below 2^53), json and jsonb as their text.
 */
export const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (oid === pg.types.builtins.INT8) return Number;
    if (oid === pg.types.builtins.JSON || oid === pg.types.builtins.JSONB) return (value: string) => value;
    return pg.types.getTypeParser(oid, format);
  }) as typeof pg.types.getTypeParser,
};

/** Statement names by text; the texts are the repositories' few shapes, so this stays small. */
const statementNames = new Map<string, string>();
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (!name) statementNames.set(text, (name = `sh_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`));
  return name;
}

/**
 * Statements on `client`, each with a client-side deadline (none: the migrations'): past it the statement fails with
 * DatabaseUnresponsive (its connection must then be destroyed, not reused: the statement may
 * still be running, and the connection answers nothing else until it ends).
 */
export function sqlOf(client: pg.Client | pg.PoolClient, deadlineMs: number | undefined): Sql {
  const query = async (config: pg.QueryConfig) => {
    try {
      return await client.query({ ...config, query_timeout: deadlineMs } as pg.QueryConfig);
    } catch (error) {
      if (error instanceof Error && error.message === 'Query read timeout') {
        throw new DatabaseUnresponsive(`the database did not answer a statement within ${deadlineMs} ms`);
      }
      // The server cancelled the statement itself (database.ts's server-side timeouts): it answers,
      // the connection is fine, and the request may be tried again.
      const code = (error as { code?: string }).code;
      if (code === LOCK_NOT_AVAILABLE) {
        throw new StoreBusy('the database is busy: a row this request needs stayed locked by another transaction past lock_timeout', { cause: error });
      }
      if (code === QUERY_CANCELED) throw new StoreBusy('the database is busy: a statement ran past statement_timeout', { cause: error });
      throw error;
    }
  };
  return {
    rows: async <R>(text: string, values?: readonly unknown[]) => (await query({ text, values: values as unknown[] })).rows as R[],
    prepared: async <R>(text: string, values?: readonly unknown[]) =>
      (await query({ name: statementName(text), text, values: values as unknown[] })).rows as R[],
    run: async (text, values) => (await query({ text, values: values as unknown[] })).rowCount ?? 0,
  };
}

/** The first row's first column (counts, single values), or undefined. */
export async function value<T>(sql: Sql, text: string, values?: readonly unknown[]): Promise<T | undefined> {
  const [row] = await sql.rows<Record<string, T>>(text, values);
  return row === undefined ? undefined : Object.values(row)[0];
}
