/**
 * B6, warm starts (issue 19). Two figures, each through the real HTTP API:
 *
 * - `POST /session` to a `201 running` from a warm pool on the process runtime (sandboxed echo
 *   servers, the SDK handoff included): one start at a time, each paced until the pool has a ready
 *   server again, so every start measured is warm (a cold answer is counted and reported). Over one
 *   kept-alive node:http connection, as a studio's backend would hold (api.ts: keepAliveClient); a
 *   `GET /session/{id}` on it after each start gives that client's round trip beside it.
 * - Warm allocations per second with 16 clients: a pool of 1,000 on the simulated runtime (a
 *   thousand sandboxed game servers do not fit this machine; the simulated handoff is free, the
 *   store transaction and the HTTP path are the same), 1,000 starts by 16 connections. A session
 *   is warm when it was running from its launch (`started` equals `created`). The same 1,000
 *   starts into a location without a pool, in the same run, give the cold figure beside it.
 *
 * The reference is Agones' published allocation rate (~300-400/s with concurrent clients).
 */
import { client, keepAliveClient, sleep, waitUntil, type Api } from '../api.js';
import { fleet, LOCATION } from '../fleets.js';
import { runLoad } from '../load.js';
import type { BenchOptions, Row, ScenarioResult } from '../report.js';
import { startOurService, type OurService } from '../service.js';
import { ms, rate, ratio, rounded, summarize } from '../stats.js';

const SCENARIO = 'B6 warm start (warm pools)';
const AGONES = 'Agones: ~300-400 allocations/s';
const LATENCY = { pool: 8, starts: 60, warmup: 5 };
const THROUGHPUT = { pool: 1000, starts: 1000, clients: 16 };
const ADMIN = { email: 'bench@example.com', password: 'bench-admin-password' };
const COLD = 'cold';

/** The pools' fill through the admin API (a panel session). */
async function poolReady(service: OurService): Promise<() => Promise<number>> {
  const signedIn = await fetch(`${service.url}/admin/api/auth`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) });
  if (signedIn.status !== 200) throw new Error(`admin sign-in answered ${signedIn.status}`);
  const cookie = signedIn.headers.get('set-cookie')!.split(';')[0]!;
  // Reads need the CSRF token too (spec 1.7.0).
  const headers = { cookie, 'x-csrf-token': ((await signedIn.json()) as { csrf_token: string }).csrf_token };
  return async () => {
    const listed = (await (await fetch(`${service.url}/admin/api/pool`, { headers })).json()) as { pools: { ready: number }[] };
    return listed.pools[0]?.ready ?? 0;
  };
}

const withPool = (base: ReturnType<typeof fleet>, warm: number) => ({ ...base, pools: [{ location: LOCATION, image: 'echo', tag: 'latest', warm }] });
const adminEnv = { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password };

async function warmLatency(options: BenchOptions) {
  const service = await startOurService({
    runtime: 'process',
    fleet: withPool(fleet({ driver: 'process', capacity: 64, ports: { from: 46_000, to: 46_999 } }), LATENCY.pool),
    logLevel: options.logLevel,
    env: adminEnv,
  });
  const api = keepAliveClient(service.url, service.token);
  try {
    const ready = await poolReady(service);
    const samples: number[] = [];
    const lookups: number[] = [];
    let cold = 0;
    for (let i = 0; i < LATENCY.warmup + LATENCY.starts; i++) {
      await waitUntil('a ready warm server', async () => (await ready()) >= LATENCY.pool, 60_000, 20);
      const t0 = performance.now();
      const started = await api.post('/session', { id: `warm-${i}`, location: LOCATION, image: 'echo' });
      const took = performance.now() - t0;
      if (started.status !== 201) throw new Error(`start answered ${started.status}: ${JSON.stringify(started.body)}`);
      if (started.body.status !== 'running') cold++;
      else if (i >= LATENCY.warmup) samples.push(took);
      const t1 = performance.now();
      await api.get(`/session/warm-${i}`);
      if (i >= LATENCY.warmup) lookups.push(performance.now() - t1);
      await api.del(`/session/warm-${i}`);
    }
    return { summary: summarize(samples), lookup: summarize(lookups), cold };
  } finally {
    api.close();
    await service.stop();
  }
}

