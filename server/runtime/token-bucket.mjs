// A token bucket on a monotonic clock: `perSecond` tokens a second, at most `burst` saved up.
// Plain JavaScript, like the supervisor that loads it.

/**
 * Starts full. `now` is in milliseconds (performance.now() unless a test gives its own clock).
 * take() spends a token if there is one; secondsUntilToken() says how long until the next one.
 */
export function tokenBucket({ perSecond, burst, now = () => performance.now() }) {
  let tokens = burst;
  let at = now();
  const refill = () => {
    const time = now();
    tokens = Math.min(burst, tokens + ((time - at) / 1000) * perSecond);
    at = time;
  };
  return {
    take() {
      refill();
      if (tokens < 1) return false;
      tokens -= 1;
      return true;
    },
    /** Whether a token is there now (none spent). */
    has() {
      refill();
      return tokens >= 1;
    },
    /** Whether it holds all it can (a caller keeping many may drop such a bucket: a new one starts full). */
    full() {
      refill();
      return tokens >= burst;
    },
    secondsUntilToken() {
      refill();
      return tokens >= 1 ? 0 : (1 - tokens) / perSecond;
    },
  };
}
