/**
 * The SQLite database (password and token hashes, every account's sessions) and its WAL are the
 * service's user's alone, whatever the runtime: only the process runtime's sandbox set their mode
 * before, so with the simulated or Docker runtime, in a data directory that already existed with a
 * permissive mode (a mount point, a volume), every local user could read them (outside check 9).
 */
import { chmodSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { openStore } from '../../server/store/open-store.js';
import { account } from '../support/store-records.js';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it('creates the database and its WAL readable by their owner only, and makes an existing one so', async () => {
  dir = mkdtempSync(join(tmpdir(), 'db-mode-'));
  chmodSync(dir, 0o755);
  const mode = (file: string) => statSync(join(dir!, file)).mode & 0o777;
  const first = await openStore({ dataDir: dir, databaseUrl: undefined });
  await first.store.accounts.insert(account('acc'));
  expect([mode('service.db'), mode('service.db-wal')]).toEqual([0o600, 0o600]);
  await first.store.close();
  // One left readable by an older version (or a restore) is closed up at the next start.
  chmodSync(join(dir, 'service.db'), 0o644);
  const again = await openStore({ dataDir: dir, databaseUrl: undefined });
  await again.store.accounts.insert(account('other'));
  expect(mode('service.db')).toBe(0o600);
  await again.store.close();
});
