/**
 * `session-host admin reset-password`: sets a new password for an admin panel operator, on the
 * data directory of a stopped service (the service holds the database exclusively, and a
 * forgotten password cannot sign in to change itself). ADMIN_PASSWORD chooses the new password;
 * without it one is generated and printed once. ADMIN_PASSWORD at service start only applies
 * when it creates the first operator.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, loadConfig } from './config/environment.js';
import { Operators } from './domain/operators.js';
import { operatorSecrets } from './security/passwords.js';
import { openStore } from './store/open-store.js';
import { DataDirectoryInUse } from './store/sqlite.js';
import type { Store } from './store/store.js';

export type ResetOutcome = { ok: true; email: string; generatedPassword?: string } | { ok: false; message: string };

export async function resetOperatorPassword(env: NodeJS.ProcessEnv, email?: string): Promise<ResetOutcome> {
  let config;
  try {
    config = loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return { ok: false, message: error.message };
    throw error;
  }
  const target = email ?? config.admin.email;
  if (!config.databaseUrl && !existsSync(join(config.dataDir, 'service.db'))) {
    return { ok: false, message: `no service data in ${config.dataDir} (set DATA_DIR)` };
  }
  let store: Store;
  try {
    ({ store } = await openStore(config));
  } catch (error) {
    if (error instanceof DataDirectoryInUse) return { ok: false, message: `${error.message}: stop the service first` };
    throw error;
  }
  try {
    const operators = new Operators(store.operators, operatorSecrets, Date.now);
    const result = await operators.resetPassword(target, config.admin.password);
    if (!result) return { ok: false, message: `no operator ${target} in ${config.dataDir}` };
    return { ok: true, email: target, ...result };
  } finally {
    await store.close();
  }
}
