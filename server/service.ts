/**
 * Wires the service together: store, secrets, domain, runtime, events, handlers, HTTP. main.ts
 * runs it; tests start it in-process on port 0 with a data directory of their own.
 */
import { mkdirSync } from 'node:fs';
import type { Server } from 'node:net';
import { isAbsolute, join } from 'node:path';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { FastifyServerOptions } from 'fastify';
import type { Handlers } from '../generated/handlers.js';
import { bootstrap, type BootstrapResult } from './bootstrap.js';
import type { Config } from './config/environment.js';
import { Admin } from './domain/admin.js';
import { Catalog, limitsOf } from './domain/catalog.js';
import { Operators } from './domain/operators.js';
import { onboardAccount, type Onboarding } from './domain/onboarding.js';
import { Quota } from './domain/quota.js';
import { WarmPools } from './domain/warm-pools.js';
import { Sessions } from './domain/sessions.js';
import { StorageBudget } from './domain/storage-budget.js';
import { Tokens } from './domain/tokens.js';
import { EgressGuard } from './events/egress-guard.js';
import { cappedFloors } from './events/event-hold.js';
import { localEventFeed, StoreEventFeed } from './events/event-feed.js';
import { joinCluster, type Membership } from './cluster/membership.js';
import { NodeSupervision } from './cluster/node-supervision.js';
import { PostgresCoordination } from './cluster/postgres.js';
import { WebhookDispatcher } from './events/webhooks.js';
import { loadFleet, sandboxFleet } from './config/fleet.js';
import { createRuntime, runtimeDriver } from './runtime/create-runtime.js';
import { fileTableWarning, hostFileMax, mayRaiseLimits, openFilesLimitWarning, ownHardOpenFiles } from './runtime/process/file-table.js';
import { fleetFlows, sharedTableWarning } from './runtime/process/egress-firewall.js';
import type { FleetConfig } from './config/fleet-types.js';
import type { Runtime } from './domain/ports/runtime.js';
import { monotonicMs, sharedWall, steadyClock } from './clock.js';
import { listenControl, type ControlRequest } from './control.js';
import { Health, isStoreFault, STORE } from './health.js';
import { instanceIdentity } from './instance.js';
import { accountHandlers } from './http/account/account-handlers.js';
import { adminHandlers } from './http/admin/admin-handlers.js';
import { warmPoolHandlers } from './http/admin/warm-pool-handlers.js';
import { createApp } from './http/app.js';
import { drainConnections } from './http/drain-connections.js';
import { eventHandlers } from './http/events/event-handlers.js';
import { healthHandlers } from './http/health/health-handlers.js';
import { metricsHandlers } from './http/metrics/metrics-handlers.js';
import { OpenStreams } from './http/open-streams.js';
import { logHandlers } from './http/logs/log-handlers.js';
import { artifactHandlers, DEFAULT_ARCHIVE_LIMITS } from './http/artifacts/artifact-handlers.js';
import { playerHandlers } from './http/players/player-handlers.js';
import { locationHandlers } from './http/locations/location-handlers.js';
import { registryHandlers } from './http/webhooks/registry-handlers.js';
import { sessionHandlers } from './http/sessions/session-handlers.js';
import { sessionEventBody } from './http/session-view.js';
import { subscriptionHandlers } from './http/events/subscription-handlers.js';
import { tokenHandlers } from './http/tokens/token-handlers.js';
import { DEFAULT_TURN_STALL_MS } from './limits/per-key-slots.js';
import { createStartRateLimiter } from './limits/start-rate.js';
import { instrument } from './observability/instrument.js';
import { registerLevels } from './observability/levels.js';
import { createMetrics } from './observability/metrics.js';
import { OverviewHistory } from './observability/overview.js';
import { countDeliveries, countSessionEvents, deliveryLag } from './observability/service-metrics.js';
import { loggedAudit } from './observability/audit-trail.js';
import { Tracing } from './observability/tracing.js';
import { operatorSecrets } from './security/passwords.js';
import { SecretBox } from './security/secret-box.js';
import { createTokenVault } from './security/token-vault.js';
import { backupDataDir } from './store/backup.js';
import { openStore } from './store/open-store.js';
import type { PostgresOptions } from './store/postgres/database.js';
import { betweenBatches } from './store/sqlite-store.js';
import type { Db } from './store/sqlite.js';
import type { Store } from './store/store.js';

