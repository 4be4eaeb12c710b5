/**
 * An engine's clock against the service's. The end of a container (its `FinishedAt`) is the
 * engine host's time; a session's launch is the service's. A node whose clock is off (no NTP)
 * would shift every end it reports by as much, and the quota charges from launch to end: a day
 * ahead charged each session a day, a day behind charged nothing. So the offset is measured (the
 * engine's `SystemTime` against the service's clock: clock.ts's measuredOffset) and engine
 * times are translated; within its tolerance it is taken as none, so a healthy node's ends stay exact.
 */
import { measuredOffset } from '../../clock.js';
import type { Engine } from './engine-client.js';

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
    engine.clock = { offsetMs: measuredOffset(before, engineMs, after), measuredAt: after };
    return engine.clock.offsetMs;
  } catch {
    return known?.offsetMs ?? 0;
  }
}
