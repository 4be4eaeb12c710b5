/** A test file's own PostgreSQL database, with an admin connection to look into it and act on it. */
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { createDatabase } from './postgres.mjs';

/**
 * Call in the describe that needs it: a fresh database (named from `prefix`) before its tests,
 * its admin connection closed after them (after the file's own afterAll hooks: they run in stack order).
 */
export function useDatabase(prefix: string): { url: string; admin: pg.Client } {
  const db = {} as { url: string; admin: pg.Client };
  beforeAll(async () => {
    db.url = await createDatabase(prefix);
    db.admin = new pg.Client({ connectionString: db.url });
    await db.admin.connect();
  });
  afterAll(async () => {
    await db.admin?.end();
  });
  return db;
}
