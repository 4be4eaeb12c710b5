/**
 * The service's metrics (prom-client), one registry per service instance so that several
 * services in one process (the tests) never share counts. Events are counted where they happen
 * (HTTP answers, state changes, runtime events, store calls, webhook deliveries); levels (live
 * sessions, capacity, quota) are read from their owners when Prometheus scrapes, so they can
 * never drift from the truth. Names follow Prometheus' conventions: `session_host_` prefix,
 * base units (seconds), `_total` on counters.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { PlainHistogram, PlainStatusCounter, registerPlain } from './plain-series.js';

const PREFIX = 'session_host_';
/** Sub-millisecond to seconds: control-plane calls and the store. */
const FAST_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
/** Starts take tens of milliseconds (processes) to tens of seconds (containers pulling images). */
const START_BUCKETS = [0.025, 0.05, 0.075, 0.1, 0.15, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
const LAG_BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600];

/** A level read at scrape time: each call sets every series of the gauge afresh. */
export type GaugeReader = (set: (labels: Record<string, string>, value: number) => void) => void | Promise<void>;

export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: PREFIX });
  const counter = <L extends string>(name: string, help: string, labelNames: L[]) =>
    new Counter<L>({ name: PREFIX + name, help, labelNames, registers: [registry] });
  const histogram = <L extends string>(name: string, help: string, labelNames: L[], buckets: number[]) =>
    new Histogram<L>({ name: PREFIX + name, help, labelNames, buckets, registers: [registry] });

  const plain = <S extends PlainHistogram | PlainStatusCounter>(series: S, name: string, help: string, type: 'counter' | 'histogram') => {
    registerPlain(registry, PREFIX + name, help, type, series);
    return series;
  };

  const metrics = {
    registry,
    // Counted on every request: plain series (plain-series.ts), the rest are prom-client's own.
    httpRequests: plain(new PlainStatusCounter('operation'), 'http_requests_total', 'HTTP requests answered, by operation (operationId) and status.', 'counter'),
    httpDuration: plain(
      new PlainHistogram('operation', FAST_BUCKETS),
      'http_request_duration_seconds',
      'Time to answer an HTTP request, by operation (operationId).',
      'histogram',
    ),
    starts: counter(
      'session_starts_total',
      'Answers to POST /session, by result: the status, and for 420 the reason (420_full, 420_locked, 420_rate_limited).',
      ['result'],
    ),
    startToRunning: histogram(
      'session_start_to_running_seconds',
      'From a session\'s creation (its POST) to `running`, by location.',
      ['location'],
      START_BUCKETS,
    ),
    runtimeEvents: counter('runtime_events_total', 'Events the runtime reported (running, restarting, exited, lost, unreachable), by type.', ['type']),
    storeDuration: plain(
      new PlainHistogram('operation', FAST_BUCKETS),
      'store_operation_duration_seconds',
      'Time spent in a store call, by operation.',
      'histogram',
    ),
    webhookDeliveries: counter(
      'webhook_deliveries_total',
      'Webhook delivery attempts, by result: ok (2xx), http_4xx, http_5xx, http_other (a redirect: never followed), error (no answer).',
      ['result'],
    ),
    webhookLag: histogram('webhook_delivery_lag_seconds', 'From a session event to a delivery attempt of it.', [], LAG_BUCKETS),
    eventStreams: new Gauge({ name: `${PREFIX}event_streams`, help: 'Open GET /events streams (SSE clients).', registers: [registry] }),
    /** Register a level read at scrape time. */
    level(name: string, help: string, labelNames: string[], read: GaugeReader) {
      new Gauge({
        name: PREFIX + name,
        help,
        labelNames,
        registers: [registry],
        async collect() {
          // Read first: a scrape that fails to read keeps the last values rather than none.
          const values: [Record<string, string>, number][] = [];
          await read((labels, value) => values.push([labels, value]));
          this.reset();
          for (const [labels, value] of values) this.set(labels, value);
        },
      });
    },
  };
  return metrics;
}

export type Metrics = ReturnType<typeof createMetrics>;

/**
 * The result label of a start's answer: its status, with the reason of a 420 (the word before
 * any `:` of its details: `account_session_limit: the account already has 5 live sessions…`
 * would make a series per cap).
 */
export function startResult(status: number, details: string | undefined): string {
  return status === 420 && details ? `420_${details.split(':', 1)[0]}` : String(status);
}

/** The result label of a webhook delivery attempt. */
export function deliveryResult(ok: boolean, statusCode: number | null): string {
  if (ok) return 'ok';
  if (statusCode === null) return 'error';
  if (statusCode >= 500) return 'http_5xx';
  return statusCode >= 400 ? 'http_4xx' : 'http_other';
}
