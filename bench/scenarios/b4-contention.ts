/**
 * B4, contention: 500 starts sent at once (500 connections, one request each) into a location
 * with 100 free slots. Placement runs inside one SQLite transaction per start, so exactly 100
 * must be 201 and the other 400 must be 420 CAPACITY_UNAVAILABLE; the wall time is from the
 * first connection to the last answer.
 */
import { client } from '../api.js';
import { fleet, startBody } from '../fleets.js';
import { runLoad } from '../load.js';
import type { BenchOptions, Row, ScenarioResult } from '../report.js';
import { startOurService } from '../service.js';
import { ms, rounded } from '../stats.js';

const STARTS = 500;
const SLOTS = 100;

export async function b4(options: BenchOptions): Promise<ScenarioResult> {
  const service = await startOurService({
    runtime: 'simulated',
    fleet: fleet({ driver: 'simulated', capacity: SLOTS, ports: { from: 46_000, to: 46_999 } }),
    logLevel: options.logLevel,
    ...(options.cpuProfileDir ? { cpuProfileDir: options.cpuProfileDir } : {}),
  });
  try {
    // Warm the read path only: a warm-up start would take one of the 100 slots.
    await runLoad({ url: service.url, token: service.token, connections: 4, durationSeconds: 1, requests: [{ method: 'GET', path: '/location' }] });
    const result = await runLoad({
      url: service.url,
      token: service.token,
      connections: STARTS,
      amount: STARTS,
      idPrefix: 'b4',
      requests: [{ method: 'POST', path: '/session', body: startBody, newId: true }],
    });
    const api = client(service.url, service.token);
    const live = (await api.get('/session')).body.sessions.length as number;
    const location = (await api.get('/location')).body.locations[0];
    const created = result.statusCodes['201'] ?? 0;
    const refused = result.statusCodes['420'] ?? 0;
    const others = Object.entries(result.statusCodes).filter(([c]) => c !== '201' && c !== '420');
    const exact = created === SLOTS && refused === STARTS - SLOTS && others.length === 0 && result.errors === 0 && live === SLOTS;
    const scenario = `B4 ${STARTS} concurrent starts, ${SLOTS} slots`;
    const rows: Row[] = [
      {
        scenario,
        metric: 'wall time, first connection to last answer',
        ours: ms(result.wallSeconds * 1000),
        reference: `p50 / p99 per start ${ms(result.allLatencyMs.p50)} / ${ms(result.allLatencyMs.p99)}`,
        ratio: '',
        target: '',
        met: null,
      },
      {
        scenario,
        metric: '201 / 420 / other answers; live sessions after',
        ours: `${created} / ${refused} / ${others.reduce((s, [, n]) => s + n, 0) + result.errors}; ${live}`,
        reference: `location used ${location.capacity.used} of ${location.capacity.total}`,
        ratio: '',
        target: `exactly ${SLOTS} 201s`,
        met: exact,
      },
    ];
    return {
      rows,
      raw: {
        starts: STARTS,
        slots: SLOTS,
        wallMs: result.wallSeconds * 1000,
        statusCodes: result.statusCodes,
        errors: result.errors,
        timeouts: result.timeouts,
        liveAfter: live,
        locationCapacity: location.capacity,
        latencyAllMs: rounded(result.allLatencyMs),
        latency201Ms: rounded(result.latencyMs),
      },
    };
  } finally {
    await service.stop();
  }
}
