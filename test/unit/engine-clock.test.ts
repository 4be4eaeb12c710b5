/**
 * onServiceClock (server/runtime/docker/engine-clock.ts): an engine's times on the service's
 * clock. The engine's SystemTime is taken at the middle of an info request; a slow one (a busy
 * engine) put that middle seconds from when the engine read its clock, and a node whose clock
 * agreed had every end it reported shifted by as much.
 */
import { describe, expect, it } from 'vitest';
import type { Engine } from '../../server/runtime/docker/engine-client.js';
import { onServiceClock } from '../../server/runtime/docker/engine-clock.js';

/** An engine whose clock is the service's shifted by `offsetMs`, whose info takes `roundTripMs`; it reads its clock as the request arrives. */
function engine(clock: { now: number }, offsetMs: number, roundTripMs: number): Engine {
  const api = {
    info: async () => {
      const systemTime = new Date(clock.now + offsetMs).toISOString();
      clock.now += roundTripMs;
      return { SystemTime: systemTime };
    },
  };
  return { api } as unknown as Engine;
}

describe('an engine time on the service clock', () => {
  it('is left as it is when the engine agrees and its info was slow', async () => {
    const clock = { now: 1_800_000_000_000 };
    expect(await onServiceClock(engine(clock, 0, 4000), 1_799_000_000_000, () => clock.now)).toBe(1_799_000_000_000);
  });

  it('is shifted by a day when the engine is a day ahead, slow or not', async () => {
    const day = 86_400_000;
    for (const roundTripMs of [4000, 10]) {
      const clock = { now: 1_800_000_000_000 };
      // An end the engine reports as now on its clock is now on the service's (within half the round trip).
      const at = await onServiceClock(engine(clock, day, roundTripMs), 1_800_000_000_000 + day, () => clock.now);
      expect(Math.abs(at - 1_800_000_000_000)).toBeLessThanOrEqual(roundTripMs / 2);
    }
  });
});
