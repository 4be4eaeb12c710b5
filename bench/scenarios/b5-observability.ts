/**
 * B5, what observability costs: GET /session/{id} against the same service with metrics and
 * traces off (METRICS=false, no OTLP endpoint), with metrics only, with metrics and traces
 * exported with OTLP (to a collector stand-in in this process that accepts and counts them) at
 * the default sampling (one request in a hundred), and with every request traced (opt-in, so
 * its cost is shown but not held to the target). The target: on costs under 10% of off, in
 * throughput and in the service's own CPU time per answered request (from /proc).
 *
 * On a shared machine the neighbours' load moves every figure from one second to the next, so
 * the four services run side by side and are loaded in turn, in short slices, round after
 * round: each round compares configurations measured within seconds of each other, and the
 * median of the per-round ratios is reported (a disturbed round does not move it).
 */
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { client, waitAllRunning } from '../api.js';
import { fleet } from '../fleets.js';
import { runLoad } from '../load.js';
import type { BenchOptions, Row, ScenarioResult } from '../report.js';
import { startOurService } from '../service.js';
import { fillSessions } from '../setup.js';
import { ms, percentile, rate, ratio } from '../stats.js';

const CONNECTIONS = 10;
/** Rounds of slices: each round loads the four services in turn for SLICE_SECONDS each. */
const ROUNDS = 6;
const SLICE_SECONDS = 3;
/** Cost allowed against off: under 10%. */
const TARGET = 0.1;
const EVERY_TRACE = 'metrics + traces of every request';
/** Linux reports process times in clock ticks of 1/100 s. */
const TICKS_PER_SECOND = 100;

