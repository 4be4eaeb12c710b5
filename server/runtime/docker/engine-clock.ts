/**
 * An engine's clock against the service's. The end of a container (its `FinishedAt`) is the
 * engine host's time; a session's launch is the service's. A node whose clock is off (no NTP)
 * would shift every end it reports by as much, and the quota charges from launch to end: a day
 * ahead charged each session a day, a day behind charged nothing. So the offset is measured (the
 * engine's `SystemTime` against the service's clock, at the middle of the request) and engine
 * times are translated; within a second it is taken as none, so a healthy node's ends stay exact.
 */
import type { Engine } from './engine-client.js';

const TOLERANCE_MS = 1000;
/** A measure is reused this long: an end costs no extra request to a busy engine. */
const MEASURE_EVERY_MS = 60_000;

/** An engine time (ms since the epoch, its clock) on the service's clock; the engine time as it is when it cannot be measured. */
export async function onServiceClock(engine: Engine, engineMs: number, now: () => number): Promise<number> {
  return engineMs - (await offsetOf(engine, now));
}

async function offsetOf(engine: Engine, now: () => number): Promise<number> {
  const known = engine.clock;
  if (known && now() - known.measuredAt < MEASURE_EVERY_MS) return known.offsetMs;
  try {
    const before = now();
    const engineMs = Date.parse((await engine.api.info()).SystemTime);
    const after = now();
    if (!Number.isFinite(engineMs)) return known?.offsetMs ?? 0;
    const offset = Math.round(engineMs - (before + after) / 2);
    // The engine read its clock somewhere in the round trip (an info request can take seconds on a
    // busy engine): only an offset past the tolerance by more than that uncertainty is one.
    engine.clock = { offsetMs: Math.abs(offset) <= TOLERANCE_MS + (after - before) / 2 ? 0 : offset, measuredAt: after };
    return engine.clock.offsetMs;
  } catch {
    return known?.offsetMs ?? 0;
  }
}
