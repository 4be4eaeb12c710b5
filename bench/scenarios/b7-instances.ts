/**
 * B7, several instances (issue 17): `GET /session/{id}` and start+stop pairs per second on
 * SQLite (one instance, the embedded default), on PostgreSQL with one instance, and with three
 * behind HAProxy, as ratios from one run; then `GET /session?limit=100` at 10,000 live sessions
 * on PostgreSQL (target p99 ≤ 10 ms) beside SQLite. PostgreSQL's 10,000 are written straight
 * through the store port (see bulkFill); SQLite's are started through the API. The PostgreSQL
 * deployments are the cluster tests' own (test/support/cluster/deployment.ts: a throwaway cluster, instances, HAProxy on
 * deploy/haproxy.cfg). One target at a time, so idle instances' background work stays out of
 * the others' figures.
 */
import { randomUUID } from 'node:crypto';
import { defaultFleet } from '../../server/config/fleet.js';
import type { SessionRecord } from '../../server/domain/ports/sessions.js';
import { justPlaced } from '../../server/domain/session-states.js';
import { openPostgresStore } from '../../server/store/postgres/store.js';
import { startDeployment, type Deployment } from '../../test/support/cluster/deployment.js';
import { client, sleep } from '../api.js';
import { fleet, LOCATION, startBody } from '../fleets.js';
import { runLoad, type LoadResult, type RequestTemplate } from '../load.js';
import type { BenchOptions, Row, ScenarioResult } from '../report.js';
import { startOurService } from '../service.js';
import { fillSessions } from '../setup.js';
import { ms, rate, ratio, rounded } from '../stats.js';

const CONNECTIONS = 10;
const LIVE_SESSIONS = 10_000;
const LIST_TARGET_P99_MS = 10;
const FILL_CHUNK = 500;
const PORTS = { from: 10_000, to: 59_999 };
/** The instance holding the bench node adopts sessions it does not watch yet at its next sweep (server/cluster/node-supervision.ts: 5 s). */
const ADOPTION_SETTLE_MS = 12_000;

type TargetName = 'SQLite' | 'PostgreSQL ×1' | 'PostgreSQL ×3';
interface Target {
  url: string;
  token: string;
  /** PostgreSQL's. */
  databaseUrl?: string;
  stop(): Promise<void>;
}

interface TargetResult {
  getById: LoadResult;
  pairs: LoadResult;
  /** limit=100 at LIVE_SESSIONS, one connection (not measured behind HAProxy). */
  list?: LoadResult;
  fillStartsPerSecond?: number;
}

const benchFleet = () => fleet({ driver: 'simulated', capacity: 20_000, ports: PORTS });

/** What every instance runs with: the simulated runtime, and no start-rate or quota limits in the way (as bench/service.ts). */
const instanceEnv = (options: BenchOptions) => ({
  RUNTIME: 'simulated',
  LOG_LEVEL: options.logLevel,
  START_RATE_PER_SECOND: '1000000',
  START_BURST: '1000000',
  DEFAULT_QUOTA_MINUTES: '100000000',
});

/** A deployment's processes die with the bench, whatever ends it (the cluster has a watchdog of its own). */
function killOnExit(deployment: Deployment): () => void {
  const kill = () => {
    void deployment.haproxy?.stop();
    for (const instance of deployment.instances) void instance.kill('SIGKILL');
  };
  process.on('exit', kill);
  return () => process.off('exit', kill);
}

async function startTarget(name: TargetName, options: BenchOptions): Promise<Target> {
  if (name === 'SQLite') {
    const service = await startOurService({ runtime: 'simulated', fleet: benchFleet(), logLevel: options.logLevel });
    return { url: service.url, token: service.token, stop: () => service.stop() };
  }
  const deployment = await startDeployment({ instances: name === 'PostgreSQL ×1' ? 1 : 3, fleet: benchFleet(), env: instanceEnv(options) });
  const forget = killOnExit(deployment);
  return {
    url: deployment.url,
    token: deployment.token,
    databaseUrl: deployment.databaseUrl,
    stop: async () => {
      await deployment.stop();
      forget();
    },
  };
}