const LAST_USED_FLUSH_MS = 2000;
const SHUTDOWN_GRACE_MS = 2000;
/** How long a cached token verdict is trusted when several instances may share the store (a second line behind the bus). */
export const SHARED_VERDICT_MAX_AGE_MS = 3000;
/** The event replay window: the last 10,000 events or 24 hours, whichever is less. */
/**
 * The replay window: the newest 10,000 events of the last 24 hours, and of those no more than
 * 256 MiB of copies of their sessions (each event copies its session, labels and players: 10,000
 * of the largest would be gigabytes).
 */
const EVENT_WINDOW = {
  count: 10_000,
  ageMs: 24 * 60 * 60 * 1000,
  bytes: 256 * 1024 * 1024,
  /** What an account's subscriptions may hold back past the window, of its own events. */
  held: { count: 10_000, bytes: 32 * 1024 * 1024 },
  pruneEveryMs: 60_000,
};

export interface Service {
  app: ReturnType<typeof createApp>;
  sessions: Sessions;
  /** Background failures and readiness (GET /readyz); main.ts reports store faults that escaped. */
  health: Health;
  bootstrapped: BootstrapResult | undefined;
  /** The first panel operator, when listen() created it; with the password when it was generated. */
  operatorBootstrapped: { email: string; generatedPassword?: string } | undefined;
  /** Onboard a studio account (the admin panel's job; tests use it too). */
  onboard(onboarding: Onboarding): Promise<{ accountId: string; token: string }>;
  /** The store it runs on (SQLite in the data directory, or PostgreSQL with DATABASE_URL). */
  store: Store;
  /** The pruning a timer runs every minute (events, then records past the retention), run now (tests use it). */
  pruneRecords(): Promise<void>;
  /** Listen on the configured address; resolves to the base URL. */
  listen(): Promise<string>;
  close(): Promise<void>;
}

