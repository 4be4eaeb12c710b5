/**
 * The one thing the PostgreSQL repositories need: run a statement, get its rows. A pool runs
 * each statement on any connection; a transaction's client runs them all on its own.
 */
import pg from 'pg';

export interface Sql {
  rows<R>(text: string, values?: readonly unknown[]): Promise<R[]>;
  /** The number of rows the statement changed. */
  run(text: string, values?: readonly unknown[]): Promise<number>;
}

/** The statements and the transactions of one database (see database.ts). */
export interface PgDb {
  sql: Sql;
  transaction<T>(fn: () => Promise<T>): Promise<T>;
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

export function sqlOf(client: pg.Pool | pg.PoolClient): Sql {
  return {
    rows: async <R>(text: string, values?: readonly unknown[]) => (await client.query(text, values as unknown[])).rows as R[],
    run: async (text, values) => (await client.query(text, values as unknown[])).rowCount ?? 0,
  };
}

/** The first row's first column (counts, single values), or undefined. */
export async function value<T>(sql: Sql, text: string, values?: readonly unknown[]): Promise<T | undefined> {
  const [row] = await sql.rows<Record<string, T>>(text, values);
  return row === undefined ? undefined : Object.values(row)[0];
}
