/** Runs the service with configuration from the environment (see README, Configuration). */
import { ConfigError, loadConfig } from './config/environment.js';
import { FleetConfigError } from './config/fleet.js';
import { isStoreFault, STORE } from './health.js';
import { portFree } from './port-check.js';
import { createService, type Service } from './service.js';
import { StoreConfigError } from './store/schema-version.js';
import { DatabaseCorrupt, DataDirectoryInUse } from './store/sqlite.js';

function fatal(message: string): never {
  console.error(message);
  process.exit(1);
}

let config;
try {
  config = loadConfig(process.env);
} catch (error) {
  if (error instanceof ConfigError) fatal(error.message);
  throw error;
}

// Before anything is created: a busy port must not cost the one-time token and password.
const free = await portFree(config.host, config.port);
if (free !== true) {
  fatal(
    free.code === 'EADDRINUSE'
      ? `${config.host}:${config.port} is already in use (another session host?): stop it or set PORT; nothing was created`
      : `cannot listen on ${config.host}:${config.port}: ${free.message}; nothing was created`,
  );
}

let service: Service;
try {
  service = await createService(config, {
    logger: {
      level: config.logLevel,
      // Belt and braces: request logs carry no headers, but never let a token through.
      redact: ['req.headers.authorization', 'headers.authorization', 'authorization', 'token'],
    },
  });
} catch (error) {
  if (error instanceof DataDirectoryInUse || error instanceof DatabaseCorrupt || error instanceof FleetConfigError || error instanceof StoreConfigError) {
    fatal(error.message);
  }
  // A file the service cannot open or write at start (a read-only mount, permissions): what and
  // where in one line, not a stack trace an operator has to read through.
  const failed = error as NodeJS.ErrnoException;
  if (['EROFS', 'EACCES', 'EPERM'].includes(failed?.code ?? '') && typeof failed.path === 'string') {
    fatal(`cannot start: ${failed.message}; the data directory (DATA_DIR=${config.dataDir}) must be on a writable file system the service's user can write`);
  }
  throw error;
}

// The last resort, for an error no code path caught. A store fault (a full disk, an I/O error) is
// safe to live with: every write is a transaction that committed or rolled back, and the service
// reports itself degraded until writes succeed again. Anything else may have left memory
// inconsistent: exit non-zero with the reason, and the restart recovers from the store.
function lastResort(error: unknown, origin: string): void {
  if (isStoreFault(error)) {
    service.health.failed(STORE, error);
    return;
  }
  console.error(`fatal: ${origin}, exiting so that a restart recovers from the store:`, error);
  process.exit(1);
}
process.on('uncaughtException', (error, origin) => lastResort(error, origin));
process.on('unhandledRejection', (reason) => lastResort(reason, 'unhandledRejection'));

if (service.bootstrapped?.generatedToken) {
  // Shown once, on the terminal, by design: it is the only way to learn the first token.
  process.stdout.write(
    `\nBootstrap: created operator account ${service.bootstrapped.accountId} with a token holding every scope.\n` +
      `Store it now; it is not shown again:\n\n  ${service.bootstrapped.generatedToken}\n\n`,
  );
}

const url = await service.listen();
if (service.operatorBootstrapped?.generatedPassword) {
  // Shown once, like the bootstrap token: the only way to learn the first operator's password.
  process.stdout.write(
    `\nAdmin panel: created operator ${service.operatorBootstrapped.email} (sign in at ${url}/admin/).\n` +
      `Its password, not shown again (set ADMIN_PASSWORD to choose it):\n\n  ${service.operatorBootstrapped.generatedPassword}\n\n`,
  );
}
process.stdout.write(`session host listening on ${url} (data in ${config.dataDir})\n`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    service.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  });
}
