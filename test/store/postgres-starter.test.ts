/** The throwaway PostgreSQL the store tests and CI use: durable, password-checked, not root, gone when stopped. */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createDatabase, startPostgres, type StartedPostgres } from '../support/postgres.mjs';

describe('test PostgreSQL', () => {
  let started: StartedPostgres | undefined;
  afterAll(() => started?.stop());

  it('runs with fsync and synchronous commit on, as a non-root user, and refuses a wrong password', async () => {
    started = await startPostgres();
    const client = new pg.Client(started.url);
    await client.connect();
    try {
      const setting = async (name: string) => (await client.query<{ setting: string }>('SELECT setting FROM pg_settings WHERE name = $1', [name])).rows[0]?.setting;
      expect(await setting('fsync')).toBe('on');
      expect(await setting('synchronous_commit')).toBe('on');
    } finally {
      await client.end();
    }
    // PostgreSQL refuses root: the data directory belongs to the user it runs as.
    expect(statSync(join(started.dir, 'data')).uid).not.toBe(0);
    const wrong = new URL(started.url);
    wrong.password = 'not-the-password';
    const refused = new pg.Client(wrong.toString());
    await expect(refused.connect()).rejects.toMatchObject({ code: '28P01' });
    await refused.end().catch(() => {});
  });

  it('stops and removes its directory', async () => {
    const cluster = await startPostgres();
    cluster.stop();
    expect(existsSync(cluster.dir)).toBe(false);
    const client = new pg.Client({ connectionString: cluster.url, connectionTimeoutMillis: 2000 });
    await expect(client.connect()).rejects.toThrow();
  });

  it('gives each caller a database of its own', async () => {
    const [a, b] = await Promise.all([createDatabase(), createDatabase()]);
    expect(a).not.toBe(b);
    const client = new pg.Client(a);
    await client.connect();
    await client.query('CREATE TABLE only_here (x int)');
    await client.end();
    const other = new pg.Client(b);
    await other.connect();
    const { rows } = await other.query("SELECT to_regclass('only_here') AS t");
    await other.end();
    expect(rows[0]?.t).toBeNull();
  });
});
