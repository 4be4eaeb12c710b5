/**
 * A start checks and recomputes its account's quota; with many live sessions that read every
 * launch, twice per start and once per end (issue 19's pairs: the work grew with the live
 * sessions, so with the rate). Far from the limit the launches in aggregate answer; near it the
 * answer is still exact.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Quota } from '../../server/domain/quota.js';
import type { QuotaStore } from '../../server/domain/ports/quota.js';

describe('quota from the launches in aggregate', () => {
  const quotas: Quota[] = [];
  afterEach(() => quotas.splice(0).forEach((q) => q.close()));

  function quota(clock: { now: number }, account: { quotaMinutes: number; usedSeconds: number }, launches: number[]) {
    const reads = { each: 0 };
    const store: QuotaStore = {
      account: async () => account,
      addUsedSeconds: async () => {},
      launchedAt: async () => (reads.each++, [...launches]),
      launchSummary: async () => ({
        count: launches.length,
        meanMs: launches.length === 0 ? 0 : launches.reduce((sum, at) => sum + at, 0) / launches.length,
        latestMs: Math.max(0, ...launches),
      }),
      accountsWithLiveSessions: async () => ['acc'],
    };
    const exhausted: string[] = [];
    const q = new Quota(store, { charge: true, terminate: true, graceMs: 0, tickMs: 1_000_000 }, () => clock.now);
    q.whenExhausted((accountId) => exhausted.push(accountId));
    quotas.push(q);
    return { q, reads, exhausted, tick: () => (q as unknown as { tick(): Promise<void> }).tick() };
  }

  it('checks and recomputes far from the limit without reading each launch', async () => {
    const clock = { now: 10_000_000 };
    const launches = Array.from({ length: 1000 }, (_, i) => clock.now - i * 10);
    const { q, reads } = quota(clock, { quotaMinutes: 6000, usedSeconds: 0 }, launches);
    expect(await q.allowsStart('acc')).toBe(true);
    await q.recompute('acc');
    expect(reads.each).toBe(0);
  });

  it('answers exactly near the limit, either way', async () => {
    const clock = { now: 10_000_000 };
    // 58 s used and one session 100 ms old (a begun second counts): 59 of 60, one left.
    expect(await quota(clock, { quotaMinutes: 1, usedSeconds: 58 }, [clock.now - 100]).q.allowsStart('acc')).toBe(true);
    // 59 s used and the same session: all 60 used.
    const full = quota(clock, { quotaMinutes: 1, usedSeconds: 59 }, [clock.now - 100]);
    expect(await full.q.allowsStart('acc')).toBe(false);
    expect(full.reads.each).toBe(1);
  });

  it('finds the account exhausted when its minute is used, not before', async () => {
    const clock = { now: 10_000_000 };
    const { q, exhausted, tick } = quota(clock, { quotaMinutes: 1, usedSeconds: 0 }, [clock.now]);
    await q.recompute('acc');
    // The deadline from the bound comes early; the exact look then finds time left and waits on.
    for (const at of [50_000, 58_000, 59_000, 59_900]) {
      clock.now = 10_000_000 + at;
      await tick();
      expect(exhausted).toEqual([]);
    }
    clock.now = 10_000_000 + 60_000;
    await tick();
    expect(exhausted).toEqual(['acc']);
  });

  it('reads each launch when a launch lies ahead of the clock (stepped back)', async () => {
    const clock = { now: 10_000_000 };
    const { q, reads } = quota(clock, { quotaMinutes: 6000, usedSeconds: 0 }, [clock.now + 5000]);
    expect(await q.allowsStart('acc')).toBe(true);
    expect(reads.each).toBe(1);
  });
});
