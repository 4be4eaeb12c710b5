/**
 * The service's clock: the wall clock read once at start, advanced by a monotonic clock. Every
 * duration (quota, ttl, backoff, deadlines, lockouts, windows) and every timestamp the service
 * records comes from it, so a step of the system clock while the service runs (NTP, an operator,
 * a VM resume) neither burns quota, stretches a ttl, stalls a retry nor misorders a listing; the
 * next start reads the wall clock afresh.
 */
export function steadyClock(wall: () => number, monotonic: () => number): () => number {
  const wallAtStart = wall();
  const monotonicAtStart = monotonic();
  return () => Math.floor(wallAtStart + (monotonic() - monotonicAtStart));
}

/** Milliseconds on a clock that never steps (the process's uptime clock). */
export const monotonicMs = (): number => performance.now();