async function measureTarget(name: TargetName, options: BenchOptions): Promise<TargetResult> {
  const target = await startTarget(name, options);
  try {
    const prefix = `b7-${name.replace(/\W+/g, '')}`;
    await fillSessions(target, 100, `${prefix}-read`);
    const api = client(target.url, target.token);
    const { body } = await api.get('/session?limit=1');
    const load = (requests: RequestTemplate[], connections = CONNECTIONS, idPrefix = prefix) =>
      runLoad({ url: target.url, token: target.token, connections, durationSeconds: options.durationSeconds, warmupSeconds: options.warmupSeconds, idPrefix, requests });
    const getById = await load([{ method: 'GET', path: `/session/${body.sessions[0].id}` }]);
    const pairs = await load(
      [
        { method: 'POST', path: '/session', body: startBody, newId: true },
        { method: 'DELETE', path: '/session/{id}' },
      ],
      CONNECTIONS,
      `${prefix}-pair`,
    );
    if (name === 'PostgreSQL ×3') return { getById, pairs };
    // The listing at scale: filled up to LIVE_SESSIONS live ones, then one caller at a time.
    const filling = performance.now();
    if (target.databaseUrl) await bulkFill(target.databaseUrl, body.sessions[0].id, LIVE_SESSIONS - 100);
    for (let chunk = 0; !target.databaseUrl && chunk * FILL_CHUNK < LIVE_SESSIONS - 100; chunk++) {
      await fillSessions(target, Math.min(FILL_CHUNK, LIVE_SESSIONS - 100 - chunk * FILL_CHUNK), `${prefix}-fill${chunk}`);
    }
    const fillStartsPerSecond = (LIVE_SESSIONS - 100) / ((performance.now() - filling) / 1000);
    if (target.databaseUrl) await sleep(ADOPTION_SETTLE_MS);
    const list = await load([{ method: 'GET', path: '/session?limit=100' }], 1);
    return { getById, pairs, list, fillStartsPerSecond };
  } finally {
    await target.stop();
  }
}

/**
 * PostgreSQL's live sessions written straight through the store port, 500 a transaction: running
 * on the bench node, on ports from the top of its range (the API's sessions take the lowest). The
 * API would take a quarter of an hour: each start reads every live port of its host under the
 * node's placement lock, so a start costs more the more sessions live. The instance holding the
 * node adopts them at its next sweep, as it would another instance's.
 */
async function bulkFill(databaseUrl: string, sessionOfTheAccount: string, count: number): Promise<void> {
  const echo = defaultFleet.images.find((image) => image.name === 'echo')!;
  const ports = echo.tags[echo.defaultTag]!.ports;
  const store = await openPostgresStore(databaseUrl, { poolSize: 1 });
  try {
    const [{ accountId }] = (await store.sessions.findEverywhere(sessionOfTheAccount)) as [SessionRecord];
    for (let from = 0; from < count; from += FILL_CHUNK) {
      await store.sessions.transaction(async () => {
        for (let n = from; n < Math.min(count, from + FILL_CHUNK); n++) {
          const created = Date.now();
          await store.sessions.insert({
            ...justPlaced(),
            id: `b7-bulk-${n}`,
            accountId,
            key: randomUUID(),
            image: echo.name,
            tag: echo.defaultTag,
            location: LOCATION,
            nodeId: `${LOCATION}-1`,
            host: '127.0.0.1',
            ports: ports.map((port, i) => ({ ...port, host: PORTS.to - n * ports.length - i })),
            created,
            labels: { mode: `m${n % 2}`, shard: `s${n % 100}` },
            args: [],
            restart: false,
            expires: null,
            status: 'running',
            runningSince: created,
          });
        }
      });
    }
  } finally {
    await store.close();
  }
}

