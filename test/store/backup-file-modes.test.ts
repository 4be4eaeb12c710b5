/**
 * A backup holds the operator's password hash and every account's sessions and token metadata:
 * its files are the service's alone (0600), whatever the mode of the directory it goes into (an
 * existing directory readable by all, visible read-only inside every game server's sandbox).
 */
import { chmodSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { backupDataDir } from '../../server/store/backup.js';
import { openStore } from '../../server/store/open-store.js';
import type { Store } from '../../server/store/store.js';
import { account } from '../support/store-records.js';
import { tempDirs } from '../support/temp-dirs.js';

describe('backup file modes', () => {
  const dir = tempDirs('backup-modes-');
  const stores: Store[] = [];
  afterAll(async () => {
    for (const store of stores) await store.close();
  });

  it('writes every file 0600 into an existing directory readable by all', async () => {
    const dataDir = dir();
    writeFileSync(join(dataDir, 'fleet.json'), '{}', { mode: 0o644 });
    const { store, db } = await openStore({ dataDir, databaseUrl: undefined });
    stores.push(store);
    await store.accounts.insert(account('a'));
    const target = join(dir(), 'existing');
    mkdirSync(target);
    chmodSync(target, 0o755);
    const previous = process.umask(0o022);
    try {
      await backupDataDir(db!, dataDir, target);
    } finally {
      process.umask(previous);
    }
    const modes = Object.fromEntries(readdirSync(target).map((name) => [name, (statSync(join(target, name)).mode & 0o777).toString(8)]));
    expect(modes).toMatchObject({ 'service.db': '600', 'fleet.json': '600' });
    expect(Object.values(modes).every((mode) => mode === '600')).toBe(true);
  });
});
