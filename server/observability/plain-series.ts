/**
 * Series counted on every request (HTTP answers, their duration, store calls), kept as plain
 * numbers and turned into Prometheus series only when /metrics is read. prom-client's own
 * counters and histograms hash the label set on every `inc` and `observe` (their `labels()`
 * children too); here the labels are resolved once per operation, so counting is an array
 * increment. The registry reads them through the same `get()` its own metrics answer.
 */
import type { Metric, MetricValue, Registry } from 'prom-client';

type Labels = Record<string, string | number>;
interface Series {
  metricName?: string;
  labels: Labels;
  value: number;
}

/** One histogram series: counts per bucket (the last one past every bound), their sum and count. */
export class Buckets {
  private readonly counts: Float64Array;
  private sum = 0;

  constructor(private readonly bounds: readonly number[]) {
    this.counts = new Float64Array(bounds.length + 1);
  }

  observe(value: number): void {
    const { bounds } = this;
    let bucket = 0;
    while (bucket < bounds.length && value > bounds[bucket]!) bucket++;
    this.counts[bucket]! += 1;
    this.sum += value;
  }

  /** `_bucket` (cumulative, `le` last), `_sum` and `_count`, as Prometheus reads a histogram. */
  series(name: string, labels: Labels): Series[] {
    const series: Series[] = [];
    let cumulative = 0;
    for (let bucket = 0; bucket < this.counts.length; bucket++) {
      cumulative += this.counts[bucket]!;
      series.push({ metricName: `${name}_bucket`, labels: { le: this.bounds[bucket] ?? '+Inf', ...labels }, value: cumulative });
    }
    series.push({ metricName: `${name}_sum`, labels, value: this.sum }, { metricName: `${name}_count`, labels, value: cumulative });
    return series;
  }
}

/** A histogram with one label; each label value's series is made once and observed without lookups. */
export class PlainHistogram {
  private readonly children = new Map<string, Buckets>();

  constructor(
    private readonly label: string,
    private readonly bounds: readonly number[],
  ) {}

  /** The series of one label value (made on first use; keep it rather than asking per observation). */
  child(value: string): Buckets {
    return made(this.children, value, () => new Buckets(this.bounds));
  }

  series(name: string): Series[] {
    return [...this.children].flatMap(([value, buckets]) => buckets.series(name, { [this.label]: value }));
  }
}

/** The answers of one operation, by HTTP status. */
export class StatusCounts {
  readonly byStatus = new Map<number, number>();

  inc(status: number): void {
    this.byStatus.set(status, (this.byStatus.get(status) ?? 0) + 1);
  }
}

/** A counter by (one label, HTTP status); each label value's counts are made once. */
export class PlainStatusCounter {
  private readonly children = new Map<string, StatusCounts>();

  constructor(private readonly label: string) {}

  /** The counts of one label value (made on first use; keep it rather than asking per answer). */
  child(value: string): StatusCounts {
    return made(this.children, value, () => new StatusCounts());
  }

  series(): Series[] {
    return [...this.children].flatMap(([value, counts]) =>
      [...counts.byStatus].map(([status, count]) => ({ labels: { [this.label]: value, status: String(status) }, value: count })),
    );
  }
}

function made<T>(children: Map<string, T>, key: string, make: () => T): T {
  let child = children.get(key);
  if (!child) {
    child = make();
    children.set(key, child);
  }
  return child;
}

/** Register plain series with a prom-client registry, which formats them with its own metrics. */
export function registerPlain(registry: Registry, name: string, help: string, type: 'counter' | 'histogram', plain: { series(name: string): Series[] }): void {
  const metric = {
    name,
    help,
    type,
    aggregator: 'sum',
    get: async () => ({ name, help, type, aggregator: 'sum', values: plain.series(name) as MetricValue<string>[] }),
  };
  // The registry only calls get() and reads name, help, type: it takes any metric shaped so.
  registry.registerMetric(metric as unknown as Metric);
}
