/**
 * Wires the service together: store, secrets, domain, runtime, events, handlers, HTTP. main.ts
 * runs it; tests start it in-process on port 0 with a data directory of their own.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { FastifyServerOptions } from 'fastify';
import type { Handlers } from '../generated/handlers.js';
import { bootstrap, type BootstrapResult } from './bootstrap.js';
import type { Config } from './config.js';
import { Admin } from './domain/admin.js';
import { Catalog } from './domain/catalog.js';
import { Operators } from './domain/operators.js';
import { onboardAccount, type Onboarding } from './domain/onboarding.js';
import { Quota } from './domain/quota.js';
import { Sessions } from './domain/sessions.js';
import { Tokens } from './domain/tokens.js';
import { WebhookDispatcher } from './events/webhooks.js';
import { FleetConfigError, loadFleet, projectRoot, sandboxFleet, type FleetConfig } from './fleet.js';
import { accountHandlers } from './http/account-handlers.js';
import { adminHandlers } from './http/admin-handlers.js';
import { createApp } from './http/app.js';
import { eventHandlers, OpenStreams } from './http/event-handlers.js';
import { observabilityHandlers } from './http/observability-handlers.js';
import { outputHandlers } from './http/output-handlers.js';
import { registryHandlers } from './http/registry-handlers.js';
import { sessionHandlers } from './http/session-handlers.js';
import { sessionEventBody } from './http/session-view.js';
import { subscriptionHandlers } from './http/subscription-handlers.js';
import { tokenHandlers } from './http/token-handlers.js';
import { createStartRateLimiter } from './limits/start-rate.js';
import { instrument } from './observability/instrument.js';
import { registerLevels } from './observability/levels.js';
import { createMetrics } from './observability/metrics.js';
import { OverviewHistory } from './observability/overview.js';
import { countDeliveries, countSessionEvents, deliveryLag } from './observability/service-metrics.js';
import { Tracing } from './observability/tracing.js';
import { bubblewrapArgs, ProcessRuntime } from './runtime/process/process-runtime.js';
import { DockerRuntime } from './runtime/docker/docker-runtime.js';
import type { Runtime } from './runtime/runtime.js';
import { SimulatedRuntime } from './runtime/simulated-runtime.js';
import { operatorSecrets } from './security/passwords.js';
import { SecretBox } from './security/secret-box.js';
import { createTokenVault } from './security/token-vault.js';
import { createAccessGrants, createAccountRepository } from './store/account-repository.js';
import { createAuditLog, createNodeLocks, createOperatorRepository } from './store/admin-repository.js';
import { createImageTagRepository } from './store/image-tag-repository.js';
import { createSessionRepository } from './store/session-repository.js';
import { openDatabase } from './store/sqlite.js';
import { createSubscriptionRepository } from './store/subscription-repository.js';
import { createTokenRepository } from './store/token-repository.js';

const LAST_USED_FLUSH_MS = 2000;
const SHUTDOWN_GRACE_MS = 2000;
/** The event replay window: the last 10,000 events or 24 hours, whichever is less. */
const EVENT_WINDOW = { count: 10_000, ageMs: 24 * 60 * 60 * 1000, pruneEveryMs: 60_000 };

/** The absolute path of bubblewrap, if installed. */
function findBubblewrap(): string | undefined {
  return (process.env.PATH ?? '')
    .split(':')
    .filter((dir) => dir !== '')
    .map((dir) => join(dir, 'bwrap'))
    .find((path) => existsSync(path));
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}

