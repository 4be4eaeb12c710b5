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

/** Within this, another clock is taken as agreeing with ours (a round trip, NTP's usual error). */
const CLOCK_TOLERANCE_MS = 1000;

/**
 * Another clock's offset from ours (a database's, a Docker engine's), from one reading of it,
 * `otherMs`, taken in a round trip from `before` to `after` on ours. It read its clock somewhere
 * in the round trip: the middle is the best guess, off by up to half the round trip, so only an
 * offset past the tolerance by more than that is one (0 otherwise: a slow round trip alone, a busy
 * database or engine, shifted an agreeing clock by half of it).
 */
export function measuredOffset(before: number, otherMs: number, after: number): number {
  const offset = Math.round(otherMs - (before + after) / 2);
  return Math.abs(offset) <= CLOCK_TOLERANCE_MS + (after - before) / 2 ? 0 : offset;
}

/**
 * The wall clock of an instance that shares its database with others: its own, shifted to the
 * database's when the two disagree (measuredOffset). Times one instance
 * writes (a session's launch, a token's expiry, a retry's due time) are read against another's
 * clock: the quota leader charged a session launched on an instance an hour behind an hour at
 * once (and ended the account's sessions when that was past its quota), and an instance an hour
 * behind took tokens expired an hour ago. `offset` is told (the caller logs it), 0 when they agree.
 */
export async function sharedWall(wall: () => number, databaseMs: () => Promise<number>): Promise<{ wall: () => number; offsetMs: number }> {
  // The shortest of a few round trips is measured, as NTP does: it bounds the error best.
  let best: { before: number; database: number; after: number } | undefined;
  for (let sample = 0; sample < CLOCK_SAMPLES; sample++) {
    const before = wall();
    const database = await databaseMs();
    const after = wall();
    if (!best || after - before < best.after - best.before) best = { before, database, after };
  }
  const offsetMs = measuredOffset(best!.before, best!.database, best!.after);
  if (offsetMs === 0) return { wall, offsetMs: 0 };
  return { wall: () => wall() + offsetMs, offsetMs };
}

/** Round trips sharedWall measures (at start only: a few queries). */
const CLOCK_SAMPLES = 3;
