/**
 * Backups and integrity: an online backup taken under write load restores (its files copied
 * into an empty data directory, as the README says) to a service that starts and holds every
 * write acknowledged before the backup began; a corrupt database refuses to start with one
 * clear message and the recovery steps.
 */
import { execFile } from 'node:child_process';
import { closeSync, copyFileSync, mkdirSync, openSync, readdirSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { contractFetch } from '../support/contract.js';
import { caller } from '../support/http.js';
import { spawnService, type ServiceProcess } from '../support/process.js';
import { tempDataDir, TEST_BOOTSTRAP_TOKEN } from '../support/service.js';
import { mintTokens } from '../support/token-load.js';
import { openDatabase } from '../../server/store/sqlite.js';

const run = promisify(execFile);

describe('backup, restore and the integrity check', () => {
  const contract = contractFetch();
  const processes: ServiceProcess[] = [];
  const dirs: string[] = [];
  const dir = () => {
    const made = tempDataDir();
    dirs.push(made);
    return made;
  };
  afterAll(async () => {
    for (const p of processes) await p.kill('SIGKILL');
    for (const made of dirs) rmSync(made, { recursive: true, force: true });
    expect(contract.violations).toEqual([]);
  });
  const start = async (dataDir: string) => {
    const started = await spawnService({ DATA_DIR: dataDir, BOOTSTRAP_TOKEN: TEST_BOOTSTRAP_TOKEN, LOG_LEVEL: 'warn', RUNTIME: 'simulated' });
    processes.push(started);
    return { ...started, call: caller(started.url, TEST_BOOTSTRAP_TOKEN, contract) };
  };
  const tokenNames = async (call: Awaited<ReturnType<typeof start>>['call']) =>
    new Set(((await call('GET', '/token')).json.tokens as { name: string }[]).map((t) => t.name));

  it('restores an online backup taken under write load with every write acknowledged before it began', async () => {
    const original = dir();
    const service = await start(original);
    const writers = mintTokens(service.call, { clients: 4, prefix: 'w' });
    const { acknowledged } = writers;
    while (acknowledged.length < 40) await new Promise((resolve) => setTimeout(resolve, 20));

    const beforeBackup = [...acknowledged];
    const target = join(dir(), 'backup');
    const backup = await run(process.execPath, ['--import', 'tsx', 'server/backup-cli.ts', target], { env: { ...process.env, DATA_DIR: original } });
    expect(backup.stdout).toMatch(/backed up .* service\.db, secret\.key/);
    const duringBackup = acknowledged.length - beforeBackup.length;
    await writers.stop();
    expect(duringBackup).toBeGreaterThan(0);

    // Restore: the backup's files into an empty data directory.
    const restored = dir();
    for (const file of readdirSync(target)) copyFileSync(join(target, file), join(restored, file));
    const again = await start(restored);
    const names = await tokenNames(again.call);
    expect(beforeBackup.filter((name) => !names.has(name))).toEqual([]);
    // Tokens minted before the backup still authenticate (the key came along).
    expect((await again.call('GET', '/readyz', { token: null })).status).toBe(200);
    expect((await again.call('POST', '/token', { body: { name: 'after-restore', scopes: ['session:read'] } })).status).toBe(201);
    await again.kill('SIGTERM');

    // Into a directory that is not empty: refused, nothing overwritten.
    const refused = await run(process.execPath, ['--import', 'tsx', 'server/backup-cli.ts', target], { env: { ...process.env, DATA_DIR: original } }).catch((error) => error);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('is not empty');
    await service.kill('SIGTERM');
  }, 60_000);

  it('names the database it looked for when DATA_DIR holds none (a mistyped DATA_DIR), and writes no backup', async () => {
    const missing = join(dir(), 'no-such-data');
    const target = join(dir(), 'backup');
    const refused = await run(process.execPath, ['--import', 'tsx', 'server/backup-cli.ts', target], { env: { ...process.env, DATA_DIR: missing } }).catch((error) => error);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`backup failed: no database at ${join(missing, 'service.db')}: is DATA_DIR the service's data directory?`);
    expect(() => statSync(target)).toThrow();
  });

  it('refuses to back up a stopped data directory whose WAL is damaged, and leaves the WAL as it was', async () => {
    // A service killed with writes in its WAL (openDatabase's file, copied while open), then one byte of the WAL's header flipped.
    const live = dir();
    const db = openDatabase(join(live, 'service.db'));
    const stopped = dir();
    copyFileSync(join(live, 'service.db'), join(stopped, 'service.db'));
    copyFileSync(join(live, 'service.db-wal'), join(stopped, 'service.db-wal'));
    db.close();
    const wal = join(stopped, 'service.db-wal');
    const fd = openSync(wal, 'r+');
    writeSync(fd, Buffer.from([0xff]), 0, 1, 16);
    closeSync(fd);
    const walBytes = statSync(wal).size;
    const target = join(dir(), 'backup');
    const refused = await run(process.execPath, ['--import', 'tsx', 'server/backup-cli.ts', target], { env: { ...process.env, DATA_DIR: stopped } }).catch((error) => error);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/backup failed: .*service\.db-wal is corrupt \(its header checksum does not match/);
    // SQLite, opening it, took the WAL for empty and deleted it on close, with every write in it.
    expect(statSync(wal).size).toBe(walBytes);
  });

  it('refuses to start on a corrupt database, with the reason and the recovery steps', async () => {
    const original = dir();
    const service = await start(original);
    for (let i = 0; i < 30; i++) await service.call('POST', '/token', { body: { name: `t-${i}`, scopes: ['session:read'] } });
    await service.kill('SIGTERM');

    const torn = dir();
    mkdirSync(torn, { recursive: true });
    copyFileSync(join(original, 'service.db'), join(torn, 'service.db'));
    // Garbage over the last pages (the newest rows), as a copy torn mid-write leaves them: the
    // schema still reads, so only the integrity check stands between it and new writes.
    const file = join(torn, 'service.db');
    const fd = openSync(file, 'r+');
    writeSync(fd, Buffer.alloc(4096 * 2, 0x5a), 0, 4096 * 2, statSync(file).size - 4096 * 2);
    closeSync(fd);
    const failure = await start(torn).catch((error: Error) => error);
    expect(failure).toBeInstanceOf(Error);
    const message = (failure as Error).message;
    expect(message).toContain('service exited with 1');
    expect(message).toMatch(/service\.db is corrupt \(/);
    expect(message).toContain('restore the latest backup');
  }, 60_000);
});
