/**
 * Opens the SQLite file in the data directory: WAL, synchronous FULL (a committed write
 * survives a crash of the process or the machine), foreign keys on, and an exclusive lock so
 * that only one service process writes to a data directory.
 */
import Database from 'better-sqlite3';
import { migrations } from './migrations.js';
import { refuseNewerSchema } from './schema-version.js';
import { walDamage } from './wal-check.js';

export type Db = Database.Database;

export class DataDirectoryInUse extends Error {}
export class DatabaseCorrupt extends Error {}

function corrupt(path: string, finding: string): DatabaseCorrupt {
  return new DatabaseCorrupt(
    `${path} is corrupt (${finding}); the service does not start on it, so that nothing is written into a damaged file.\n` +
      'To recover: keep this data directory aside for analysis, then restore the latest backup into an empty data\n' +
      'directory (copy the backup directory\'s files into it, see README "Backups") and start the service on that.\n' +
      'A copy of a running data directory (service.db and service.db-wal taken at different moments) is corrupt this way: use npm run backup.',
  );
}

/**
 * Throws DatabaseCorrupt when the WAL of the database at `path` is damaged (wal-check.ts). Called
 * before anything opens that database with SQLite: SQLite takes a damaged WAL for an empty one,
 * and deletes it on close (the last connection checkpoints), with every write it held.
 */
export function refuseDamagedWal(path: string): void {
  const walFinding = walDamage(`${path}-wal`);
  if (walFinding) throw corrupt(`${path}-wal`, `${walFinding}: SQLite would drop without a word every write it holds since the last checkpoint`);
}

export function openDatabase(path: string): Db {
  refuseDamagedWal(path);
  const db = new Database(path, { timeout: 0 });
  try {
    // Exclusive before WAL: the WAL index then lives in memory, not in a -shm file, so the
    // service also starts on a disk that is full (and nobody else can read the file meanwhile).
    db.pragma('locking_mode = EXCLUSIVE');
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    // Take the lock now rather than at the first write.
    db.exec('BEGIN IMMEDIATE; COMMIT');
    // Quick (structure, not index contents): refuse a torn copy before anything writes into it.
    const findings = db.pragma('quick_check(5)', { simple: false }) as { quick_check: string }[];
    if (findings[0]?.quick_check !== 'ok') throw corrupt(path, `quick_check: ${findings.map((f) => f.quick_check).join('; ')}`);
  } catch (error) {
    db.close();
    const code = (error as { code?: string }).code;
    if (code === 'SQLITE_BUSY') throw new DataDirectoryInUse(`${path} is in use by another service process`);
    if (code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB') throw corrupt(path, (error as Error).message);
    throw error;
  }
  try {
    migrate(db, path);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

/** The smallest real write (the header's user_version, rewritten unchanged): throws when the store cannot take writes. */
export function probeWrite(db: Db): void {
  db.pragma(`user_version = ${Number(db.pragma('user_version', { simple: true }))}`);
}

function migrate(db: Db, path: string): void {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied INTEGER NOT NULL)');
  const applied = new Set(db.prepare('SELECT version FROM schema_migrations').pluck().all() as number[]);
  refuseNewerSchema(path, [...applied], migrations);
  for (const migration of migrations) {
    if (applied.has(migration.version)) continue;
    db.transaction(() => {
      db.exec(migration.sql);
      db.prepare('INSERT INTO schema_migrations (version, name, applied) VALUES (?, ?, ?)').run(
        migration.version,
        migration.name,
        Date.now(),
      );
    })();
  }
}
