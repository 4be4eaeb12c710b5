/**
 * Configuration from the environment, validated with the same ajv the API uses. Every setting
 * has a default, so `npm start` on a fresh machine needs none.
 */
import AjvModule from 'ajv';
import { join, resolve } from 'node:path';
import { DEFAULT_STORAGE_BUDGET_BYTES } from './domain/storage-budget.js';
import { parseNetwork } from './events/egress-guard.js';
import { DEFAULT_STREAM_LIMITS, type StreamLimits } from './http/open-streams.js';
import { DEFAULT_SERVER_LIMITS, type ServerLimits } from './http/request-limits.js';

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
  /** Labels and args of an account's retained sessions, at most (MiB). */
  storageBudgetMiB: number;
  /** Ended sessions' records (and delivery records) are kept this long, then purged. */
  retentionHours: number;
  /** Networks webhooks may reach although internal (CIDRs); by default none. */
  webhookAllowedNetworks: string[];
  /** What one account may hold at once. */
  limits: { streams: StreamLimits; subscriptions: number };
  observability: {
    /** Count requests, starts, runtime events, store calls (off only to measure their cost). */
    metrics: boolean;
    /** How many accounts get a quota series in /metrics. */
    topAccounts: number;
    /** Seconds between two samples of the admin panel's Overview. */
    overviewIntervalSeconds: number;
    /** Export traces with OTLP (OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is set). */
    exportTraces: boolean;
  };
}

/** How long ended sessions' records stay (SESSION_RETENTION_HOURS): a week. */
export const DEFAULT_RETENTION_HOURS = 7 * 24;

/** Webhook subscriptions one account may have (SUBSCRIPTIONS_PER_ACCOUNT). */
export const DEFAULT_SUBSCRIPTION_LIMIT = 25;

const schema = {
  type: 'object',
  properties: {
    HOST: { type: 'string', minLength: 1, default: '127.0.0.1' },
    PORT: { type: 'integer', minimum: 0, maximum: 65535, default: 8080 },
    DATA_DIR: { type: 'string', minLength: 1, default: './data' },
    DATABASE_URL: { type: 'string', pattern: '^postgres(ql)?://' },
    BOOTSTRAP_TOKEN: { type: 'string', pattern: '^gsh_[0-9A-Za-z]{20,100}$' },
    SECRET_KEY: { type: 'string', pattern: '^[A-Za-z0-9+/]{43}=$' },
    DEFAULT_QUOTA_MINUTES: { type: 'integer', minimum: 0, default: 6000 },
    LOG_LEVEL: { enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], default: 'info' },
    FLEET_FILE: { type: 'string', minLength: 1 },
    RUNTIME: { enum: ['process', 'simulated'] },
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
    ADMIN_PASSWORD: { type: 'string', minLength: 12, maxLength: 1024 },
    HTTP_HEADERS_TIMEOUT_MS: { type: 'integer', minimum: 100, default: DEFAULT_SERVER_LIMITS.headersTimeoutMs },
    HTTP_REQUEST_TIMEOUT_MS: { type: 'integer', minimum: 100, default: DEFAULT_SERVER_LIMITS.requestTimeoutMs },
    HTTP_KEEP_ALIVE_TIMEOUT_MS: { type: 'integer', minimum: 100, default: DEFAULT_SERVER_LIMITS.keepAliveTimeoutMs },
    HTTP_MAX_CONNECTIONS: { type: 'integer', minimum: 1, default: DEFAULT_SERVER_LIMITS.maxConnections },
    EVENT_STREAMS_PER_ACCOUNT: { type: 'integer', minimum: 1, default: DEFAULT_STREAM_LIMITS.events },
    LOG_FOLLOWS_PER_ACCOUNT: { type: 'integer', minimum: 1, default: DEFAULT_STREAM_LIMITS.logs },
    SUBSCRIPTIONS_PER_ACCOUNT: { type: 'integer', minimum: 1, default: DEFAULT_SUBSCRIPTION_LIMIT },
    WEBHOOK_ALLOWED_NETWORKS: { type: 'string', default: '' },
    STORAGE_BUDGET_MIB: { type: 'number', minimum: 0, default: DEFAULT_STORAGE_BUDGET_BYTES / 1024 / 1024 },
    SESSION_RETENTION_HOURS: { type: 'number', minimum: 0, default: DEFAULT_RETENTION_HOURS },
    METRICS: { type: 'boolean', default: true },
    METRICS_TOP_ACCOUNTS: { type: 'integer', minimum: 0, maximum: 1000, default: 10 },
    OVERVIEW_INTERVAL_SECONDS: { type: 'integer', minimum: 1, maximum: 3600, default: 10 },
    // Read by the OTLP exporter itself (with OTEL_EXPORTER_OTLP_HEADERS etc.); here only to turn export on.
    OTEL_EXPORTER_OTLP_ENDPOINT: { type: 'string', pattern: '^https?://' },
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: { type: 'string', pattern: '^https?://' },
  },
} as const;

