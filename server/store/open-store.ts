/** The store the configuration names: PostgreSQL with DATABASE_URL, else SQLite in the data directory. */
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
  const db = openDatabase(join(config.dataDir, 'service.db'));
  return { store: createSqliteStore(db), db };
}
