import { describe, expect, it } from 'vitest';
import { registerLevels } from '../../server/observability/levels.js';
import { createMetrics } from '../../server/observability/metrics.js';
import { histogramQuantile, OverviewHistory } from '../../server/observability/overview.js';
import type { SessionRecord } from '../../server/domain/ports/sessions.js';

describe('histogramQuantile', () => {
  it('interpolates within the bucket holding the rank, as Prometheus does', () => {
    // 10 observations: 4 up to 0.1 s, 4 more up to 0.2 s, 2 above 0.5 s.
    const buckets = new Map([[0.1, 4], [0.2, 8], [0.5, 8], [Infinity, 10]]);
    expect(histogramQuantile(0.5, buckets)).toBeCloseTo(0.125, 10);
    expect(histogramQuantile(0.2, buckets)).toBeCloseTo(0.05, 10);
    // Past the last finite bound: that bound.
    expect(histogramQuantile(0.99, buckets)).toBe(0.5);
    expect(histogramQuantile(0.5, new Map([[Infinity, 0]]))).toBeUndefined();
  });
});

describe('the overview history', () => {
  it('samples the same registry /metrics reads: live sessions, starts and 420s, start-to-running since the last sample', async () => {
    const metrics = createMetrics();
    const live = [{ location: 'a', status: 'running', image: 'echo' }, { location: 'a', status: 'running', image: 'other' }, { location: 'b', status: 'created', image: 'echo' }];
    registerLevels(metrics, {
      liveSessions: async () => live as SessionRecord[],
      locations: async () => [],
      accounts: { mostUsed: async () => [] },
      accountsWithRunningSessions: async () => [],
      quota: { usage: async () => { throw new Error('no accounts'); } },
      topAccounts: 10,
    });
    let clock = 1_000_000;
    const history = new OverviewHistory(metrics, 10_000, () => clock, (error) => { throw error; });
    try {
      metrics.starts.inc({ result: '201' }, 3);
      metrics.starts.inc({ result: '420_full' }, 2);
      for (const seconds of [0.06, 0.07, 0.08]) metrics.startToRunning.observe({ location: 'a' }, seconds);
      await history.sample();
      clock += 10_000;
      metrics.starts.inc({ result: '420_rate_limited' });
      await history.sample();
      const [first, second] = history.view().samples;
      expect(first).toMatchObject({ at: 1_000_000, starts: 5, capacityUnavailable: 2, startToRunning: { count: 3 } });
      expect(first!.startToRunning!.p50).toBeGreaterThan(0.05);
      expect(first!.startToRunning!.p50).toBeLessThanOrEqual(0.075);
      expect(first!.sessions).toEqual([{ location: 'a', state: 'running', count: 2 }, { location: 'b', state: 'created', count: 1 }]);
      expect(second).toMatchObject({ at: 1_010_000, starts: 1, capacityUnavailable: 1, startToRunning: null });
      // An hour later the first samples are gone.
      clock += 60 * 60 * 1000;
      await history.sample();
      expect(history.view().samples.map((s) => s.at)).toEqual([1_010_000 + 60 * 60 * 1000]);
    } finally {
      history.close();
    }
  });
});