export async function createService(
  config: Config,
  options: {
    logger?: FastifyServerOptions['logger'];
    /** The wall clock (read at start). */
    now?: () => number;
    /** What advances the service's clock from there (server/clock.ts); tests that move time move both. */
    monotonic?: () => number;
    /** Where spans go instead of OTLP, each as it ends (tests); traces are recorded when this or an OTLP endpoint is set. */
    spanExporter?: SpanExporter;
    /** Tests: the PostgreSQL store's pool size, waits and timeouts (DATABASE_URL only). */
    postgres?: PostgresOptions;
  } = {},
): Promise<Service> {
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const { store, db } = await openStore(config, options.postgres);
  // Several instances on one database: one time for all, the database's (tests that move time inject theirs).
  const shared = !options.now && store.clockMs ? await sharedWall(Date.now, () => store.clockMs!()) : undefined;
  if (shared?.offsetMs) {
    console.warn(`this machine's clock is ${(shared.offsetMs / 1000).toFixed(1)} s behind the database's (a negative figure: ahead); the service's clock follows the database's: fix the machine's time (NTP)`);
  }
  const now = steadyClock(options.now ?? shared?.wall ?? Date.now, options.monotonic ?? monotonicMs);
  // Logs through the app's logger, created below (background work starts only after that).
  const health = new Health({
    log: {
      error: (fields, message) => app.log.error(fields, message),
      warn: (fields, message) => app.log.warn(fields, message),
      info: (fields, message) => app.log.info(fields, message),
    },
    probe: () => store.probeWrite(),
    now,
  });
  // PostgreSQL stopped answering: degraded at once (a load balancer stops routing here), until a probe write succeeds.
  store.onUnresponsive?.((error) => health.failed(STORE, error));
  const box = config.secretKey
    ? SecretBox.fromKey(Buffer.from(config.secretKey, 'base64'))
    : SecretBox.fromKeyFile(join(config.dataDir, 'secret.key'));

  const { accounts } = store;
  const isAccountActive = async (id: string) => (await accounts.findById(id))?.disabled === false;
  // With several instances, a verdict another instance's forget message never reached expires anyway.
  const tokens = new Tokens(store.tokens, createTokenVault(box), { isAccountActive }, now, {
    verdictMaxAgeMs: config.databaseUrl ? SHARED_VERDICT_MAX_AGE_MS : undefined,
    perAccount: config.limits.tokens,
  });

  const observing = config.observability;
  const tracing = options.spanExporter
    ? new Tracing({ exporter: options.spanExporter, exportEachSpan: true, sampling: observing.traceSampling })
    : new Tracing({ exporter: observing.exportTraces ? new OTLPTraceExporter() : undefined, sampling: observing.traceSampling });
  const metrics = createMetrics();
  const recorded = observing.metrics ? metrics : undefined;

  const fleet = loadFleet(config.fleetFile, config.sandbox ? sandboxFleet : undefined);
  const instance = instanceIdentity(config.dataDir);
  // Several instances on one PostgreSQL coordinate through it (server/cluster/); alone, nothing to share.
  const coordination = config.databaseUrl
    ? await PostgresCoordination.start({
        databaseUrl: config.databaseUrl,
        instanceId: instance.id,
        onError: (error) => clusterTrouble(error),
      })
    : undefined;
  let membership: Membership | undefined;
  // Connection trouble is retried; it is only logged (the app's logger once it exists).
  const clusterTrouble = (error: unknown) => {
    try {
      app.log.warn({ err: error }, 'cluster coordination trouble; retrying');
    } catch {
      console.warn('cluster coordination trouble; retrying:', error);
    }
  };
  const localRuntime = instrument(createRuntime(config, fleet, now, instance.id, coordination?.deploymentId, {
    reporter: health,
    log: { warn: (fields, message) => app.log.warn(fields, message) },
  }), 'runtime', { tracing });
  // With several instances each node's sessions have one supervisor; stops reach it over the bus.
  const supervision = coordination
    ? new NodeSupervision(coordination, localRuntime, fleet.locations.flatMap((l) => l.nodes.map((n) => n.id)), (error) => clusterTrouble(error))
    : undefined;
  const runtime = supervision?.runtime ?? localRuntime;
  const sessionRepository = instrument(store.sessions, 'store', { tracing, duration: recorded?.storeDuration });
  const subscriptions = recorded ? countDeliveries(recorded, store.subscriptions) : store.subscriptions;
  const { grants } = store;
  const catalog = new Catalog(fleet, store.imageTags, grants, store.nodeLocks);
  const quota = new Quota(
    {
      account: (id) => accounts.findById(id),
      addUsedSeconds: (id, seconds) => accounts.addUsedSeconds(id, seconds),
      launchedAt: (id) => sessionRepository.launchedAt(id),
      launchSummary: (id) => sessionRepository.launchSummary(id),
      accountsWithLiveSessions: () => sessionRepository.accountsWithLiveSessions(),
    },
    {
      charge: !config.sandbox,
      terminate: config.quota.terminate,
      graceMs: config.quota.graceSeconds * 1000,
      tickMs: config.quota.tickMs,
    },
    now,
    health,
  );
  const storage = new StorageBudget(config.storageBudgetMiB * 1024 * 1024, (accountId) => sessionRepository.storedSize(accountId));
  const sessions = instrument(new Sessions({
    repository: sessionRepository,
    runtime,
    catalog,
    quota,
    startRate: createStartRateLimiter(config.startRate, coordination?.pool),
    maxSessions: async (accountId) => (await accounts.findById(accountId))?.maxSessions,
    now,
    reporter: health,
    storage,
    // Warm pools where the runtime can hand a warm game server its session.
    ...(warmPoolsServed(runtime, fleet, config.databaseUrl !== undefined)
      ? { warm: { pools: new WarmPools(fleet.pools ?? [], store.warmServers), servers: store.warmServers, shared: config.databaseUrl !== undefined } }
      : {}),
  }), 'domain', { tracing });
  const lag = recorded ? deliveryLag(recorded, now) : () => {};
  const guard = new EgressGuard(config.webhookAllowedNetworks);
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
    onError: (error) => health.failed('webhooks', error),
    onRecorded: () => health.recovered('webhooks'),
    guard,
    isAccountActive,
    ...(coordination
      ? {
          mayDeliver: (accountId: string) => membership?.delivers(accountId) ?? false,
          confirmLease: async (accountId: string) => (await membership?.confirmsDelivery(accountId)) ?? false,
          leaseFence: (accountId: string) => membership?.deliveryFence(accountId),
        }
      : {}),
  });
  sessions.onChange((change) => webhooks.notify(change.session.accountId));
  // Event streams: this instance's changes, or with several instances the log all of them write.
  const storeFeed = coordination
    ? new StoreEventFeed(
        sessionRepository,
        (error) => health.failed('event-streams', error),
        () => health.recovered('event-streams'),
      )
    : undefined;
  if (storeFeed && coordination) {
    sessions.onChange((change) => storeFeed.poke(change.session.accountId));
    membership = joinCluster(coordination, {
      tokens,
      sessions,
      quota,
      webhooks,
      accountsWithSubscriptions: () => subscriptions.accountsWithSubscriptions(),
      events: storeFeed,
      onError: (error) => clusterTrouble(error),
    });
  }

  const operators = new Operators(store.operators, operatorSecrets, now, options.monotonic ?? monotonicMs);
  if (recorded) {
    countSessionEvents(recorded, sessions, runtime);
    registerLevels(recorded, {
      liveSessions: () => sessionRepository.live(),
      locations: () => sessions.fleetLocations(),
      accounts,
      accountsWithRunningSessions: () => sessionRepository.accountsWithLiveSessions(),
      quota,
      topAccounts: observing.topAccounts,
    });
  }
  const overview = new OverviewHistory(metrics, observing.overviewIntervalSeconds * 1000, now, (error) =>
    app.log.error({ err: error }, 'overview sample failed'),
  );

  const audit = loggedAudit(store.audit, { info: (fields, message) => app.log.info(fields, message) });
  const admin = new Admin({ accounts, grants, tokens, usage: (id) => quota.usage(id), audit, fleet, now });

  const archives = config.limits.archives ?? DEFAULT_ARCHIVE_LIMITS;
  const turnStallMs = config.limits.turnStallMs ?? DEFAULT_TURN_STALL_MS;
  const eventStreams = new OpenStreams(config.limits.streams, (tokenId) => tokens.isLive(tokenId), { artifacts: archives.concurrent });
  const handlers: Handlers = {
    ...healthHandlers(health),
    ...tokenHandlers(tokens, audit, now),
    ...accountHandlers(accounts, quota),
    ...sessionHandlers(sessions, turnStallMs),
    ...playerHandlers(sessions),
    ...locationHandlers(sessions),
    ...logHandlers(sessions, eventStreams, turnStallMs),
    ...artifactHandlers(sessions, eventStreams, archives),
    ...eventHandlers(sessions, sessionRepository, eventStreams, now, storeFeed ?? localEventFeed(sessions), {
      warn: (fields, message) => app.log.warn(fields, message),
      error: (fields, message) => app.log.error(fields, message),
    }),
    ...subscriptionHandlers({
      subscriptions,
      latestEventId: () => sessionRepository.latestEventId(),
      box,
      now,
      perAccount: config.limits.subscriptions,
      guard,
    }),
    ...registryHandlers(catalog, now),
    ...adminHandlers({ operators, admin, sessions, catalog, overview, now }),
    ...warmPoolHandlers(sessions),
    ...metricsHandlers(metrics, async (accountId) => (await accounts.findById(accountId))?.operator === true),
  };

  const app = createApp({
    tokens,
    operators,
    handlers,
    sandbox: config.sandbox,
    logger: options.logger ?? false,
    tracing,
    metrics: recorded,
    serverLimits: config.http,
    trustProxy: config.trustProxy,
  });
  // A request that failed on the store (500, or 503 for a full disk or an unreachable database): degraded until a probe write succeeds.
  app.addHook('onError', async (_request, _reply, error) => {
    if (isStoreFault(error)) health.failed(STORE, error);
  });
  /**
   * Events past the replay window, then ended sessions' records (and what they held of the
   * storage budget), delivery records and ended tokens past the retention. With several
   * instances, the retention leader's job.
   */
  const pruneRecords = async () => {
    // With several instances, starts and joins through the others are charged on them, not here:
    // every instance measures again each tick, the one that purges too (its totals otherwise
    // missed what the others charged, and let an account store its budget once per instance).
    // The one that purges forgets once, after its purge (whether or not it got that far): a
    // forget before it too would only make the accounts measured meanwhile measure twice a tick.
    if (membership && !membership.prunes()) {
      storage.forget();
      return;
    }
    const retainedSince = now() - config.retentionHours * 60 * 60 * 1000;
    try {
      await sessionRepository.pruneEvents({
        count: EVENT_WINDOW.count,
        sinceMs: now() - EVENT_WINDOW.ageMs,
        bytes: EVENT_WINDOW.bytes,
        // Never past what an account's subscriptions have yet to deliver, up to the window's count.
        floors: cappedFloors(await subscriptions.lowestCursors(), await sessionRepository.oldestHoldable(EVENT_WINDOW.held)),
      });
      // Purged labels, args and players no longer count against their accounts' budgets.
      storage.purgeStarts();
      const purged = await sessionRepository.purgeEnded(retainedSince).catch((error: unknown) => {
        storage.forget(); // some of it may be gone (SQLite commits it in chunks): measure again
        throw error;
      });
      if (!membership) storage.purged(purged.freed);
    } finally {
      if (membership) storage.forget();
    }
    await subscriptions.pruneDeliveries(retainedSince);
    await store.tokens.purgeEnded(retainedSince);
  };
  // Timers retry by running again; pending last_used values stay queued until a flush succeeds.
  const timers = [
    setInterval(() => health.guard('token-last-used', () => tokens.flushUses()), LAST_USED_FLUSH_MS),
    setInterval(() => health.guard('event-pruning', pruneRecords), EVENT_WINDOW.pruneEveryMs),
  ];
  for (const timer of timers) timer.unref();

  // Last, once nothing above can refuse to start (a fleet file, a sandbox the host cannot give):
  // the generated token is shown by the start that creates it, and only then.
  const bootstrapped = await bootstrap(accounts, tokens, {
    bootstrapToken: config.bootstrapToken,
    quotaMinutes: config.defaultQuotaMinutes,
    now: now(),
  });

  let control: Server | undefined;
  const service: Service = {
    app,
    sessions,
    health,
    bootstrapped,
    store,
    operatorBootstrapped: undefined,
    onboard: (onboarding) => onboardAccount(accounts, tokens, onboarding, now()),
    pruneRecords,
    async listen() {
      service.operatorBootstrapped = await operators.bootstrap(config.admin.email, config.admin.password);
      if (instance.copiedFrom) {
        app.log.warn(
          { instanceId: instance.id, copiedFrom: instance.copiedFrom },
          'this data directory is a copy (or was moved): it is a new instance, and the game servers of the one it came from are neither adopted nor stopped',
        );
      }
      // The process runtime's game servers share this host's file table and conntrack table (a fleet that, full, could
      // fill half of either is told), and their open-files limit is set by this service (one past its own hard limit,
      // which it may not raise, fails every start).
      if (runtimeDriver(config, fleet) === 'process') {
        const limits = fleet.images.map((image) => limitsOf(fleet, image));
        const flows = fleetFlows(fleet);
        const warnings = [
          fileTableWarning(fleet, limits, hostFileMax()),
          openFilesLimitWarning(limits, ownHardOpenFiles(), mayRaiseLimits()),
          fleet.runtime.isolation === 'none' ? undefined : sharedTableWarning(flows.perSession, flows.slots, flows.tableSize),
        ];
        for (const warning of warnings) {
          if (warning) app.log.warn(warning);
        }
      }
      await sessions.recover({ adopt: supervision?.recoveryAdopts ?? true });
      supervision?.start(sessions);
      const orphaned = await sessions.orphaned();
      if (orphaned.length > 0) {
        const where = [...new Set(orphaned.map((s) => `${s.nodeId} on ${s.host}`))].join(', ');
        app.log.warn(
          `${orphaned.length} live session(s) on nodes no longer in the fleet file (${where}): their ports stay reserved on those host addresses until the sessions end`,
        );
      }
      await app.listen({ host: config.host, port: config.port });
      control = await listenControl(config.dataDir, (request) => controlCommand(db, config.dataDir, request)).catch((error: unknown) => {
        app.log.warn({ err: error }, 'no control socket in the data directory: npm run backup needs the service stopped');
        return undefined;
      });
      const address = app.server.address();
      if (address === null || typeof address === 'string') throw new Error('expected a TCP address');
      const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      return `http://${host}:${address.port}`;
    },
    async close() {
      // Out of a proxy's rotation first, still serving every request meanwhile: connections it
      // opened to the closing listener were refused, and those queued unaccepted were reset.
      health.shuttingDown();
      if (config.shutdownDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, config.shutdownDelayMs));
      for (const timer of timers) clearInterval(timer);
      webhooks.close();
      health.close();
      overview.close();
      eventStreams.endAll();
      await drainConnections(app.server);
      // In-flight requests get a moment to finish; a client that holds a connection open does not hold up the shutdown.
      const cutOff = setTimeout(() => app.server.closeAllConnections(), SHUTDOWN_GRACE_MS);
      await app.close();
      clearTimeout(cutOff);
      control?.close();
      // Game servers keep running; the next start (or the instance taking their nodes over) adopts them.
      await supervision?.close();
      await sessions.close();
      await runtime.close();
      // A full disk loses only these last_used times, never the shutdown.
      await health.guard('token-last-used', () => tokens.flushUses());
      await membership?.close();
      await coordination?.close();
      await store.close();
      await tracing.shutdown();
    },
  };
  return service;
}

