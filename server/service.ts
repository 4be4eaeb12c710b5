/**
 * Wires the service together: store, secrets, domain, handlers, HTTP. main.ts runs it; tests
 * start it in-process on port 0 with a data directory of their own.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyServerOptions } from 'fastify';
import type { Handlers } from '../generated/handlers.js';
import { bootstrap, type BootstrapResult } from './bootstrap.js';
import type { Config } from './config.js';
import { Sessions } from './domain/sessions.js';
import { Tokens } from './domain/tokens.js';
import { loadFleet, projectRoot, type FleetConfig } from './fleet.js';
import { outputHandlers } from './http/output-handlers.js';
import { sessionHandlers } from './http/session-handlers.js';
import { bubblewrapArgs, ProcessRuntime } from './runtime/process/process-runtime.js';
import type { Runtime } from './runtime/runtime.js';
import { SimulatedRuntime } from './runtime/simulated-runtime.js';
import { createSessionRepository } from './store/session-repository.js';
import { accountHandlers } from './http/account-handlers.js';
import { createApp } from './http/app.js';
import type { RequestContext } from './http/context.js';
import { pendingHandlers } from './http/pending-handlers.js';
import { tokenHandlers } from './http/token-handlers.js';
import { SecretBox } from './security/secret-box.js';
import { createTokenVault } from './security/token-vault.js';
import { createAccountRepository } from './store/account-repository.js';
import { openDatabase } from './store/sqlite.js';
import { createTokenRepository } from './store/token-repository.js';

const LAST_USED_FLUSH_MS = 2000;

function bubblewrapInstalled(): boolean {
  return (process.env.PATH ?? '').split(':').some((dir) => dir !== '' && existsSync(join(dir, 'bwrap')));
}

function createRuntime(driver: 'process' | 'simulated', fleet: FleetConfig, dataDir: string, now: () => number): Runtime {
  if (driver === 'simulated') return new SimulatedRuntime({ readyMs: 1000, stopMs: 500, now });
  const { isolation } = fleet.runtime;
  const isolate = isolation === 'bwrap' || (isolation === 'auto' && bubblewrapInstalled());
  return new ProcessRuntime({
    sessionsDir: join(dataDir, 'sessions'),
    graceMs: fleet.runtime.stopGraceSeconds * 1000,
    isolation: isolate ? (workDir) => bubblewrapArgs(projectRoot, dataDir, workDir) : undefined,
    now,
  });
}

export interface Service {
  app: ReturnType<typeof createApp>;
  sessions: Sessions;
  bootstrapped: BootstrapResult | undefined;
  /** Listen on the configured address; resolves to the base URL. */
  listen(): Promise<string>;
  close(): Promise<void>;
}

export function createService(
  config: Config,
  options: { logger?: FastifyServerOptions['logger']; now?: () => number } = {},
): Service {
  const now = options.now ?? Date.now;
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const db = openDatabase(join(config.dataDir, 'service.db'));
  const box = config.secretKey
    ? SecretBox.fromKey(Buffer.from(config.secretKey, 'base64'))
    : SecretBox.fromKeyFile(join(config.dataDir, 'secret.key'));

  const accounts = createAccountRepository(db);
  const tokens = new Tokens(
    createTokenRepository(db),
    createTokenVault(box),
    { isAccountActive: (id) => accounts.findById(id)?.disabled === false },
    now,
  );
  const bootstrapped = bootstrap(accounts, tokens, {
    bootstrapToken: config.bootstrapToken,
    quotaMinutes: config.defaultQuotaMinutes,
    now: now(),
  });

  const fleet = loadFleet(config.fleetFile);
  const runtime = createRuntime(config.runtime ?? fleet.runtime.driver, fleet, config.dataDir, now);
  const sessions = new Sessions(createSessionRepository(db), runtime, fleet, now);

  const handlers: Handlers<RequestContext> = {
    ...tokenHandlers(tokens),
    ...accountHandlers(accounts),
    ...sessionHandlers(sessions),
    ...outputHandlers(sessions),
    ...pendingHandlers([
      'streamEvents',
      'listSubscriptions',
      'createSubscription',
      'deleteSubscription',
      'listDeliveries',
      'registerImageTag',
    ]),
  };

  const app = createApp({ tokens, handlers, logger: options.logger ?? false });
  const flusher = setInterval(() => tokens.flushUses(), LAST_USED_FLUSH_MS);
  flusher.unref();

  return {
    app,
    bootstrapped,
    sessions,
    async listen() {
      await sessions.recover();
      await app.listen({ host: config.host, port: config.port });
      const address = app.server.address();
      if (address === null || typeof address === 'string') throw new Error('expected a TCP address');
      const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      return `http://${host}:${address.port}`;
    },
    async close() {
      clearInterval(flusher);
      await app.close();
      // Game servers keep running; the next start adopts them.
      await sessions.close();
      await runtime.close();
      tokens.flushUses();
      db.close();
    },
  };
}
