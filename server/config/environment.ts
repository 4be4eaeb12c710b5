/**
 * Configuration from the environment, validated with the same ajv the API uses. Every setting
 * has a default, so `npm start` on a fresh machine needs none.
 */
import AjvModule, { type JSONSchemaType } from 'ajv';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
import { DEFAULT_STORAGE_BUDGET_BYTES } from '../domain/storage-budget.js';
import { DEFAULT_TOKENS_PER_ACCOUNT } from '../domain/tokens.js';
import { parseNetwork } from '../events/egress-guard.js';
import { DEFAULT_ARCHIVE_LIMITS, type ArchiveLimits } from '../http/artifacts/artifact-handlers.js';
import { DEFAULT_STREAM_LIMITS, type StreamLimits } from '../http/open-streams.js';
import { DEFAULT_SERVER_LIMITS, type ServerLimits } from '../http/request-limits.js';

const Ajv = AjvModule.default;

export interface Config {
  host: string;
  port: number;
  dataDir: string;
  /**
   * PostgreSQL (postgres://user:password@host:port/database) for the store, shared by any number
   * of instances; unset: SQLite in the data directory (the default).
   */
  databaseUrl: string | undefined;
  /** Value of the first operator token on a new data directory; generated and printed when unset. */
  bootstrapToken: string | undefined;
  /** base64 of 32 bytes; when unset the key is kept in <dataDir>/secret.key (created on first run). */
  secretKey: string | undefined;
  defaultQuotaMinutes: number;
  /**
   * On SIGTERM, how long GET /readyz answers 503 while every request is still served, before the
   * listener closes (SHUTDOWN_DELAY_SECONDS): a proxy's health checks take the instance out first,
   * so no connection it sends is refused or reset by the closing listener. Default 5 s with
   * DATABASE_URL (instances behind HAProxy: 2 failed checks 2 s apart), else 0.
   */
  shutdownDelayMs: number;
  logLevel: string;
  /** Locations, nodes and image catalog; default <dataDir>/fleet.json, created on first run. */
  fleetFile: string;
  /** Overrides the fleet file's runtime driver. */
  runtime: 'process' | 'simulated' | undefined;
  /** Sandbox mode: simulated runtime, no quota charge, X-Sandbox-Status honoured. */
  sandbox: boolean;
  quota: { terminate: boolean; graceSeconds: number; tickMs: number };
  startRate: { perSecond: number; burst: number; burstWindowSeconds: number };
  webhookBackoffMs: number;
  simulated: { readyMs: number; stopMs: number };
  /** The first admin panel operator, created on a data directory without operators. */
  admin: { email: string; password: string | undefined };
  /** HTTP server deadlines and the connection cap. */
  http: ServerLimits;
  /** Proxies (addresses or CIDRs) whose X-Forwarded-For names the caller; none unless TRUST_PROXY says. */
  trustProxy?: string[];
  /** Labels and args of an account's retained sessions, at most (MiB). */
  storageBudgetMiB: number;
  /** Ended sessions' records (and delivery records) are kept this long, then purged. */
  retentionHours: number;
  /** Networks webhooks may reach although internal (CIDRs); by default none. */
  webhookAllowedNetworks: string[];
  /** What one account may hold at once. */
  limits: {
    streams: StreamLimits;
    subscriptions: number;
    /** Unexpired tokens minted through the API; DEFAULT_TOKENS_PER_ACCOUNT without. */
    tokens?: number;
    /** Artifact archives: streamed at once service-wide, and their size; DEFAULT_ARCHIVE_LIMITS without. */
    archives?: ArchiveLimits;
    /** How long a log read or a list of retained sessions waits for its turn while none of its account's ends; DEFAULT_TURN_STALL_MS without. */
    turnStallMs?: number;
  };
  observability: {
    /** Count requests, starts, runtime events, store calls (off only to measure their cost). */
    metrics: boolean;
    /** How many accounts get a quota series in /metrics. */
    topAccounts: number;
    /** Seconds between two samples of the admin panel's Overview. */
    overviewIntervalSeconds: number;
    /** Export traces with OTLP (OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is set). */
    exportTraces: boolean;
    /** Which requests' traces are recorded (OTEL_TRACES_SAMPLER, OTEL_TRACES_SAMPLER_ARG). */
    traceSampling: TraceSampling;
  };
}

