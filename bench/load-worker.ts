/**
 * The load generator process (forked by load.ts): runs autocannon against one target and
 * reports raw latencies. autocannon's own histogram has 1 ms resolution, too coarse for
 * sub-millisecond calls, so every response time is collected from its `response` event.
 */
import type { EventEmitter } from 'node:events';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import autocannon, { type AutocannonRequest } from 'autocannon';
import type { LoadResult, LoadSpec, RequestTemplate } from './load.js';
import { rawGets } from './raw-client.js';
import { summarize } from './stats.js';

let sequence = 0;

function fill(text: string, context: Record<string, unknown>): string {
  return text
    .replaceAll('{id}', String(context.id))
    .replace(/\{n(?:%(\d+))?\}/g, (_all, mod: string | undefined) => {
      const n = context.n as number;
      return String(mod === undefined ? n : n % Number(mod));
    });
}

function toAutocannon(template: RequestTemplate, idPrefix: string): AutocannonRequest {
  return {
    method: template.method,
    setupRequest(request, context) {
      if (template.newId || context.id === undefined) {
        context.n = sequence++;
        context.id = `${idPrefix}-${context.n}`;
      }
      const built: AutocannonRequest = { ...request, path: fill(template.path, context) };
      if (template.body !== undefined) {
        built.body = fill(template.body, context);
        built.headers = { ...request.headers, 'content-type': 'application/json' };
      }
      return built;
    },
  };
}

/** This process's garbage collections from now until stop(), by kind, and their total pause. */
function observeGc() {
  const counts = { minor: 0, major: 0, ms: 0 };
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = (entry as unknown as { detail?: { kind?: number } }).detail?.kind;
      if (kind === constants.NODE_PERFORMANCE_GC_MINOR) counts.minor++;
      else if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) counts.major++;
      counts.ms += entry.duration;
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  return { counts, stop: () => observer.disconnect() };
}

/** The same load from the raw client (raw-client.ts). */
async function rawOnce(spec: LoadSpec, durationSeconds: number): Promise<LoadResult> {
  const gc = observeGc();
  try {
    return await rawGets(spec, durationSeconds, gc.counts);
  } finally {
    gc.stop();
  }
}

function once(spec: LoadSpec, mode: { durationSeconds?: number; amount?: number }): Promise<LoadResult> {
  const idPrefix = spec.idPrefix ?? `bench${process.pid.toString(36)}`;
  const latencies: number[] = [];
  const all: number[] = [];
  const durationSeconds = mode.durationSeconds ?? 5;
  const gc = observeGc();
  return new Promise((resolve, reject) => {
    const started = performance.now();
    /**
     * When the last request settled (answered, failed or timed out). autocannon calls back only on
     * its next sample tick (every second): a run of `amount` requests done in 0.6 s would
     * otherwise count as 1.0 s. A duration run lasts at least its duration: a stall at its end
     * lowers the rate rather than shortening the wall time.
     */
    let lastSettled = started;
    const settled = () => (lastSettled = performance.now());
    const end = () => Math.max(lastSettled, mode.amount !== undefined ? started : started + durationSeconds * 1000);
    const instance = autocannon(
      {
        url: spec.url,
        connections: spec.connections,
        pipelining: 1,
        timeout: 30,
        headers: { authorization: `Bearer ${spec.token}` },
        ...(mode.amount !== undefined ? { amount: mode.amount } : { duration: durationSeconds }),
        requests: spec.requests.map((t) => toAutocannon(t, idPrefix)),
        // autocannon shares request objects between connections, so a connection's first request
        // would be whichever was built last; own copies per connection keep every id unique.
        setupClient: (client) => {
          client.setRequests(spec.requests.map((t) => toAutocannon(t, idPrefix)));
          // In an amount run a connection is done once its last request settled, which may be
          // neither a response nor a reqError: a request whose connection closed is dropped as
          // autocannon reconnects. (In a duration run the stop closes them at its tick: not an end.)
          if (mode.amount !== undefined) (client as unknown as EventEmitter).on('done', settled);
        },
      },
      (error, result) => {
        gc.stop();
        if (error) return reject(error);
        const wallSeconds = (end() - started) / 1000;
        const statusCodes = Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, s]) => [code, s.count]));
        resolve({
          statusCodes,
          ok: latencies.length,
          okPerSecond: latencies.length / wallSeconds,
          errors: result.errors,
          timeouts: result.timeouts,
          wallSeconds,
          latencyMs: summarize(latencies),
          allLatencyMs: summarize(all),
          loadGeneratorGc: gc.counts,
        });
      },
    );
    instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
      settled();
      all.push(responseTime);
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
    });
    // Errors and timeouts (autocannon reports both as reqError) end requests too.
    instance.on('reqError', settled);
  });
}

process.once('message', async (spec: LoadSpec) => {
  try {
    if (spec.client === 'raw') {
      if (spec.warmupSeconds) await rawOnce(spec, spec.warmupSeconds);
      process.send!({ result: await rawOnce(spec, spec.durationSeconds ?? 5) }, () => process.exit(0));
      return;
    }
    if (spec.warmupSeconds) await once(spec, { durationSeconds: spec.warmupSeconds });
    const result = await once(spec, spec.amount !== undefined ? { amount: spec.amount } : { durationSeconds: spec.durationSeconds ?? 5 });
    process.send!({ result }, () => process.exit(0));
  } catch (error) {
    process.send!({ error: String((error as Error).stack ?? error) }, () => process.exit(1));
  }
});
