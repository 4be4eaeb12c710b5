/**
 * B6, several instances: GET /session/{id} and the POST /session + DELETE pair on SQLite (one
 * instance, the default), on PostgreSQL with one instance, and on PostgreSQL with three
 * instances behind HAProxy (deploy/haproxy.cfg), as ratios to SQLite from the same run; and
 * GET /session?limit=100 at 10,000 live sessions on PostgreSQL. The deployments are the tests'
 * own (test/support/cluster/deployment.ts): a throwaway PostgreSQL, real processes, real HAProxy.
 */
import { startDeployment, type Deployment } from '../../test/support/cluster/deployment.js';
import { client } from '../api.js';
import { fleet, startBody } from '../fleets.js';
import { runLoad, type LoadResult, type RequestTemplate } from '../load.js';
import type { BenchOptions, Row, ScenarioResult } from '../report.js';
import { startOurService } from '../service.js';
import { fillSessions } from '../setup.js';
import { ms, rate, ratio } from '../stats.js';

const CONNECTIONS = 10;
const LIVE_FOR_LIST = 10_000;
const simulatedFleet = () => fleet({ driver: 'simulated', capacity: 20_000, ports: { from: 10_000, to: 59_999 } });
/** The scenarios measure throughput, not the start-rate limit. */
const unlimited = { RUNTIME: 'simulated', START_RATE_PER_SECOND: '1000000', START_BURST: '1000000' };

interface Target {
  name: string;
  url: string;
  token: string;
  stop(): Promise<void>;
}

const calls: { name: string; unit: string; perUnit: number; requests: (id: string) => RequestTemplate[] }[] = [
  { name: 'GET /session/{id}', unit: 'req/s', perUnit: 1, requests: (id) => [{ method: 'GET', path: `/session/${id}` }] },
  {
    name: 'POST /session + DELETE pair',
    unit: 'pairs/s',
    perUnit: 2,
    requests: () => [
      { method: 'POST', path: '/session', body: startBody, newId: true },
      { method: 'DELETE', path: '/session/{id}' },
    ],
  },
];

async function sqlite(options: BenchOptions): Promise<Target> {
  const service = await startOurService({ runtime: 'simulated', fleet: simulatedFleet(), logLevel: options.logLevel, env: unlimited });
  return { name: 'SQLite, 1 instance', url: service.url, token: service.token, stop: () => service.stop() };
}

async function postgres(instances: 1 | 3, options: BenchOptions): Promise<Target & { deployment: Deployment }> {
  const deployment = await startDeployment({ instances, fleet: simulatedFleet(), env: { ...unlimited, LOG_LEVEL: options.logLevel ?? 'warn' } });
  return {
    name: `PostgreSQL, ${instances} instance${instances === 1 ? '' : 's'}${instances === 3 ? ' + HAProxy' : ''}`,
    url: deployment.url,
    token: deployment.token,
    deployment,
    stop: () => deployment.stop(),
  };
}

async function measure(target: Target, options: BenchOptions): Promise<Record<string, LoadResult>> {
  await fillSessions({ url: target.url, token: target.token }, 10, `b6-${target.name.length}`);
  const id: string = (await client(target.url, target.token).get('/session')).body.sessions[0].id;
  const results: Record<string, LoadResult> = {};
  for (const call of calls) {
    results[call.name] = await runLoad({
      url: target.url,
      token: target.token,
      connections: CONNECTIONS,
      durationSeconds: options.durationSeconds,
      warmupSeconds: options.warmupSeconds,
      idPrefix: `b6-${call.perUnit}-${target.name.replace(/\W+/g, '')}`,
      requests: call.requests(id),
    });
  }
  return results;
}

export async function b6(options: BenchOptions): Promise<ScenarioResult> {
  const measured: { target: string; results: Record<string, LoadResult> }[] = [];
  for (const start of [() => sqlite(options), () => postgres(1, options), () => postgres(3, options)]) {
    const target = await start();
    try {
      measured.push({ target: target.name, results: await measure(target, options) });
    } finally {
      await target.stop();
    }
  }
  const rows: Row[] = [];
  const base = measured[0]!;
  for (const call of calls) {
    const per = (r: LoadResult) => r.okPerSecond / call.perUnit;
    for (const { target, results } of measured.slice(1)) {
      const ours = results[call.name]!;
      const reference = base.results[call.name]!;
      rows.push({
        scenario: `B6 ${call.name}`,
        metric: `${call.unit}, ${target} / SQLite (${CONNECTIONS} conns)`,
        ours: `${rate(per(ours))}, p99 ${ms(ours.latencyMs.p99)}`,
        reference: `SQLite ${rate(per(reference))}, p99 ${ms(reference.latencyMs.p99)}`,
        ratio: ratio(per(ours) / per(reference)),
        target: '',
        met: null,
      });
    }
  }

  // limit=100 at 10,000 live sessions on PostgreSQL (one instance: what one list request costs).
  const listed = await postgres(1, options);
  let list: LoadResult;
  try {
    const setup = await fillSessions({ url: listed.url, token: listed.token }, LIVE_FOR_LIST, 'b6-list');
    list = await runLoad({
      url: listed.url,
      token: listed.token,
      connections: 1,
      durationSeconds: options.durationSeconds,
      warmupSeconds: options.warmupSeconds,
      requests: [{ method: 'GET', path: '/session?limit=100' }],
    });
    rows.push({
      scenario: 'B6 GET /session limit=100 on PostgreSQL',
      metric: `p50 / p99 at ${LIVE_FOR_LIST / 1000}k live (1 conn)`,
      ours: `${ms(list.latencyMs.p50)} / ${ms(list.latencyMs.p99)}`,
      reference: `setup ${rate(setup.startsPerSecond)} starts`,
      ratio: '',
      target: 'p99 ≤ 10 ms',
      met: list.latencyMs.p99 <= 10,
    });
  } finally {
    await listed.stop();
  }
  return {
    rows,
    raw: {
      connections: CONNECTIONS,
      durationSeconds: options.durationSeconds,
      calls: Object.fromEntries(measured.map(({ target, results }) => [target, results])),
      listAt10k: list,
    },
  };
}