function createRuntime(config: Config, fleet: FleetConfig, now: () => number): Runtime {
  const driver = config.sandbox ? 'simulated' : (config.runtime ?? fleet.runtime.driver);
  if (driver === 'simulated') return new SimulatedRuntime({ ...config.simulated, now });
  if (driver === 'docker') {
    if (!isLoopback(config.host)) {
      console.warn(
        `HOST=${config.host}: the API listens beyond loopback while game servers run in containers; ` +
          'apply deploy/docker/session-host-firewall.nft on every engine host (and keep the API behind a proxy) so no container reaches it',
      );
    }
    const local = fleet.locations.flatMap((l) => l.nodes).some((n) => n.docker?.engine.startsWith('unix://'));
    if (local && process.getuid?.() !== 0) {
      throw new FleetConfigError(
        'the docker runtime mounts each session\'s size-limited working directory on this machine, which needs root: run the service as root',
      );
    }
    return new DockerRuntime({
      dataDir: config.dataDir,
      nodes: fleet.locations.flatMap((l) => l.nodes).map((n) => ({ id: n.id, docker: n.docker! })),
      graceMs: fleet.runtime.stopGraceSeconds * 1000,
      retentionHours: fleet.runtime.retentionHours ?? 24,
      now,
    });
  }
  const { isolation } = fleet.runtime;
  const bwrap = isolation === 'none' ? undefined : findBubblewrap();
  if (isolation === 'bwrap' && !bwrap) throw new FleetConfigError('runtime.isolation is "bwrap" but bubblewrap (bwrap) is not installed');
  if (isolation === 'auto' && !bwrap) {
    console.warn('bubblewrap is not installed: game servers run without isolation (install it, or set runtime.isolation to "none" to silence this)');
  }
  return new ProcessRuntime({
    sessionsDir: join(config.dataDir, 'sessions'),
    graceMs: fleet.runtime.stopGraceSeconds * 1000,
    isolation: bwrap ? (workDir) => bubblewrapArgs(bwrap, projectRoot, config.dataDir, workDir) : undefined,
    now,
  });
}

export interface Service {
  app: ReturnType<typeof createApp>;
  sessions: Sessions;
  bootstrapped: BootstrapResult | undefined;
  /** The first panel operator, when listen() created it; with the password when it was generated. */
  operatorBootstrapped: { email: string; generatedPassword?: string } | undefined;
  /** Onboard a studio account (the admin panel's job; tests use it too). */
  onboard(onboarding: Onboarding): { accountId: string; token: string };
  /** Listen on the configured address; resolves to the base URL. */
  listen(): Promise<string>;
  close(): Promise<void>;
}