/** Which requests' traces are recorded, once traces are exported. */
export interface TraceSampling {
  /** A caller's `traceparent` decides: recorded when its sampled flag is set, else not. */
  parentBased: boolean;
  /** The share of the other requests recorded, from 0 (none) to 1 (all). */
  ratio: number;
}

/** One request in a hundred, and every request its caller samples (README, Observability: why). */
export const DEFAULT_TRACE_SAMPLING: TraceSampling = { parentBased: true, ratio: 0.01 };

/** OTEL_TRACES_SAMPLER's values: whether a caller's traceparent decides, and the share of the others (the ARG for the ratio ones). */
const SAMPLERS: Record<string, (arg: number) => TraceSampling> = {
  parentbased_traceidratio: (ratio) => ({ parentBased: true, ratio }),
  parentbased_always_on: () => ({ parentBased: true, ratio: 1 }),
  parentbased_always_off: () => ({ parentBased: true, ratio: 0 }),
  traceidratio: (ratio) => ({ parentBased: false, ratio }),
  always_on: () => ({ parentBased: false, ratio: 1 }),
  always_off: () => ({ parentBased: false, ratio: 0 }),
};

/** How long ended sessions' records stay (SESSION_RETENTION_HOURS): a week. */
export const DEFAULT_RETENTION_HOURS = 7 * 24;

/** SHUTDOWN_DELAY_SECONDS with DATABASE_URL: deploy/haproxy.cfg takes an instance out after 2 failed checks 2 s apart. */
export const DEFAULT_CLUSTER_SHUTDOWN_DELAY_SECONDS = 5;

/** Webhook subscriptions one account may have (SUBSCRIPTIONS_PER_ACCOUNT). */
export const DEFAULT_SUBSCRIPTION_LIMIT = 25;

/** The environment's settings after validation (defaults filled in, strings coerced). */
interface EnvSettings {
  HOST: string;
  PORT: number;
  DATA_DIR: string;
  DATABASE_URL?: string;
  BOOTSTRAP_TOKEN?: string;
  SECRET_KEY?: string;
  DEFAULT_QUOTA_MINUTES: number;
  LOG_LEVEL: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  FLEET_FILE?: string;
  RUNTIME?: 'process' | 'simulated';
  SANDBOX: boolean;
  QUOTA_TERMINATE: boolean;
  QUOTA_GRACE_SECONDS: number;
  QUOTA_TICK_MS: number;
  START_RATE_PER_SECOND: number;
  START_BURST: number;
  START_BURST_WINDOW_SECONDS: number;
  WEBHOOK_BACKOFF_MS: number;
  SIMULATED_READY_MS: number;
  SIMULATED_STOP_MS: number;
  ADMIN_EMAIL: string;
  ADMIN_PASSWORD?: string;
  HTTP_HEADERS_TIMEOUT_MS: number;
  HTTP_REQUEST_TIMEOUT_MS: number;
  HTTP_KEEP_ALIVE_TIMEOUT_MS: number;
  HTTP_MAX_CONNECTIONS: number;
  HTTP_MAX_CONNECTIONS_PER_ADDRESS: number;
  EVENT_STREAMS_PER_ACCOUNT: number;
  SHUTDOWN_DELAY_SECONDS?: number;
  LOG_FOLLOWS_PER_ACCOUNT: number;
  ARTIFACT_DOWNLOADS_PER_ACCOUNT: number;
  SUBSCRIPTIONS_PER_ACCOUNT: number;
  TOKENS_PER_ACCOUNT: number;
  ARTIFACT_DOWNLOADS_TOTAL: number;
  ARTIFACT_ARCHIVE_MAX_MIB: number;
  WEBHOOK_ALLOWED_NETWORKS: string;
  TRUST_PROXY: string;
  STORAGE_BUDGET_MIB: number;
  SESSION_RETENTION_HOURS: number;
  METRICS: boolean;
  METRICS_TOP_ACCOUNTS: number;
  OVERVIEW_INTERVAL_SECONDS: number;
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?: string;
  OTEL_TRACES_SAMPLER: string;
  OTEL_TRACES_SAMPLER_ARG: number;
}