export async function b7(options: BenchOptions): Promise<ScenarioResult> {
  const results = {} as Record<TargetName, TargetResult>;
  for (const name of ['SQLite', 'PostgreSQL ×1', 'PostgreSQL ×3'] as const) results[name] = await measureTarget(name, options);
  const sqlite = results.SQLite;
  const one = results['PostgreSQL ×1'];
  const three = results['PostgreSQL ×3'];

  const rows: Row[] = [];
  const throughput = (scenario: string, unit: string, pick: (r: TargetResult) => number) => {
    rows.push(
      {
        scenario,
        metric: `${unit}, PostgreSQL ×1 / SQLite (${CONNECTIONS} conns)`,
        ours: rate(pick(one)),
        reference: `SQLite ${rate(pick(sqlite))}`,
        ratio: ratio(pick(one) / pick(sqlite)),
        target: '',
        met: null,
      },
      {
        scenario,
        metric: `${unit}, PostgreSQL ×3 behind HAProxy / ×1`,
        ours: rate(pick(three)),
        reference: `×1 ${rate(pick(one))}; SQLite ${rate(pick(sqlite))}`,
        ratio: ratio(pick(three) / pick(one)),
        target: '',
        met: null,
      },
    );
  };
  throughput('B7 GET /session/{id}', 'req/s', (r) => r.getById.okPerSecond);
  throughput('B7 POST /session + DELETE pair', 'pairs/s', (r) => r.pairs.okPerSecond / 2);
  const pg = one.list!.latencyMs;
  const lite = sqlite.list!.latencyMs;
  rows.push({
    scenario: 'B7 GET /session?limit=100',
    metric: `p50 / p99 at ${LIVE_SESSIONS / 1000}k live on PostgreSQL (1 conn)`,
    ours: `${ms(pg.p50)} / ${ms(pg.p99)}`,
    reference: `SQLite ${ms(lite.p50)} / ${ms(lite.p99)}`,
    ratio: `${ratio(pg.p99 / lite.p99)} SQLite p99`,
    target: `p99 ≤ ${LIST_TARGET_P99_MS} ms`,
    met: pg.p99 <= LIST_TARGET_P99_MS,
  });
  rows.push({
    scenario: 'B7 setup',
    metric: `sessions/s filling to ${LIVE_SESSIONS / 1000}k live (PostgreSQL ×1: store port; SQLite: API, ${CONNECTIONS} conns)`,
    ours: rate(one.fillStartsPerSecond!),
    reference: `SQLite ${rate(sqlite.fillStartsPerSecond!)}`,
    ratio: ratio(one.fillStartsPerSecond! / sqlite.fillStartsPerSecond!),
    target: '',
    met: null,
  });
  const failed = Object.entries(results).flatMap(([name, r]) =>
    Object.entries({ getById: r.getById, pairs: r.pairs, list: r.list }).flatMap(([call, load]) => {
      const bad = load ? load.errors + load.timeouts + Object.entries(load.statusCodes).filter(([c]) => !c.startsWith('2')).reduce((s, [, n]) => s + n, 0) : 0;
      return bad > 0 ? [`${name} ${call}: ${bad}`] : [];
    }),
  );
  if (failed.length > 0) rows.push({ scenario: 'B7 errors', metric: 'non-2xx / errors (excluded above)', ours: failed.join('; '), reference: '', ratio: '', target: '0', met: false });

  const raw = Object.fromEntries(
    Object.entries(results).map(([name, r]) => [
      name,
      Object.fromEntries(
        Object.entries(r).map(([key, value]) =>
          typeof value === 'number' ? [key, value] : [key, { ...value, latencyMs: rounded(value.latencyMs), allLatencyMs: rounded(value.allLatencyMs) }],
        ),
      ),
    ]),
  );
  return { rows, raw: { connections: CONNECTIONS, liveSessions: LIVE_SESSIONS, durationSeconds: options.durationSeconds, targets: raw } };
}
