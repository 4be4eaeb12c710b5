/**
 * Configuration from the environment, validated with the same ajv the API uses. Every setting
 * has a default, so `npm start` on a fresh machine needs none.
 */
import AjvModule from 'ajv';
import { join, resolve } from 'node:path';

const Ajv = AjvModule.default;

export interface Config {
  host: string;
  port: number;
  dataDir: string;
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
}

const schema = {
  type: 'object',
  properties: {
    HOST: { type: 'string', minLength: 1, default: '127.0.0.1' },
    PORT: { type: 'integer', minimum: 0, maximum: 65535, default: 8080 },
    DATA_DIR: { type: 'string', minLength: 1, default: './data' },
    BOOTSTRAP_TOKEN: { type: 'string', pattern: '^gsh_[0-9A-Za-z]{20,100}$' },
    SECRET_KEY: { type: 'string', pattern: '^[A-Za-z0-9+/]{43}=$' },
    DEFAULT_QUOTA_MINUTES: { type: 'integer', minimum: 0, default: 6000 },
    LOG_LEVEL: { enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], default: 'info' },
    FLEET_FILE: { type: 'string', minLength: 1 },
    RUNTIME: { enum: ['process', 'simulated'] },
  },
} as const;

const validate = new Ajv({ coerceTypes: true, useDefaults: true, allErrors: true }).compile(schema);

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv): Config {
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(schema.properties)) if (env[key] !== undefined && env[key] !== '') raw[key] = env[key];
  if (!validate(raw)) {
    const problems = validate.errors!.map((e) => `${e.instancePath.slice(1) || 'env'} ${e.message}`);
    throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);
  }
  return {
    host: raw.HOST as string,
    port: raw.PORT as number,
    dataDir: resolve(raw.DATA_DIR as string),
    bootstrapToken: raw.BOOTSTRAP_TOKEN as string | undefined,
    secretKey: raw.SECRET_KEY as string | undefined,
    defaultQuotaMinutes: raw.DEFAULT_QUOTA_MINUTES as number,
    logLevel: raw.LOG_LEVEL as string,
    fleetFile: resolve((raw.FLEET_FILE as string | undefined) ?? join(raw.DATA_DIR as string, 'fleet.json')),
    runtime: raw.RUNTIME as Config['runtime'],
  };
}
