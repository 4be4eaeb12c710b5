/**
 * The start-rate limit per account and location, with rate-limiter-flexible: a sustained rate
 * per second plus a burst allowance over a wider window (its BurstyRateLimiter, the library's
 * recipe for token-bucket behaviour). One instance keeps it in memory (a restart forgives, which
 * errs towards letting studios start sessions); several on PostgreSQL share it in a table, so
 * spreading starts over instances gains nothing.
 */
import type pg from 'pg';
import { BurstyRateLimiter, RateLimiterMemory, RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import type { StartRateLimiter } from '../domain/ports/start-rate.js';

export interface StartRateConfig {
  perSecond: number;
  burst: number;
  burstWindowSeconds: number;
}

/** The shared limiter's table; created with the cluster's schema (server/cluster/postgres.ts), not by the library, which would race between instances. */
export const START_RATE_TABLE = 'start_rate_limits';
export const START_RATE_TABLE_SQL = `CREATE TABLE IF NOT EXISTS ${START_RATE_TABLE} (
  key varchar(255) PRIMARY KEY,
  points integer NOT NULL DEFAULT 0,
  expire bigint
)`;

export function createStartRateLimiter(config: StartRateConfig, shared?: pg.Pool): StartRateLimiter {
  const limiter = (keyPrefix: string, points: number, duration: number) =>
    shared
      ? new RateLimiterPostgres({ storeClient: shared, tableName: START_RATE_TABLE, tableCreated: true, clearExpiredByTimeout: false, keyPrefix, points, duration })
      : new RateLimiterMemory({ keyPrefix, points, duration });
  const bursty = new BurstyRateLimiter(limiter('start', config.perSecond, 1), limiter('start-burst', config.burst, config.burstWindowSeconds));
  return {
    async take(accountId, location) {
      try {
        await bursty.consume(`${accountId}\n${location}`);
        return { ok: true };
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) return { ok: false, retryAfterMs: rejection.msBeforeNext };
        throw rejection;
      }
    },
  };
}
