/**
 * The start-rate limit per account and location, with rate-limiter-flexible: a sustained rate
 * per second plus a burst allowance over a wider window (its BurstyRateLimiter, the library's
 * recipe for token-bucket behaviour). In memory: a restart forgives, which errs towards letting
 * studios start sessions.
 */
import { BurstyRateLimiter, RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { StartRateLimiter } from '../domain/ports/start-rate.js';

export interface StartRateConfig {
  perSecond: number;
  burst: number;
  burstWindowSeconds: number;
}

export function createStartRateLimiter(config: StartRateConfig): StartRateLimiter {
  const limiter = new BurstyRateLimiter(
    new RateLimiterMemory({ keyPrefix: 'start', points: config.perSecond, duration: 1 }),
    new RateLimiterMemory({ keyPrefix: 'start-burst', points: config.burst, duration: config.burstWindowSeconds }),
  );
  return {
    async take(accountId, location) {
      try {
        await limiter.consume(`${accountId}\n${location}`);
        return { ok: true };
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) return { ok: false, retryAfterMs: rejection.msBeforeNext };
        throw rejection;
      }
    },
  };
}