const schema: JSONSchemaType<EnvSettings> = {
  type: 'object',
  required: [],
  properties: {
    HOST: { type: 'string', minLength: 1, default: '127.0.0.1' },
    PORT: { type: 'integer', minimum: 0, maximum: 65535, default: 8080 },
    DATA_DIR: { type: 'string', minLength: 1, default: './data' },
    DATABASE_URL: { type: 'string', pattern: '^postgres(ql)?://', nullable: true },
    BOOTSTRAP_TOKEN: { type: 'string', pattern: '^gsh_[0-9A-Za-z]{20,100}$', nullable: true },
    SECRET_KEY: { type: 'string', pattern: '^[A-Za-z0-9+/]{43}=$', nullable: true },
    DEFAULT_QUOTA_MINUTES: { type: 'integer', minimum: 0, default: 6000 },
    LOG_LEVEL: { type: 'string', enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], default: 'info' },
    FLEET_FILE: { type: 'string', minLength: 1, nullable: true },
    RUNTIME: { type: 'string', enum: ['process', 'simulated'], nullable: true },
    SANDBOX: { type: 'boolean', default: false },
    QUOTA_TERMINATE: { type: 'boolean', default: true },
    QUOTA_GRACE_SECONDS: { type: 'number', minimum: 0, default: 60 },
    QUOTA_TICK_MS: { type: 'integer', minimum: 10, default: 1000 },
    START_RATE_PER_SECOND: { type: 'integer', minimum: 1, default: 5 },
    START_BURST: { type: 'integer', minimum: 1, default: 20 },
    START_BURST_WINDOW_SECONDS: { type: 'integer', minimum: 1, default: 10 },
    WEBHOOK_BACKOFF_MS: { type: 'integer', minimum: 1, default: 1000 },
    SIMULATED_READY_MS: { type: 'integer', minimum: 0, default: 1500 },
    SIMULATED_STOP_MS: { type: 'integer', minimum: 0, default: 800 },
    ADMIN_EMAIL: { type: 'string', pattern: '^[^@\\s]+@[^@\\s]+$', default: 'admin@localhost' },
    ADMIN_PASSWORD: { type: 'string', minLength: 12, maxLength: 1024, nullable: true },
    HTTP_HEADERS_TIMEOUT_MS: { type: 'integer', minimum: 100, default: DEFAULT_SERVER_LIMITS.headersTimeoutMs },
    HTTP_REQUEST_TIMEOUT_MS: { type: 'integer', minimum: 100, default: DEFAULT_SERVER_LIMITS.requestTimeoutMs },
    HTTP_KEEP_ALIVE_TIMEOUT_MS: { type: 'integer', minimum: 100, default: DEFAULT_SERVER_LIMITS.keepAliveTimeoutMs },
    HTTP_MAX_CONNECTIONS: { type: 'integer', minimum: 1, default: DEFAULT_SERVER_LIMITS.maxConnections },
    HTTP_MAX_CONNECTIONS_PER_ADDRESS: { type: 'integer', minimum: 1, default: DEFAULT_SERVER_LIMITS.maxConnectionsPerAddress },
    EVENT_STREAMS_PER_ACCOUNT: { type: 'integer', minimum: 1, default: DEFAULT_STREAM_LIMITS.events },
    SHUTDOWN_DELAY_SECONDS: { type: 'number', minimum: 0, maximum: 300, nullable: true },
    LOG_FOLLOWS_PER_ACCOUNT: { type: 'integer', minimum: 1, default: DEFAULT_STREAM_LIMITS.logs },
    ARTIFACT_DOWNLOADS_PER_ACCOUNT: { type: 'integer', minimum: 1, default: DEFAULT_STREAM_LIMITS.artifacts },
    SUBSCRIPTIONS_PER_ACCOUNT: { type: 'integer', minimum: 1, default: DEFAULT_SUBSCRIPTION_LIMIT },
    TOKENS_PER_ACCOUNT: { type: 'integer', minimum: 1, default: DEFAULT_TOKENS_PER_ACCOUNT },
    ARTIFACT_DOWNLOADS_TOTAL: { type: 'integer', minimum: 1, default: DEFAULT_ARCHIVE_LIMITS.concurrent },
    ARTIFACT_ARCHIVE_MAX_MIB: { type: 'number', minimum: 1, default: DEFAULT_ARCHIVE_LIMITS.maxBytes / 1024 / 1024 },
    WEBHOOK_ALLOWED_NETWORKS: { type: 'string', default: '' },
    TRUST_PROXY: { type: 'string', default: '' },
    STORAGE_BUDGET_MIB: { type: 'number', minimum: 0, default: DEFAULT_STORAGE_BUDGET_BYTES / 1024 / 1024 },
    SESSION_RETENTION_HOURS: { type: 'number', minimum: 0, default: DEFAULT_RETENTION_HOURS },
    METRICS: { type: 'boolean', default: true },
    METRICS_TOP_ACCOUNTS: { type: 'integer', minimum: 0, maximum: 1000, default: 10 },
    OVERVIEW_INTERVAL_SECONDS: { type: 'integer', minimum: 1, maximum: 3600, default: 10 },
    // Read by the OTLP exporter itself (with OTEL_EXPORTER_OTLP_HEADERS etc.); here only to turn export on.
    OTEL_EXPORTER_OTLP_ENDPOINT: { type: 'string', pattern: '^https?://', nullable: true },
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: { type: 'string', pattern: '^https?://', nullable: true },
    // OpenTelemetry's names for its samplers; the default is not the SDK's (every request): see the README.
    OTEL_TRACES_SAMPLER: { type: 'string', enum: Object.keys(SAMPLERS), default: 'parentbased_traceidratio' },
    OTEL_TRACES_SAMPLER_ARG: { type: 'number', minimum: 0, maximum: 1, default: DEFAULT_TRACE_SAMPLING.ratio },
  },
};

