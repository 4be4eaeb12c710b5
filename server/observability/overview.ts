/**
 * The admin panel's Overview: samples of the /metrics registry taken at a fixed interval and
 * kept for an hour. Each sample holds the live sessions per location and state (the sessions
 * gauge), and what happened since the previous sample: starts and their 420s (the starts
 * counter), and start-to-running percentiles estimated from the histogram's buckets the way
 * Prometheus' histogram_quantile does. Reading the registry, not the domain, keeps the charts
 * and a Prometheus dashboard on the same numbers.
 */
import type { components } from '../../generated/types.js';
import type { Metrics } from './metrics.js';

export type Overview = components['schemas']['Overview'];
type Sample = Overview['samples'][number];

const HOUR_MS = 60 * 60 * 1000;

interface Totals {
  starts: number;
  capacityUnavailable: number;
  /** Cumulative start-to-running bucket counts by upper bound (+Inf last). */
  buckets: Map<number, number>;
}

/** The q-quantile of a cumulative histogram, interpolated within its bucket. */
export function histogramQuantile(q: number, buckets: ReadonlyMap<number, number>): number | undefined {
  const bounds = [...buckets.keys()].sort((a, b) => a - b);
  const total = buckets.get(Infinity) ?? 0;
  if (total === 0) return undefined;
  const rank = q * total;
  let lower = 0;
  let below = 0;
  for (const bound of bounds) {
    const count = buckets.get(bound)!;
    if (count >= rank) {
      // Past the last finite bound there is nothing to interpolate to.
      if (bound === Infinity) return lower;
      return lower + ((bound - lower) * (rank - below)) / Math.max(count - below, 1);
    }
    lower = bound;
    below = count;
  }
  return lower;
}

export class OverviewHistory {
  private readonly samples: Sample[] = [];
  private previous: Totals | undefined;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly metrics: Metrics,
    private readonly intervalMs: number,
    private readonly now: () => number,
    onError: (error: unknown) => void,
  ) {
    this.timer = setInterval(() => this.sample().catch(onError), intervalMs);
    this.timer.unref();
  }

  view(): Overview {
    return { intervalSeconds: Math.round(this.intervalMs / 1000), samples: [...this.samples] };
  }

  close(): void {
    clearInterval(this.timer);
  }

  /** Take one sample (the timer does this every interval). */
  async sample(): Promise<void> {
    const totals = await this.totals();
    const before = this.previous ?? { starts: 0, capacityUnavailable: 0, buckets: new Map<number, number>() };
    this.previous = totals;
    const since = new Map([...totals.buckets].map(([bound, count]) => [bound, count - (before.buckets.get(bound) ?? 0)]));
    const reached = since.get(Infinity) ?? 0;
    const quantile = (q: number) => Number(histogramQuantile(q, since)!.toFixed(4));
    const at = this.now();
    this.samples.push({
      at,
      sessions: await this.sessions(),
      starts: totals.starts - before.starts,
      capacityUnavailable: totals.capacityUnavailable - before.capacityUnavailable,
      startToRunning: reached === 0 ? null : { count: reached, p50: quantile(0.5), p95: quantile(0.95), p99: quantile(0.99) },
    });
    while (this.samples.length > 0 && this.samples[0]!.at <= at - HOUR_MS) this.samples.shift();
  }

  private async totals(): Promise<Totals> {
    const starts = (await this.metrics.starts.get()).values;
    const buckets = new Map<number, number>();
    for (const value of (await this.metrics.startToRunning.get()).values) {
      if (!value.metricName?.endsWith('_bucket')) continue;
      const { le } = value.labels as { le?: string | number };
      const bound = le === '+Inf' ? Infinity : Number(le);
      buckets.set(bound, (buckets.get(bound) ?? 0) + value.value);
    }
    return {
      starts: starts.reduce((sum, v) => sum + v.value, 0),
      capacityUnavailable: starts.filter((v) => String(v.labels.result).startsWith('420')).reduce((sum, v) => sum + v.value, 0),
      buckets,
    };
  }

  private async sessions(): Promise<Sample['sessions']> {
    const gauge = this.metrics.registry.getSingleMetric('session_host_sessions');
    if (!gauge) return [];
    const counts = new Map<string, Sample['sessions'][number]>();
    for (const { labels, value } of (await gauge.get()).values) {
      const key = `${labels.location}\0${labels.state}`;
      const entry = counts.get(key) ?? { location: String(labels.location), state: labels.state as Sample['sessions'][number]['state'], count: 0 };
      entry.count += value;
      counts.set(key, entry);
    }
    return [...counts.values()];
  }
}
