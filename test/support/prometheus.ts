/** Reads /metrics the way Prometheus does: parsed by a text-format parser, not by regular expressions. */
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { expect } from 'vitest';
import type { caller } from './http.js';

export type MetricFamilies = ReturnType<typeof parsePrometheusTextFormat>;

export async function scrape(call: ReturnType<typeof caller>, token?: string): Promise<MetricFamilies> {
  const response = await call('GET', '/metrics', token === undefined ? {} : { token });
  if (response.status !== 200) throw new Error(`GET /metrics answered ${response.status}: ${response.text}`);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
  const families = parsePrometheusTextFormat(response.text);
  expect(families.filter((f) => f.type === 'HISTOGRAM').length).toBeGreaterThan(0);
  // The parser folds a labelled histogram into one series (it follows an old client_python);
  // without the HELP and TYPE lines, a histogram's _bucket, _sum and _count series read as plain series.
  const histogramSeries = parsePrometheusTextFormat(response.text.replace(/^#.*$/gm, ''));
  return [...families, ...histogramSeries.filter((f) => /_(bucket|sum|count)$/.test(f.name))];
}

/** Every series of the metric (an untyped metric whose lines are not contiguous parses as several families). */
function family(families: MetricFamilies, name: string) {
  const found = families.filter((f) => f.name === name);
  if (found.length === 0) throw new Error(`no metric ${name}`);
  return { metrics: found.flatMap((f) => f.metrics) };
}

/** The value of the series of `name` with exactly these labels (0 when absent, as Prometheus treats a counter). */
export function valueOf(families: MetricFamilies, name: string, labels: Record<string, string> = {}): number {
  const wanted = JSON.stringify(Object.entries(labels).sort());
  const series = family(families, name).metrics.find((m) => JSON.stringify(Object.entries(m.labels ?? {}).sort()) === wanted);
  return series && 'value' in series ? Number(series.value) : 0;
}

/** A histogram's observation count over the series matching `labels` (a subset of theirs). */
export function histogramCount(families: MetricFamilies, name: string, labels: Record<string, string> = {}): number {
  return family(families, `${name}_count`)
    .metrics.filter((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v))
    .reduce((sum, m) => sum + ('value' in m ? Number(m.value) : 0), 0);
}