const validate = new Ajv({ coerceTypes: true, useDefaults: true, allErrors: true }).compile<EnvSettings>(schema);

export class ConfigError extends Error {}

/** Settings that are secrets: once read they leave the environment, so nothing started later can inherit them. */
export const SECRET_SETTINGS = ['BOOTSTRAP_TOKEN', 'SECRET_KEY', 'ADMIN_PASSWORD', 'DATABASE_URL'] as const;

/** Read the configuration from `env`, removing the secrets from it (pass process.env). */
export function loadConfig(env: NodeJS.ProcessEnv): Config {
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(schema.properties)) if (env[key] !== undefined && env[key] !== '') raw[key] = env[key];
  for (const key of SECRET_SETTINGS) delete env[key];
  if (!validate(raw)) {
    const problems = validate.errors!.map((e) => `${e.instancePath.slice(1) || 'env'} ${e.message}`);
    throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);
  }
  return {
    host: raw.HOST,
    port: raw.PORT,
    dataDir: resolve(raw.DATA_DIR),
    databaseUrl: raw.DATABASE_URL,
    bootstrapToken: raw.BOOTSTRAP_TOKEN,
    secretKey: raw.SECRET_KEY,
    defaultQuotaMinutes: raw.DEFAULT_QUOTA_MINUTES,
    shutdownDelayMs: (raw.SHUTDOWN_DELAY_SECONDS ?? (raw.DATABASE_URL ? DEFAULT_CLUSTER_SHUTDOWN_DELAY_SECONDS : 0)) * 1000,
    logLevel: raw.LOG_LEVEL,
    fleetFile: resolve(raw.FLEET_FILE ?? join(raw.DATA_DIR, 'fleet.json')),
    runtime: raw.RUNTIME,
    sandbox: raw.SANDBOX,
    quota: {
      terminate: raw.QUOTA_TERMINATE,
      graceSeconds: raw.QUOTA_GRACE_SECONDS,
      tickMs: raw.QUOTA_TICK_MS,
    },
    startRate: {
      perSecond: raw.START_RATE_PER_SECOND,
      burst: raw.START_BURST,
      burstWindowSeconds: raw.START_BURST_WINDOW_SECONDS,
    },
    webhookBackoffMs: raw.WEBHOOK_BACKOFF_MS,
    simulated: { readyMs: raw.SIMULATED_READY_MS, stopMs: raw.SIMULATED_STOP_MS },
    admin: { email: raw.ADMIN_EMAIL, password: raw.ADMIN_PASSWORD },
    http: {
      headersTimeoutMs: raw.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: raw.HTTP_REQUEST_TIMEOUT_MS,
      keepAliveTimeoutMs: raw.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      maxConnections: raw.HTTP_MAX_CONNECTIONS,
      maxConnectionsPerAddress: raw.HTTP_MAX_CONNECTIONS_PER_ADDRESS,
    },
    trustProxy: trustedProxies(raw.TRUST_PROXY),
    retentionHours: raw.SESSION_RETENTION_HOURS,
    storageBudgetMiB: raw.STORAGE_BUDGET_MIB,
    webhookAllowedNetworks: allowedNetworks(raw.WEBHOOK_ALLOWED_NETWORKS),
    limits: {
      streams: { events: raw.EVENT_STREAMS_PER_ACCOUNT, logs: raw.LOG_FOLLOWS_PER_ACCOUNT, artifacts: raw.ARTIFACT_DOWNLOADS_PER_ACCOUNT },
      subscriptions: raw.SUBSCRIPTIONS_PER_ACCOUNT,
      tokens: raw.TOKENS_PER_ACCOUNT,
      archives: { concurrent: raw.ARTIFACT_DOWNLOADS_TOTAL, maxBytes: Math.floor(raw.ARTIFACT_ARCHIVE_MAX_MIB * 1024 * 1024) },
    },
    observability: {
      metrics: raw.METRICS,
      topAccounts: raw.METRICS_TOP_ACCOUNTS,
      overviewIntervalSeconds: raw.OVERVIEW_INTERVAL_SECONDS,
      exportTraces: raw.OTEL_EXPORTER_OTLP_ENDPOINT !== undefined || raw.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT !== undefined,
      traceSampling: SAMPLERS[raw.OTEL_TRACES_SAMPLER]!(raw.OTEL_TRACES_SAMPLER_ARG),
    },
  };
}

/** TRUST_PROXY: comma-separated addresses or CIDRs of the proxies in front (HAProxy). */
function trustedProxies(text: string): string[] | undefined {
  const proxies = text.split(',').map((p) => p.trim()).filter((p) => p !== '');
  const malformed = proxies.filter((p) => !isIP(p) && !parseNetwork(p));
  if (malformed.length > 0) throw new ConfigError(`invalid configuration: TRUST_PROXY has ${malformed.join(', ')}, not addresses or CIDRs`);
  return proxies.length > 0 ? proxies : undefined;
}

/** WEBHOOK_ALLOWED_NETWORKS: comma-separated CIDRs (`10.1.0.0/16, fd00::/8`). */
function allowedNetworks(text: string): string[] {
  const networks = text.split(',').map((n) => n.trim()).filter((n) => n !== '');
  const malformed = networks.filter((n) => !parseNetwork(n));
  if (malformed.length > 0) throw new ConfigError(`invalid configuration: WEBHOOK_ALLOWED_NETWORKS has ${malformed.join(', ')}, not CIDRs`);
  return networks;
}
