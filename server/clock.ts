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

/** Within this, an instance's clock is taken as agreeing with the database's (a round trip, NTP's usual error). */
export const SHARED_CLOCK_TOLERANCE_MS = 1000;

/**
 * The wall clock of an instance that shares its database with others: its own, shifted to the
 * database's when the two are further apart than SHARED_CLOCK_TOLERANCE_MS. Times one instance
 * writes (a session's launch, a token's expiry, a retry's due time) are read against another's
 * clock: the quota leader charged a session launched on an instance an hour behind an hour at
 * once (and ended the account's sessions when that was past its quota), and an instance an hour
 * behind took tokens expired an hour ago. `offset` is told (the caller logs it), 0 within the tolerance.
 */
export async function sharedWall(wall: () => number, databaseMs: () => Promise<number>): Promise<{ wall: () => number; offsetMs: number }> {
  // The database read its clock somewhere in the round trip: its middle is the best guess, off by
  // up to half the round trip. A slow one (a busy database at start) alone could pass for an offset
  // past the tolerance: the shortest of a few is taken, as NTP does.
  let best: { offsetMs: number; roundTripMs: number } | undefined;
  for (let sample = 0; sample < CLOCK_SAMPLES; sample++) {
    const before = wall();
    const database = await databaseMs();
    const after = wall();
    if (!best || after - before < best.roundTripMs) best = { offsetMs: Math.round(database - (before + after) / 2), roundTripMs: after - before };
  }
  const { offsetMs } = best!;
  if (Math.abs(offsetMs) <= SHARED_CLOCK_TOLERANCE_MS) return { wall, offsetMs: 0 };
  return { wall: () => wall() + offsetMs, offsetMs };
}

/** Round trips sharedWall measures (at start only: a few queries). */
const CLOCK_SAMPLES = 3;
