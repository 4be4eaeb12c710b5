/**
 * The WAL's fsync (wal-sync.ts) opens the WAL file once and syncs that descriptor for the
 * connection's life, with no stat of the path per commit. That is only durable if SQLite keeps the
 * same file under the path while the connection is open: through checkpoints that reset the WAL
 * (it is rewritten from its start) and truncate it. This holds the assumption to account.
 */
import { fstatSync, mkdtempSync, readdirSync, readlinkSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { openDatabase } from '../../server/store/sqlite.js';
import { betweenBatches, createSqliteStore } from '../../server/store/sqlite-store.js';
import { account } from '../support/store-records.js';

let cleanup: (() => void)[] = [];
afterEach(() => {
  for (const step of cleanup.reverse()) step();
  cleanup = [];
});

/** This process's descriptors open on the file (as /proc names them: a removed file ends in " (deleted)"). */
function descriptorsOn(path: string): { fd: number; target: string }[] {
  return readdirSync('/proc/self/fd')
    .map((name) => {
      try {
        return { fd: Number(name), target: readlinkSync(`/proc/self/fd/${name}`) };
      } catch {
        return undefined;
      }
    })
    .filter((entry): entry is { fd: number; target: string } => entry !== undefined && entry.target.startsWith(path));
}

it('syncs the WAL file that is under its path, after checkpoints reset and truncate it', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'wal-sync-'));
  const db = openDatabase(join(dataDir, 'service.db'));
  const store = createSqliteStore(db);
  cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
  cleanup.push(() => void store.close());
  const wal = join(dataDir, 'service.db-wal');
  let n = 0;
  const writeSome = async (count: number) => {
    for (let i = 0; i < count; i++) await store.accounts.insert(account(`acc-${++n}`));
  };

  await writeSome(5);
  // SQLite's descriptor and the one the commits are synced through.
  expect(descriptorsOn(wal).length).toBe(2);
  for (const mode of ['RESTART', 'TRUNCATE', 'PASSIVE']) {
    await betweenBatches(db, () => db.pragma(`wal_checkpoint(${mode})`));
    // Past the default autocheckpoint (1,000 pages) too: the WAL resets under the writes.
    await writeSome(300);
    const open = descriptorsOn(wal);
    expect(open.map(({ target }) => target)).toEqual([wal, wal]);
    for (const { fd } of open) expect(fstatSync(fd).ino).toBe(statSync(wal).ino);
  }
});
