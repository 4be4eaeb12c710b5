/**
 * B1, control-plane calls: GET /session/{id}, GET /session with 100 live sessions, and a
 * POST /session + DELETE pair on the simulated runtime, each against our service, the bare
 * Fastify floor answering the same bodies, and Prism mocking the same bundled spec. The pair is
 * also run against the write floor (write-floor-server.ts: the pair's own statements and fsyncs
 * behind bare Fastify), which tells what the machine gives those writes at that durability.
 */
import { client, waitAllRunning, waitUntil } from '../api.js';
import { fleet, startBody } from '../fleets.js';
import { runLoad, type LoadResult, type RequestTemplate } from '../load.js';
import type { BenchOptions, Row, ScenarioResult } from '../report.js';
import { exportBaseline } from '../baseline.js';
import { startBare, startOurService, startPrism, startWriteFloor, type OurService, type Server } from '../service.js';
import { fillSessions } from '../setup.js';
import { ms, rate, ratio, rounded } from '../stats.js';

const LIVE_SESSIONS = 100;
const CONNECTIONS = 10;

interface Call {
  name: string;
  requests: RequestTemplate[];
  /** The ours/bare target applies to read calls only. */
  read: boolean;
  /** Requests per unit reported (2 for the start + stop pair). */
  perUnit: number;
}

export async function b1(options: BenchOptions): Promise<ScenarioResult> {
  const servers: Server[] = [];
  try {
    const ours = await startOurService({
      runtime: 'simulated',
      fleet: fleet({ driver: 'simulated', capacity: 20_000, ports: { from: 10_000, to: 59_999 } }),
      logLevel: options.logLevel,
      ...(options.cpuProfileDir ? { cpuProfileDir: options.cpuProfileDir } : {}),
    });
    servers.push(ours);
    await fillSessions(ours, LIVE_SESSIONS, 'b1');
    const api = client(ours.url, ours.token);

    // The bodies the floor answers with are exactly ours, captured now.
    const list = await api.get('/session');
    if (list.body.sessions.length !== LIVE_SESSIONS) throw new Error(`expected ${LIVE_SESSIONS} live sessions`);
    const id: string = list.body.sessions[0].id;
    const session = await api.get(`/session/${id}`);
    const probe = await api.post('/session', JSON.parse(startBody.replace('{id}', 'b1-probe').replace(/\{n%\d+\}/g, '0')));
    if (probe.status !== 201) throw new Error(`probe start answered ${probe.status}`);
    await api.del('/session/b1-probe');
    await waitUntil('the probe session to end', async () => (await api.get('/session/b1-probe')).body.ended !== null, 10_000);
    servers.push(await startBare({ session: session.body, list: list.body, created: probe.body }));
    servers.push(await startPrism());
    // Writes only: it answers nothing else.
    const writeFloor = await startWriteFloor({ created: probe.body, token: ours.token });
    servers.push(writeFloor);
    await waitAllRunning(api);
    // Today's service (the first wave's), with the same sessions and load: what the ratios are against.
    const baseline = exportBaseline();
    if (baseline) {
      try {
        const today = await startOurService({
          runtime: 'simulated',
          fleet: fleet({ driver: 'simulated', capacity: 20_000, ports: { from: 10_000, to: 59_999 } }),
          logLevel: options.logLevel,
          checkout: { root: baseline.root, name: 'today' },
        });
        servers.push({ ...today, stop: async () => (await today.stop(), baseline.remove()) });
        await fillSessions(today, LIVE_SESSIONS, 'b1');
        await waitAllRunning(client(today.url, today.token));
      } catch (error) {
        baseline.remove();
        throw error;
      }
    }

    const calls: Call[] = [
      { name: 'GET /session/{id}', requests: [{ method: 'GET', path: `/session/${id}` }], read: true, perUnit: 1 },
      { name: `GET /session (${LIVE_SESSIONS} live)`, requests: [{ method: 'GET', path: '/session' }], read: true, perUnit: 1 },
      // Writes last: stopped sessions linger in shuttingdown for 0.5 s and would join the list.
      {
        name: 'POST /session + DELETE pair',
        requests: [
          { method: 'POST', path: '/session', body: startBody, newId: true },
          { method: 'DELETE', path: '/session/{id}' },
        ],
        read: false,
        perUnit: 2,
      },
    ];

    const rows: Row[] = [];
    const raw: Record<string, Record<string, unknown>> = {};
    for (const call of calls) {
      const results: Record<string, LoadResult> = {};
      for (const server of servers.filter((s) => s !== writeFloor || !call.read)) {
        results[server.name] = await runLoad({
          url: server.url,
          token: 'token' in server ? (server as OurService).token : ours.token,
          connections: CONNECTIONS,
          durationSeconds: options.durationSeconds,
          warmupSeconds: options.warmupSeconds,
          idPrefix: `b1-${server.name}`,
          requests: call.requests,
        });
      }
      raw[call.name] = Object.fromEntries(
        Object.entries(results).map(([name, r]) => [
          name,
          { ...r, unitsPerSecond: r.okPerSecond / call.perUnit, latencyMs: rounded(r.latencyMs), allLatencyMs: rounded(r.allLatencyMs) },
        ]),
      );
      rows.push(...callRows(call, results.ours!, results.bare!, results.prism!, results.today, results.floor));
    }
    return { rows, raw: { connections: CONNECTIONS, liveSessions: LIVE_SESSIONS, durationSeconds: options.durationSeconds, calls: raw } };
  } finally {
    for (const server of servers.reverse()) await server.stop();
  }
}

