/**
 * An online backup of the SQLite store is taken between two of the group commit's batches: asked
 * for while a batch is open (writers mid-turn), it waits for that batch's commit and copies then,
 * so the copy exists, opens, and holds every write acknowledged before it was asked for. The
 * first wave stepped SQLite's backup API between turns instead; meeting an open batch it could
 * answer "done" for a copy it had deleted (the backup test failed about one run in three).
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { backupDataDir, DATABASE_FILE } from '../../server/store/backup.js';
import { openStore } from '../../server/store/open-store.js';
import { betweenBatches } from '../../server/store/sqlite-store.js';
import type { Store } from '../../server/store/store.js';
import { account } from '../support/store-records.js';
import { tempDirs } from '../support/temp-dirs.js';

describe('an online backup of the SQLite store', () => {
  const dir = tempDirs('backup-batches-');
  const stores: Store[] = [];
  afterAll(async () => {
    for (const store of stores) await store.close();
  });

  it('asked for while a batch is open, copies after its commit: every acknowledged write, none half done', async () => {
    const dataDir = dir();
    const { store, db } = await openStore({ dataDir, databaseUrl: undefined });
    stores.push(store);
    for (let i = 0; i < 20; i++) await store.accounts.insert(account(`before-${i}`));

    // Writers keep a batch open in every turn while the backup is asked for.
    let writing = true;
    let n = 0;
    const writer = (async () => {
      while (writing) await store.accounts.insert(account(`during-${n++}`));
    })();
    const pending = store.accounts.insert(account('in-the-open-batch'));
    expect(db!.inTransaction).toBe(true);
    const target = join(dir(), 'backup');
    const { files } = await backupDataDir(db!, dataDir, target, (fn) => betweenBatches(db!, fn));
    writing = false;
    await Promise.all([writer, pending]);

    expect(files).toContain(DATABASE_FILE);
    const copy = new Database(join(target, DATABASE_FILE), { readonly: true, fileMustExist: true });
    try {
      expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
      const ids = new Set((copy.prepare('SELECT id FROM accounts').all() as { id: string }[]).map((row) => row.id));
      for (let i = 0; i < 20; i++) expect(ids.has(`before-${i}`)).toBe(true);
      // The batch open when it was asked for had committed before the copy.
      expect(ids.has('in-the-open-batch')).toBe(true);
    } finally {
      copy.close();
    }
  });
});