/** User + system CPU seconds the process has used (fields 14 and 15 of /proc/<pid>/stat). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** An OTLP/HTTP collector stand-in: answers every export with success and counts the bytes. */
async function startCollector() {
  let exports = 0;
  let bytes = 0;
  const server = createServer((request, response) => {
    request.on('data', (chunk: Buffer) => (bytes += chunk.length));
    request.on('end', () => {
      exports++;
      response.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    stats: () => ({ exports, bytes }),
    close: () => new Promise((ok) => server.close(ok)),
  };
}

interface Slice {
  okPerSecond: number;
  cpuMicrosPerRequest: number;
  latencyMs: { p50: number; p99: number };
}

/** A service of one configuration, filled and warmed up, ready to be loaded slice after slice. */
async function prepare(options: BenchOptions, env: Record<string, string>, prefix: string) {
  const service = await startOurService({
    runtime: 'simulated',
    fleet: fleet({ driver: 'simulated', capacity: 100, ports: { from: 10_000, to: 19_999 } }),
    logLevel: options.logLevel,
    env,
  });
  await fillSessions(service, 10, prefix);
  const api = client(service.url, service.token);
  await waitAllRunning(api);
  const id: string = (await api.get('/session')).body.sessions[0].id;
  const load = { url: service.url, token: service.token, connections: CONNECTIONS, requests: [{ method: 'GET' as const, path: `/session/${id}` }] };
  await runLoad({ ...load, durationSeconds: options.warmupSeconds });
  return {
    service,
    async slice(seconds: number): Promise<Slice> {
      const cpuBefore = cpuSeconds(service.pid);
      const result = await runLoad({ ...load, durationSeconds: seconds });
      const answered = Object.values(result.statusCodes).reduce((sum, n) => sum + n, 0);
      return { okPerSecond: result.okPerSecond, cpuMicrosPerRequest: ((cpuSeconds(service.pid) - cpuBefore) * 1e6) / answered, latencyMs: result.latencyMs };
    },
  };
}

const median = (values: number[]) => percentile([...values].sort((a, b) => a - b), 50);
const least = (slices: Slice[]) => Math.min(...slices.map((slice) => slice.cpuMicrosPerRequest));

export async function b5(options: BenchOptions): Promise<ScenarioResult> {
  const collector = await startCollector();
  try {
    const configs = {
      off: { METRICS: 'false' },
      metrics: { METRICS: 'true' },
      // The documented default sampling (OTEL_TRACES_SAMPLER unset): one request in a hundred.
      'metrics + traces (default sampling, 1%)': { METRICS: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: collector.url },
      [EVERY_TRACE]: { METRICS: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_TRACES_SAMPLER: 'always_on' },
    };
    const services: Awaited<ReturnType<typeof prepare>>[] = [];
    try {
      for (const [index, env] of Object.values(configs).entries()) services.push(await prepare(options, env, `b5-${index}`));
      const names = Object.keys(configs);
      const slices: Slice[][] = names.map(() => []);
      for (let round = 0; round < ROUNDS; round++) {
        // Every other round in reverse order, so no configuration always follows the same one.
        const turn = round % 2 === 0 ? [...services.entries()] : [...services.entries()].reverse();
        for (const [index, prepared] of turn) slices[index]!.push(await prepared.slice(SLICE_SECONDS));
      }
      const off = slices[0]!;
      const rows: Row[] = [];
      for (const [index, name] of names.entries()) {
        if (index === 0) continue;
        const on = slices[index]!;
        const scenario = `B5 GET /session/{id}, ${name} vs off`;
        // Every request traced is opt-in (OTEL_TRACES_SAMPLER=always_on): shown, not held to the target.
        const held = name !== EVERY_TRACE;
        const paired = (pick: (slice: Slice) => number) => median(on.map((slice, round) => pick(slice) / pick(off[round]!)));
        const typical = (runs: Slice[], pick: (slice: Slice) => number) => median(runs.map(pick));
        const throughput = paired((slice) => slice.okPerSecond);
        const cpu = paired((slice) => slice.cpuMicrosPerRequest);
        const perRound = `median of ${ROUNDS} rounds of ${SLICE_SECONDS} s, ${CONNECTIONS} conns`;
        rows.push(
          {
            scenario,
            metric: `req/s, on/off (${perRound})`,
            ours: rate(typical(on, (slice) => slice.okPerSecond)),
            reference: `off ${rate(typical(off, (slice) => slice.okPerSecond))}`,
            ratio: ratio(throughput),
            target: held ? `≥ ${1 - TARGET} (cost < ${TARGET * 100}%)` : '',
            met: held ? throughput >= 1 - TARGET : null,
          },
          {
            scenario,
            metric: 'service CPU time per request (all its threads)',
            ours: `${typical(on, (slice) => slice.cpuMicrosPerRequest).toFixed(1)} µs`,
            reference: `off ${typical(off, (slice) => slice.cpuMicrosPerRequest).toFixed(1)} µs`,
            ratio: ratio(cpu),
            target: held ? `≤ ${1 + TARGET} (cost < ${TARGET * 100}%)` : '',
            met: held ? cpu <= 1 + TARGET : null,
          },
          {
            scenario,
            // Load from neighbours only adds CPU time (contention): each one's least is its own cost.
            metric: 'service CPU time per request, least of the rounds',
            ours: `${least(on).toFixed(1)} µs`,
            reference: `off ${least(off).toFixed(1)} µs`,
            ratio: ratio(least(on) / least(off)),
            target: '',
            met: null,
          },
          {
            scenario,
            metric: 'latency p50 / p99',
            ours: `${ms(typical(on, (slice) => slice.latencyMs.p50))} / ${ms(typical(on, (slice) => slice.latencyMs.p99))}`,
            reference: `off ${ms(typical(off, (slice) => slice.latencyMs.p50))} / ${ms(typical(off, (slice) => slice.latencyMs.p99))}`,
            ratio: `${ratio(paired((slice) => slice.latencyMs.p50))} p50`,
            target: '',
            met: null,
          },
        );
      }
      const exported = collector.stats();
      rows.push({
        scenario: 'B5 GET /session/{id}, traces vs off',
        metric: 'OTLP exports the collector received (both traced configurations)',
        ours: `${exported.exports} batches, ${(exported.bytes / 1024 / 1024).toFixed(1)} MiB`,
        reference: '',
        ratio: '',
        target: '',
        met: null,
      });
      return { rows, raw: { connections: CONNECTIONS, rounds: ROUNDS, sliceSeconds: SLICE_SECONDS, slices: Object.fromEntries(names.map((name, index) => [name, slices[index]])), exported } };
    } finally {
      for (const { service } of services) await service.stop();
    }
  } finally {
    await collector.close();
  }
}
