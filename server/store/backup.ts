/**
 * Online backups of a data directory: the database through SQLite's backup API (page by page,
 * between requests; writes made meanwhile through the same connection land in the copy too, so
 * the copy holds every write acknowledged before it finished), plus the key that opens the
 * sealed token copies. A backup is a directory; restoring is copying its files into an empty
 * data directory (README, "Backups").
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from './sqlite.js';

export const DATABASE_FILE = 'service.db';
/** Files of the data directory a backup carries besides the database (when present). */
const COMPANIONS = ['secret.key', 'fleet.json'];

export class BackupTargetNotEmpty extends Error {}

export async function backupDataDir(db: Db, dataDir: string, target: string): Promise<{ pages: number; files: string[] }> {
  mkdirSync(target, { recursive: true, mode: 0o700 });
  if (readdirSync(target).length > 0) throw new BackupTargetNotEmpty(`${target} is not empty: a backup goes into a new or empty directory`);
  const { totalPages } = await db.backup(join(target, DATABASE_FILE));
  const files = [DATABASE_FILE];
  for (const name of COMPANIONS) {
    if (!existsSync(join(dataDir, name))) continue;
    copyFileSync(join(dataDir, name), join(target, name));
    files.push(name);
  }
  return { pages: totalPages, files };
}
