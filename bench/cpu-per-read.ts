/**
 * CPU time per read request (issue 19), ours beside the bare Fastify floor: `npm run
 * bench:cpu`. Starts our service (simulated runtime, 100 live sessions, as B1) and the bare
 * server answering the same bodies, loads each read route with 10 connections, and divides the
 * server process's CPU time (user + system, from /proc) by the requests it answered. Ours and
 * bare take turns, BENCH_ROUNDS times (default 5) for BENCH_DURATION seconds each (default 2);
 * the median of each is printed. On a machine shared with other work, wall-clock rates swing
 * with the neighbours' load; a process's CPU time per request much less so.
 */
import { client } from './api.js';
import { fleet } from './fleets.js';
import { runLoad } from './load.js';
import { startBare, startOurService, type Server } from './service.js';
import { cpuSeconds } from './proc-cpu.js';
import { fillSessions } from './setup.js';

const durationSeconds = Number(process.env.BENCH_DURATION ?? 2);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);

async function measure(server: Server, token: string, path: string) {
  const before = cpuSeconds(server.pid);
  const load = await runLoad({ url: server.url, token, connections: 10, durationSeconds, requests: [{ method: 'GET', path }] });
  const cpu = cpuSeconds(server.pid) - before;
  const failed = Object.entries(load.statusCodes).some(([code]) => !code.startsWith('2'));
  if (failed) throw new Error(`${server.name} answered ${JSON.stringify(load.statusCodes)}`);
  return { perSecond: load.okPerSecond, cpuMicros: (cpu / load.ok) * 1e6 };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const ours = await startOurService({
  runtime: 'simulated',
  fleet: fleet({ driver: 'simulated', capacity: 1000, ports: { from: 10_000, to: 59_999 } }),
  logLevel: 'warn',
});
const servers: Server[] = [ours];
try {
  await fillSessions(ours, 100, 'cpu');
  const api = client(ours.url, ours.token);
  const list = await api.get('/session');
  const id: string = list.body.sessions[0].id;
  const session = await api.get(`/session/${id}`);
  const bare = await startBare({ session: session.body, list: list.body, created: session.body });
  servers.push(bare);
  for (const [title, path] of [
    ['GET /session/{id}', `/session/${id}`],
    ['GET /session (100 live)', '/session'],
  ] as const) {
    for (const server of [ours, bare]) await runLoad({ url: server.url, token: ours.token, connections: 10, durationSeconds: 1, requests: [{ method: 'GET', path }] });
    const runs = { ours: [] as { perSecond: number; cpuMicros: number }[], bare: [] as { perSecond: number; cpuMicros: number }[] };
    for (let round = 0; round < rounds; round++) {
      runs.ours.push(await measure(ours, ours.token, path));
      runs.bare.push(await measure(bare, ours.token, path));
    }
    const [a, b] = [runs.ours, runs.bare].map((r) => ({ cpuMicros: median(r.map((x) => x.cpuMicros)), perSecond: median(r.map((x) => x.perSecond)) }));
    console.log(
      `${title}: ours ${a!.cpuMicros.toFixed(1)} µs CPU/request (${Math.round(a!.perSecond)}/s), ` +
        `bare ${b!.cpuMicros.toFixed(1)} µs (${Math.round(b!.perSecond)}/s); CPU bare/ours ${(b!.cpuMicros / a!.cpuMicros).toFixed(2)}, ` +
        `rate ours/bare ${(a!.perSecond / b!.perSecond).toFixed(2)} (medians of ${rounds} alternating runs)`,
    );
  }
} finally {
  for (const server of servers.reverse()) await server.stop();
}
process.exit(0);