/** `amount` starts by 16 connections into `location`; resolves to the load's numbers and how many were warm. */
async function allocations(service: OurService, api: Api, location: string, idPrefix: string) {
  const load = await runLoad({
    url: service.url,
    token: service.token,
    requests: [{ method: 'POST', path: '/session', newId: true, body: JSON.stringify({ id: '{id}', location, image: 'echo' }) }],
    connections: THROUGHPUT.clients,
    amount: THROUGHPUT.starts,
    idPrefix,
  });
  await sleep(100);
  const sessions = (await api.get(`/session?location=${location}&limit=${THROUGHPUT.starts}`)).body.sessions as { created: number; started: number | null }[];
  return { load, warm: sessions.filter((session) => session.started === session.created).length };
}

async function warmThroughput(options: BenchOptions) {
  const base = fleet({ driver: 'simulated', capacity: 3000, ports: { from: 10_000, to: 19_999 } });
  // The same node once more, without a pool: cold starts in the same run, for the ratio.
  const cold = { ...base.locations[0]!, id: COLD, nodes: [{ ...base.locations[0]!.nodes[0]!, id: `${COLD}-1`, host: '127.0.0.2' }] };
  const service = await startOurService({
    runtime: 'simulated',
    fleet: withPool({ ...base, locations: [...base.locations, cold] }, THROUGHPUT.pool),
    logLevel: options.logLevel,
    // A cold start would take a second to run: it cannot pass for a warm one.
    env: { ...adminEnv, SIMULATED_READY_MS: '1000' },
  });
  try {
    const api: Api = client(service.url, service.token);
    const ready = await poolReady(service);
    await waitUntil('the pool of 1,000 to fill', async () => (await ready()) >= THROUGHPUT.pool, 300_000, 250);
    const warm = await allocations(service, api, LOCATION, 'alloc');
    const coldRun = await allocations(service, api, COLD, 'cold');
    return { load: warm.load, warm: warm.warm, perSecond: warm.warm / warm.load.wallSeconds, coldPerSecond: coldRun.load.okPerSecond };
  } finally {
    await service.stop();
  }
}

export async function b6(options: BenchOptions): Promise<ScenarioResult> {
  const latency = await warmLatency(options);
  const throughput = await warmThroughput(options);
  const { p50, p99 } = latency.summary;
  const rows: Row[] = [
    {
      scenario: SCENARIO,
      metric: `POST /session to 201 running, p50 / p99 (process runtime, sandboxed; ${latency.summary.count} warm${latency.cold ? `, ${latency.cold} cold not counted` : ''}; GET /session/{id} on the same connection ${ms(latency.lookup.p50)} p50)`,
      ours: `${ms(p50)} / ${ms(p99)}`,
      reference: AGONES,
      ratio: '',
      target: '≤ 5 ms / ≤ 20 ms',
      met: p50 <= 5 && p99 <= 20,
    },
    {
      scenario: SCENARIO,
      metric: `warm allocations per second, ${THROUGHPUT.clients} clients (simulated runtime; ${throughput.warm} of ${throughput.load.ok} warm)`,
      ours: rate(throughput.perSecond),
      reference: `cold starts, same run: ${rate(throughput.coldPerSecond)}; ${AGONES}`,
      ratio: `${ratio(throughput.perSecond / throughput.coldPerSecond)} cold, ${(throughput.perSecond / 350).toFixed(1)}× of 350/s`,
      target: '≥ 1,000/s',
      met: throughput.perSecond >= 1000,
    },
  ];
  return {
    rows,
    raw: {
      latencyMs: rounded(latency.summary),
      lookupLatencyMs: rounded(latency.lookup),
      coldDuringLatency: latency.cold,
      throughput: { perSecond: Math.round(throughput.perSecond), coldPerSecond: Math.round(throughput.coldPerSecond), warm: throughput.warm, ok: throughput.load.ok, statusCodes: throughput.load.statusCodes, latencyMs: rounded(throughput.load.latencyMs) },
    },
  };
}
