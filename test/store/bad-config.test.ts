/**
 * A store the service cannot use is one clear line, never a stack trace or a half-started
 * service: an unreachable database, a wrong password, a schema written by a newer version.
 */
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../server/store/open-store.js';
import { openPostgres } from '../../server/store/postgres/database.js';
import { StoreConfigError } from '../../server/store/schema-version.js';
import { openDatabase } from '../../server/store/sqlite.js';
import { createDatabase } from '../support/postgres.mjs';
import { tempDirs } from '../support/temp-dirs.js';

const tempDir = tempDirs('bad-store-');

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** What opening the store throws: a StoreConfigError of one line, never naming the password. */
async function refusal(config: { dataDir: string; databaseUrl: string | undefined }): Promise<string> {
  const error = await openStore(config).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(StoreConfigError);
  const message = (error as Error).message;
  expect(message).not.toContain('\n');
  if (config.databaseUrl) {
    const password = new URL(config.databaseUrl).password;
    if (password) expect(message).not.toContain(password);
  }
  return message;
}

describe('a store the service cannot use', () => {
  it('is an unreachable database', async () => {
    const url = `postgres://sessionhost:secret-password@127.0.0.1:${await closedPort()}/sessions`;
    expect(await refusal({ dataDir: tempDir(), databaseUrl: url })).toMatch(
      /^cannot use the PostgreSQL database sessionhost@127\.0\.0\.1:\d+\/sessions \(DATABASE_URL\): it is unreachable/,
    );
  });

  it('is a wrong password', async () => {
    const url = new URL(await createDatabase('badpw'));
    url.password = 'not-the-password';
    expect(await refusal({ dataDir: tempDir(), databaseUrl: url.toString() })).toMatch(/: the password \(or user\) is wrong$/);
  });

  it('is a PostgreSQL schema from a newer version', async () => {
    const url = await createDatabase('newer');
    const database = await openPostgres(url);
    await database.sql.run("INSERT INTO schema_migrations (version, name, applied) VALUES (999, 'from the future', 0)");
    await database.close();
    expect(await refusal({ dataDir: tempDir(), databaseUrl: url })).toMatch(/has schema version 999, newer than this service knows \(\d+\)/);
  });

  it('is a SQLite data directory from a newer version', async () => {
    const dataDir = tempDir();
    const db = openDatabase(join(dataDir, 'service.db'));
    db.prepare("INSERT INTO schema_migrations (version, name, applied) VALUES (999, 'from the future', 0)").run();
    db.close();
    expect(await refusal({ dataDir, databaseUrl: undefined })).toMatch(/service\.db has schema version 999, newer than this service knows/);
  });

  it('stops `npm start` with that one line and a non-zero exit', async () => {
    const url = `postgres://sessionhost:secret-password@127.0.0.1:${await closedPort()}/sessions`;
    const started = spawnSync(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      env: { ...process.env, DATABASE_URL: url, DATA_DIR: tempDir(), PORT: '0', LOG_LEVEL: 'silent', SESSION_HOST_TEST_STORE: '' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(started.status).toBe(1);
    const lines = started.stderr.trim().split('\n').filter((line) => !line.startsWith('npm warn'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^cannot use the PostgreSQL database .*: it is unreachable/);
    expect(started.stderr).not.toContain('secret-password');
  });
});
