/**
 * B5, what observability costs: GET /session/{id} against the same service with metrics and
 * traces off (METRICS=false, no OTLP endpoint), with metrics only, with metrics and traces
 * exported with OTLP (to a collector stand-in in this process that accepts and counts them) at
 * the default sampling (one request in a hundred), and with every request traced (opt-in, so
 * its cost is shown but not held to the target). The target: on costs under 10% of off, in
 * throughput and in the service's own CPU time per answered request (from /proc; on a shared
 * machine throughput follows the neighbours, CPU time per request much less). Three rounds of
 * the four, interleaved so none always runs on a warmer or a colder machine; the median run of
 * each configuration is compared.
 */
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { client, waitAllRunning } from '../api.js';
import { fleet } from '../fleets.js';
import { runLoad, type LoadResult } from '../load.js';
import type { BenchOptions, Row, ScenarioResult } from '../report.js';
import { startOurService } from '../service.js';
import { fillSessions } from '../setup.js';
import { ms, percentile, rate, ratio } from '../stats.js';

const CONNECTIONS = 10;
const ROUNDS = 3;
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

interface Measured extends LoadResult {
  cpuMicrosPerRequest: number;
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

async function measure(options: BenchOptions, env: Record<string, string>, prefix: string): Promise<Measured> {
  const service = await startOurService({
    runtime: 'simulated',
    fleet: fleet({ driver: 'simulated', capacity: 100, ports: { from: 10_000, to: 19_999 } }),
    logLevel: options.logLevel,
    env,
  });
  try {
    await fillSessions(service, 10, prefix);
    const api = client(service.url, service.token);
    await waitAllRunning(api);
    const id: string = (await api.get('/session')).body.sessions[0].id;
    const load = { url: service.url, token: service.token, connections: CONNECTIONS, requests: [{ method: 'GET' as const, path: `/session/${id}` }] };
    await runLoad({ ...load, durationSeconds: options.warmupSeconds });
    const cpuBefore = cpuSeconds(service.pid);
    const result = await runLoad({ ...load, durationSeconds: options.durationSeconds });
    const answered = Object.values(result.statusCodes).reduce((sum, n) => sum + n, 0);
    return { ...result, cpuMicrosPerRequest: ((cpuSeconds(service.pid) - cpuBefore) * 1e6) / answered };
  } finally {
    await service.stop();
  }
}

/** The median over the rounds (the middle one of three): one disturbed run does not move it. */
const median = (runs: Measured[], pick: (r: Measured) => number) => percentile(runs.map(pick).sort((a, b) => a - b), 50);

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
    const runs: Record<string, Measured[]> = Object.fromEntries(Object.keys(configs).map((name) => [name, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, env] of Object.entries(configs)) runs[name]!.push(await measure(options, env, `b5-${round}`));
    }
    const off = runs.off!;
    const rows: Row[] = [];
    for (const name of Object.keys(configs).filter((name) => name !== 'off')) {
      const on = runs[name]!;
      const scenario = `B5 GET /session/{id}, ${name} vs off`;
      // Every request traced is opt-in (OTEL_TRACES_SAMPLER=always_on): shown, not held to the target.
      const held = name !== EVERY_TRACE;
      const throughput = median(on, (r) => r.okPerSecond) / median(off, (r) => r.okPerSecond);
      const cpu = median(on, (r) => r.cpuMicrosPerRequest) / median(off, (r) => r.cpuMicrosPerRequest);
      rows.push(
        {
          scenario,
          metric: `req/s, on/off (median of ${ROUNDS} runs each, ${CONNECTIONS} conns)`,
          ours: rate(median(on, (r) => r.okPerSecond)),
          reference: `off ${rate(median(off, (r) => r.okPerSecond))}`,
          ratio: ratio(throughput),
          target: held ? `≥ ${1 - TARGET} (cost < ${TARGET * 100}%)` : '',
          met: held ? throughput >= 1 - TARGET : null,
        },
        {
          scenario,
          metric: 'service CPU time per request',
          ours: `${median(on, (r) => r.cpuMicrosPerRequest).toFixed(1)} µs`,
          reference: `off ${median(off, (r) => r.cpuMicrosPerRequest).toFixed(1)} µs`,
          ratio: ratio(cpu),
          target: held ? `≤ ${1 + TARGET} (cost < ${TARGET * 100}%)` : '',
          met: held ? cpu <= 1 + TARGET : null,
        },
        {
          scenario,
          metric: 'latency p50 / p99',
          ours: `${ms(median(on, (r) => r.latencyMs.p50))} / ${ms(median(on, (r) => r.latencyMs.p99))}`,
          reference: `off ${ms(median(off, (r) => r.latencyMs.p50))} / ${ms(median(off, (r) => r.latencyMs.p99))}`,
          ratio: `${ratio(median(on, (r) => r.latencyMs.p50) / median(off, (r) => r.latencyMs.p50))} p50`,
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
    return { rows, raw: { connections: CONNECTIONS, rounds: ROUNDS, runs, exported } };
  } finally {
    await collector.close();
  }
}
