/** The store the configuration names: PostgreSQL with DATABASE_URL, else SQLite in the data directory. */
import { chmodSync, closeSync, existsSync, openSync } from 'node:fs';
import { join } from 'node:path';
import type { PostgresOptions } from './postgres/database.js';
import { openPostgresStore } from './postgres/store.js';
import { openDatabase, type Db } from './sqlite.js';
import { createSqliteStore } from './sqlite-store.js';
import type { Store } from './store.js';

/** `db` is SQLite's connection (online backups use it); undefined on PostgreSQL, which pg_dump backs up. */
/** `postgres`: tests' smaller pool, shorter waits and timeouts (production uses database.ts's constants). */
export async function openStore(
  config: { dataDir: string; databaseUrl: string | undefined },
  postgres: PostgresOptions = {},
): Promise<{ store: Store; db: Db | undefined }> {
  if (config.databaseUrl) return { store: await openPostgresStore(config.databaseUrl, postgres), db: undefined };
  const path = join(config.dataDir, 'service.db');
  ownerOnly(path);
  const db = openDatabase(path);
  // SQLite gives its WAL and shared-memory files the database's mode; made so before, they are set here.
  for (const file of [`${path}-wal`, `${path}-shm`]) if (existsSync(file)) chmodSync(file, 0o600);
  return { store: createSqliteStore(db), db };
}

/**
 * The database holds password and token hashes and every account's sessions: readable by the
 * service's user alone, whatever the data directory's mode (a mount point, a volume) and the
 * runtime (only the process runtime's sandbox set it before: outside check 9).
 */
function ownerOnly(path: string): void {
  closeSync(openSync(path, 'a', 0o600));
  chmodSync(path, 0o600);
}
