/**
 * A crash-looping game server (sessions with `restart`) waits longer before each restart, up to
 * 5 minutes, instead of restarting every 5 s for good: each restart is two state changes, each an
 * event copying the session to the event log, every stream and every webhook (outside check 9:
 * 8 such sessions wrote 2.8 MB of events a second). One that ran steadily starts over.
 */
import { describe, expect, it } from 'vitest';
import { MAX_RESTART_DELAY_MS, restartBackoff, STEADY_RUN_MS } from '../../server/runtime/process/restart-backoff.mjs';

describe('the restart backoff', () => {
  it('doubles from 250 ms up to 5 minutes while the game server keeps crashing soon after its launch', () => {
    const backoff = restartBackoff();
    const delays = Array.from({ length: 14 }, () => backoff.delayAfterCrash(1500));
    expect(delays.slice(0, 5)).toEqual([250, 500, 1000, 2000, 4000]);
    expect(delays.at(-1)).toBe(MAX_RESTART_DELAY_MS);
    expect(MAX_RESTART_DELAY_MS).toBe(300_000);
    // An hour of a crash loop: a few dozen restarts, not 720.
    let spent = 0;
    let restarts = 0;
    const loop = restartBackoff();
    while (spent < 3_600_000) (spent += loop.delayAfterCrash(1500) + 1500), restarts++;
    expect(restarts).toBeLessThan(30);
  });

  it('starts over after a steady run', () => {
    const backoff = restartBackoff();
    for (let i = 0; i < 8; i++) backoff.delayAfterCrash(100);
    expect(backoff.delayAfterCrash(STEADY_RUN_MS)).toBe(250);
    expect(backoff.delayAfterCrash(100)).toBe(500);
  });
});
