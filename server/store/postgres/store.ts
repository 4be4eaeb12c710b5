/** The PostgreSQL store (DATABASE_URL): the repositories of this folder over one pool. */
import type { Store } from '../store.js';
import { createPgAccessGrants, createPgAccountRepository } from './accounts.js';
import { createPgAuditLog, createPgNodeLocks, createPgOperatorRepository } from './admin.js';
import { openPostgres, type PostgresOptions } from './database.js';
import { createPgSessionStore } from './sessions.js';
import { createPgImageTagRepository, createPgSubscriptionRepository } from './subscriptions.js';
import { createPgTokenRepository } from './tokens.js';
import { createPgWarmServerRepository } from './warm-servers.js';

export async function openPostgresStore(url: string, options: PostgresOptions = {}): Promise<Store> {
  const database = await openPostgres(url, options);
  const { sql } = database;
  return {
    kind: 'postgres',
    accounts: createPgAccountRepository(sql),
    grants: createPgAccessGrants(database),
    tokens: createPgTokenRepository(database),
    sessions: createPgSessionStore(database),
    subscriptions: createPgSubscriptionRepository(database),
    imageTags: createPgImageTagRepository(sql),
    operators: createPgOperatorRepository(database),
    audit: createPgAuditLog(database),
    nodeLocks: createPgNodeLocks(sql),
    warmServers: createPgWarmServerRepository(sql),
    probeWrite: async () => {
      // A real write that changes nothing: fails when the database refuses writes (read-only, disk full, gone).
      await sql.run('UPDATE schema_migrations SET applied = applied WHERE version = (SELECT max(version) FROM schema_migrations)');
    },
    clockMs: async () => {
      const [row] = await sql.rows<{ ms: number }>('SELECT extract(epoch FROM clock_timestamp())::float8 * 1000 AS ms');
      return Number(row!.ms);
    },
    onUnresponsive: (listener) => database.onUnresponsive(listener),
    close: () => database.close(),
  };
}
