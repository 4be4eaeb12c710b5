/** The parser's output (the package ships no types): prom2json's shape, values as strings. */
declare module 'parse-prometheus-text-format' {
  interface Sample {
    labels?: Record<string, string>;
    value: string;
  }
  interface HistogramSample {
    labels?: Record<string, string>;
    buckets: Record<string, string>;
    count: string;
    sum: string;
  }
  interface MetricFamily {
    name: string;
    help: string;
    type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
    metrics: (Sample | HistogramSample)[];
  }
  export default function parsePrometheusTextFormat(text: string): MetricFamily[];
}