const validate = new Ajv({ coerceTypes: true, useDefaults: true, allErrors: true }).compile(schema);

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
    host: raw.HOST as string,
    port: raw.PORT as number,
    dataDir: resolve(raw.DATA_DIR as string),
    databaseUrl: raw.DATABASE_URL as string | undefined,
    bootstrapToken: raw.BOOTSTRAP_TOKEN as string | undefined,
    secretKey: raw.SECRET_KEY as string | undefined,
    defaultQuotaMinutes: raw.DEFAULT_QUOTA_MINUTES as number,
    logLevel: raw.LOG_LEVEL as string,
    fleetFile: resolve((raw.FLEET_FILE as string | undefined) ?? join(raw.DATA_DIR as string, 'fleet.json')),
    runtime: raw.RUNTIME as Config['runtime'],
    sandbox: raw.SANDBOX as boolean,
    quota: {
      terminate: raw.QUOTA_TERMINATE as boolean,
      graceSeconds: raw.QUOTA_GRACE_SECONDS as number,
      tickMs: raw.QUOTA_TICK_MS as number,
    },
    startRate: {
      perSecond: raw.START_RATE_PER_SECOND as number,
      burst: raw.START_BURST as number,
      burstWindowSeconds: raw.START_BURST_WINDOW_SECONDS as number,
    },
    webhookBackoffMs: raw.WEBHOOK_BACKOFF_MS as number,
    simulated: { readyMs: raw.SIMULATED_READY_MS as number, stopMs: raw.SIMULATED_STOP_MS as number },
    admin: { email: raw.ADMIN_EMAIL as string, password: raw.ADMIN_PASSWORD as string | undefined },
    http: {
      headersTimeoutMs: raw.HTTP_HEADERS_TIMEOUT_MS as number,
      requestTimeoutMs: raw.HTTP_REQUEST_TIMEOUT_MS as number,
      keepAliveTimeoutMs: raw.HTTP_KEEP_ALIVE_TIMEOUT_MS as number,
      maxConnections: raw.HTTP_MAX_CONNECTIONS as number,
    },
    retentionHours: raw.SESSION_RETENTION_HOURS as number,
    storageBudgetMiB: raw.STORAGE_BUDGET_MIB as number,
    webhookAllowedNetworks: allowedNetworks(raw.WEBHOOK_ALLOWED_NETWORKS as string),
    limits: {
      streams: { events: raw.EVENT_STREAMS_PER_ACCOUNT as number, logs: raw.LOG_FOLLOWS_PER_ACCOUNT as number },
      subscriptions: raw.SUBSCRIPTIONS_PER_ACCOUNT as number,
    },
    observability: {
      metrics: raw.METRICS as boolean,
      topAccounts: raw.METRICS_TOP_ACCOUNTS as number,
      overviewIntervalSeconds: raw.OVERVIEW_INTERVAL_SECONDS as number,
      exportTraces: raw.OTEL_EXPORTER_OTLP_ENDPOINT !== undefined || raw.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT !== undefined,
    },
  };
}

/** WEBHOOK_ALLOWED_NETWORKS: comma-separated CIDRs (`10.1.0.0/16, fd00::/8`). */
function allowedNetworks(text: string): string[] {
  const networks = text.split(',').map((n) => n.trim()).filter((n) => n !== '');
  const malformed = networks.filter((n) => !parseNetwork(n));
  if (malformed.length > 0) throw new ConfigError(`invalid configuration: WEBHOOK_ALLOWED_NETWORKS has ${malformed.join(', ')}, not CIDRs`);
  return networks;
}