/** What the control socket (npm run backup) may ask of the running service. */
async function controlCommand(db: Db | undefined, dataDir: string, request: ControlRequest) {
  if (!db) return { ok: false as const, error: 'the store is PostgreSQL (DATABASE_URL): back it up with pg_dump' };
  if (request.command !== 'backup' || typeof request.target !== 'string' || !isAbsolute(request.target)) {
    return { ok: false as const, error: 'expected {"command":"backup","target":"<absolute directory>"}' };
  }
  return { ok: true as const, ...(await backupDataDir(db, dataDir, request.target, (fn) => betweenBatches(db, fn))) };
}

/**
 * Whether this service keeps warm pools: where its runtime can hand a warm game server its
 * session, and, for a runtime whose warm servers stay with the instance that launched them while
 * its nodes move (Docker), only as one instance. A fleet file that sizes a pool where none are
 * kept is refused at start-up rather than left empty without a word.
 */
function warmPoolsServed(runtime: Runtime, fleet: FleetConfig, shared: boolean): boolean {
  if (!runtime.allocate) return false;
  if (!(shared && runtime.warmNeedsOneInstance)) return true;
  const sized = (fleet.pools ?? []).filter((pool) => pool.warm > 0);
  if (sized.length > 0) {
    throw new Error(
      `warm pools on the ${runtime.name} runtime need one instance of the service (DATABASE_URL makes several share a store): ${sized.map((pool) => `${pool.location}/${pool.image}:${pool.tag}`).join(', ')}`,
    );
  }
  return false;
}