function callRows(call: Call, ours: LoadResult, bare: LoadResult, prism: LoadResult, today: LoadResult | undefined, floor: LoadResult | undefined): Row[] {
  const unit = call.perUnit === 2 ? 'pairs/s' : 'req/s';
  const per = (r: LoadResult) => r.okPerSecond / call.perUnit;
  const scenario = `B1 ${call.name}`;
  const vsBare = per(ours) / per(bare);
  const vsPrism = per(ours) / per(prism);
  const failures = (r: LoadResult) => r.errors + r.timeouts + Object.entries(r.statusCodes).filter(([c]) => !c.startsWith('2')).reduce((s, [, n]) => s + n, 0);
  const rows: Row[] = [
    {
      scenario,
      metric: `${unit}, ours/bare`,
      ours: rate(per(ours)),
      reference: `bare ${rate(per(bare))}`,
      ratio: ratio(vsBare),
      // Issue 19: reads at 0.7 of the bare framework (the first wave's target was 0.5).
      target: call.read ? '≥ 0.7' : '(none)',
      met: call.read ? vsBare >= 0.7 : null,
    },
    {
      scenario,
      metric: `${unit}, ours/Prism`,
      ours: rate(per(ours)),
      reference: `Prism ${rate(per(prism))}`,
      ratio: ratio(vsPrism),
      target: '≥ 10',
      met: vsPrism >= 10,
    },
    {
      scenario,
      metric: `latency p50 / p99 (${CONNECTIONS} conns${call.perUnit === 2 ? ', POST and DELETE mixed' : ''})`,
      ours: `${ms(ours.latencyMs.p50)} / ${ms(ours.latencyMs.p99)}`,
      reference: `bare ${ms(bare.latencyMs.p50)} / ${ms(bare.latencyMs.p99)}; Prism ${ms(prism.latencyMs.p50)} / ${ms(prism.latencyMs.p99)}`,
      ratio: `${ratio(ours.latencyMs.p50 / bare.latencyMs.p50)} bare p50`,
      target: '',
      met: null,
    },
  ];
  if (today) {
    const vsToday = per(ours) / per(today);
    rows.push({
      scenario,
      metric: `${unit}, ours/today's (the first wave's service, same run)`,
      ours: rate(per(ours)),
      reference: `today ${rate(per(today))}`,
      ratio: ratio(vsToday),
      // Issue 19: start+stop pairs 5× today's at the same durability; reads are held to the bare ratio.
      target: call.read ? '' : '≥ 5',
      met: call.read ? null : vsToday >= 5,
    });
  }
  if (floor) {
    rows.push({
      scenario,
      metric: `${unit}, ours/the write floor (the pair's statements and fsyncs behind bare Fastify)`,
      ours: rate(per(ours)),
      reference: `floor ${rate(per(floor))}`,
      ratio: ratio(per(ours) / per(floor)),
      target: '',
      met: null,
    });
    if (today) {
      rows.push({
        scenario,
        metric: `${unit}, the write floor/today's (the same writes at the same durability, no other code)`,
        ours: rate(per(floor)),
        reference: `today ${rate(per(today))}`,
        ratio: ratio(per(floor) / per(today)),
        target: '',
        met: null,
      });
    }
  }
  const bad = { ours: failures(ours), bare: failures(bare), prism: failures(prism), floor: floor ? failures(floor) : 0 };
  if (bad.ours + bad.bare + bad.prism + bad.floor > 0) {
    rows.push({ scenario, metric: 'non-2xx / errors (excluded above)', ours: String(bad.ours), reference: `bare ${bad.bare}; Prism ${bad.prism}; floor ${bad.floor}`, ratio: '', target: '0', met: bad.ours === 0 });
  }
  return rows;
}
