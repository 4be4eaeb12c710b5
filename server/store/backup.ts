/**
 * Online backups of a data directory: the database by `VACUUM INTO` (one consistent copy, taken
 * between two of the group commit's batches, so it holds every write committed before it and no
 * write half done), synced to disk, plus the key that opens the sealed token copies. A backup is
 * a directory; restoring is copying its files into an empty data directory (README, "Backups").
 *
 * Not SQLite's incremental backup API: stepped between turns it met the open batch, and
 * better-sqlite3 then answered an unfinished copy as done and deleted its file (issue 19's review).
 */
import { chmodSync, closeSync, copyFileSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from './sqlite.js';

export const DATABASE_FILE = 'service.db';
/** Files of the data directory a backup carries besides the database (when present). */
const COMPANIONS = ['secret.key', 'fleet.json'];

/** Every file of a backup: it holds password hashes and every account's data. */
const PRIVATE = 0o600;

export class BackupTargetNotEmpty extends Error {}

/** Runs fn with no transaction open on the connection (the service: betweenBatches in sqlite-store.ts). */
export type Quiet = <T>(fn: () => T) => Promise<T>;

export async function backupDataDir(
  db: Db,
  dataDir: string,
  target: string,
  quiet: Quiet = async (fn) => fn(),
): Promise<{ pages: number; files: string[] }> {
  mkdirSync(target, { recursive: true, mode: 0o700 });
  if (readdirSync(target).length > 0) throw new BackupTargetNotEmpty(`${target} is not empty: a backup goes into a new or empty directory`);
  const file = join(target, DATABASE_FILE);
  // The service's alone whatever the directory's mode (it may be readable by all, and every game
  // server's sandbox shows / read-only): made empty at 0600 first, which VACUUM INTO keeps.
  closeSync(openSync(file, 'wx', PRIVATE));
  // Blocks the event loop for the copy (milliseconds per megabyte): writes wait, none is lost.
  await quiet(() => db.prepare('VACUUM INTO ?').run(file));
  syncFile(file);
  const pages = (db.pragma('page_count', { simple: true }) as number) ?? 0;
  const files = [DATABASE_FILE];
  for (const name of COMPANIONS) {
    if (!existsSync(join(dataDir, name))) continue;
    copyFileSync(join(dataDir, name), join(target, name));
    chmodSync(join(target, name), PRIVATE);
    syncFile(join(target, name));
    files.push(name);
  }
  syncFile(target);
  return { pages, files };
}

/** VACUUM INTO does not sync what it writes: a backup must survive a power cut right after it. */
function syncFile(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