export function createService(
  config: Config,
  options: {
    logger?: FastifyServerOptions['logger'];
    now?: () => number;
    /** Where spans go instead of OTLP, each as it ends (tests); traces are recorded when this or an OTLP endpoint is set. */
    spanExporter?: SpanExporter;
  } = {},
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

  const observing = config.observability;
  const tracing = options.spanExporter
    ? new Tracing({ exporter: options.spanExporter, exportEachSpan: true })
    : new Tracing({ exporter: observing.exportTraces ? new OTLPTraceExporter() : undefined });
  const metrics = createMetrics();
  const recorded = observing.metrics ? metrics : undefined;

  const fleet = loadFleet(config.fleetFile, config.sandbox ? sandboxFleet : undefined);
  const runtime = instrument(createRuntime(config, fleet, now), 'runtime', { tracing });
  const sessionRepository = instrument(createSessionRepository(db), 'store', { tracing, duration: recorded?.storeDuration });
  const storedSubscriptions = createSubscriptionRepository(db);
  const subscriptions = recorded ? countDeliveries(recorded, storedSubscriptions) : storedSubscriptions;
  const grants = createAccessGrants(db);
  const catalog = new Catalog(fleet, createImageTagRepository(db), grants, createNodeLocks(db));
  const quota = new Quota(
    {
      account: (id) => accounts.findById(id),
      addUsedSeconds: (id, seconds) => accounts.addUsedSeconds(id, seconds),
      runningSince: (id) => sessionRepository.runningSince(id),
      accountsWithRunningSessions: () => sessionRepository.accountsWithRunningSessions(),
    },
    {
      charge: !config.sandbox,
      terminate: config.quota.terminate,
      graceMs: config.quota.graceSeconds * 1000,
      tickMs: config.quota.tickMs,
    },
    now,
  );
  const sessions = instrument(new Sessions({
    repository: sessionRepository,
    runtime,
    catalog,
    quota,
    startRate: createStartRateLimiter(config.startRate),
    now,
    onError: (error) => app.log.error({ err: error }, 'session background work failed'),
  }), 'domain', { tracing });
  const lag = recorded ? deliveryLag(recorded, now) : () => {};
  const webhooks = new WebhookDispatcher({
    subscriptions,
    events: sessionRepository,
    box,
    body: (event) => {
      lag(event);
      return JSON.stringify(sessionEventBody(event));
    },
    now,
    backoffMs: config.webhookBackoffMs,
    onError: (error) => app.log.error({ err: error }, 'webhook delivery failed'),
  });
  sessions.onChange(() => webhooks.kick());

  const operators = new Operators(createOperatorRepository(db), operatorSecrets, now);
  if (recorded) {
    countSessionEvents(recorded, sessions, runtime);
    registerLevels(recorded, {
      liveSessions: () => sessionRepository.live(),
      locations: () => sessions.fleetLocations(),
      accounts,
      accountsWithRunningSessions: () => sessionRepository.accountsWithRunningSessions(),
      quota,
      topAccounts: observing.topAccounts,
    });
  }
  const overview = new OverviewHistory(metrics, observing.overviewIntervalSeconds * 1000, now, (error) =>
    app.log.error({ err: error }, 'overview sample failed'),
  );

  const admin = new Admin({ accounts, grants, tokens, usage: (id) => quota.usage(id), audit: createAuditLog(db), fleet, now });

  const eventStreams = new OpenStreams();
  const handlers: Handlers = {
    ...tokenHandlers(tokens),
    ...accountHandlers(accounts, quota),
    ...sessionHandlers(sessions),
    ...outputHandlers(sessions),
    ...eventHandlers(sessions, sessionRepository, eventStreams, now),
    ...subscriptionHandlers(subscriptions, () => sessionRepository.latestEventId(), box, now),
    ...registryHandlers(catalog, now),
    ...adminHandlers({ operators, admin, sessions, catalog, now }),
    ...observabilityHandlers(metrics, overview),
  };

  const app = createApp({ tokens, operators, handlers, sandbox: config.sandbox, logger: options.logger ?? false, tracing, metrics: recorded });
  const timers = [
    setInterval(() => tokens.flushUses(), LAST_USED_FLUSH_MS),
    setInterval(
      () =>
        sessionRepository.pruneEvents({
          count: EVENT_WINDOW.count,
          sinceMs: now() - EVENT_WINDOW.ageMs,
          // Never past a subscription that has not delivered them yet.
          keepAfter: subscriptions.lowestCursor(),
        }),
      EVENT_WINDOW.pruneEveryMs,
    ),
  ];
  for (const timer of timers) timer.unref();

  const service: Service = {
    app,
    sessions,
    bootstrapped,
    operatorBootstrapped: undefined,
    onboard: (onboarding) => onboardAccount(accounts, tokens, onboarding, now()),
    async listen() {
      service.operatorBootstrapped = await operators.bootstrap(config.admin.email, config.admin.password);
      await sessions.recover();
      await app.listen({ host: config.host, port: config.port });
      const address = app.server.address();
      if (address === null || typeof address === 'string') throw new Error('expected a TCP address');
      const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      return `http://${host}:${address.port}`;
    },
    async close() {
      for (const timer of timers) clearInterval(timer);
      webhooks.close();
      overview.close();
      eventStreams.endAll();
      // In-flight requests get a moment to finish; a client that holds a connection open does not hold up the shutdown.
      const cutOff = setTimeout(() => app.server.closeAllConnections(), SHUTDOWN_GRACE_MS);
      await app.close();
      clearTimeout(cutOff);
      // Game servers keep running; the next start adopts them.
      await sessions.close();
      await runtime.close();
      tokens.flushUses();
      db.close();
      await tracing.shutdown();
    },
  };
  return service;
}
