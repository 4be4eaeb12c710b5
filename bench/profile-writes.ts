/**
 * Flame graphs and CPU cost of the write path (issue 19): `npm run bench:profile-writes` starts
 * our service on the simulated runtime once per workload and loads it from a separate process:
 *
 * - `post-delete-pair`: `POST /session` + `DELETE` pairs, 10 connections, BENCH_DURATION seconds
 *   (default 10), with 100 live sessions (B1's write row);
 * - `warm-claims`: 1,000 starts by 16 connections from a warm pool of 1,000 (B6's throughput row).
 *
 * It prints the service's CPU time (user + system, all its threads, from /proc) per pair or per
 * claim: on a machine shared with other work that is a steadier guide than wall-clock rates.
 * With `--cpu-prof` (the default; `BENCH_PROFILE=0` measures without the profiler's overhead) it
 * writes bench/profiles/<workload>.svg (and the raw .cpuprofile next to it, not committed).
 * `npm run bench:profile-writes -- pair` runs one workload.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitUntil } from './api.js';
import { flameGraph, type CpuProfile } from './flamegraph.js';
import { fleet, LOCATION, startBody } from './fleets.js';
import { runLoad, type LoadResult } from './load.js';
import { startOurService, type OurService } from './service.js';
import { fillSessions } from './setup.js';

const durationSeconds = Number(process.env.BENCH_DURATION ?? 10);
const profiling = process.env.BENCH_PROFILE !== '0';
const outDir = join(import.meta.dirname, 'profiles');
const ADMIN = { email: 'bench@example.com', password: 'bench-admin-password' };
const WARM = 1000;

/** User + system CPU seconds the process has used (fields 14 and 15 of /proc/<pid>/stat). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

interface Workload {
  file: string;
  title: string;
  unit: string;
  /** Requests per unit (2 for the pair). */
  perUnit: number;
  start(profileDir: string | undefined): Promise<OurService>;
  /** Set-up before the measured load (filling, waiting for the pool). */
  prepare(service: OurService): Promise<void>;
  load(service: OurService): Promise<LoadResult>;
}

const base = () => fleet({ driver: 'simulated', capacity: 3000, ports: { from: 10_000, to: 59_999 } });

const WORKLOADS: Workload[] = [
  {
    file: 'post-delete-pair',
    title: 'POST /session + DELETE pair',
    unit: 'pair',
    perUnit: 2,
    start: (profileDir) => startOurService({ runtime: 'simulated', fleet: base(), logLevel: 'warn', ...(profileDir ? { cpuProfileDir: profileDir } : {}) }),
    prepare: async (service) => void (await fillSessions(service, 100, 'profile')),
    load(service) {
      const requests = [
        { method: 'POST' as const, path: '/session', body: startBody, newId: true },
        { method: 'DELETE' as const, path: '/session/{id}' },
      ];
      return runLoad({ url: service.url, token: service.token, connections: 10, durationSeconds, idPrefix: 'pair', requests });
    },
  },
  {
    file: 'warm-claims',
    title: `warm claims (pool of ${WARM}, 16 connections)`,
    unit: 'claim',
    perUnit: 1,
    start: (profileDir) =>
      startOurService({
        runtime: 'simulated',
        fleet: { ...base(), pools: [{ location: LOCATION, image: 'echo', tag: 'latest', warm: WARM }] },
        logLevel: 'warn',
        env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, SIMULATED_READY_MS: '1000' },
        ...(profileDir ? { cpuProfileDir: profileDir } : {}),
      }),
    async prepare(service) {
      const signedIn = await fetch(`${service.url}/admin/api/auth`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) });
      const cookie = signedIn.headers.get('set-cookie')!.split(';')[0]!;
      // Reads need the CSRF token too (spec 1.7.0).
      const headers = { cookie, 'x-csrf-token': ((await signedIn.json()) as { csrf_token: string }).csrf_token };
      const ready = async () => ((await (await fetch(`${service.url}/admin/api/pool`, { headers })).json()) as { pools: { ready: number }[] }).pools[0]?.ready ?? 0;
      await waitUntil('the pool to fill', async () => (await ready()) >= WARM, 300_000, 250);
    },
    load(service) {
      const body = JSON.stringify({ id: '{id}', location: LOCATION, image: 'echo' });
      return runLoad({ url: service.url, token: service.token, connections: 16, amount: WARM, idPrefix: 'warm', requests: [{ method: 'POST', path: '/session', newId: true, body }] });
    },
  },
];

const only = process.argv.slice(2);
for (const workload of WORKLOADS.filter((w) => only.length === 0 || only.some((name) => w.file.includes(name)))) {
  const profileDir = profiling ? mkdtempSync(join(tmpdir(), 'session-host-profile-')) : undefined;
  const service = await workload.start(profileDir);
  try {
    await workload.prepare(service);
    // No warm-up run: every request whose CPU is counted is counted too.
    const cpuBefore = cpuSeconds(service.pid);
    const result = await workload.load(service);
    const units = result.ok / workload.perUnit;
    const cpu = cpuSeconds(service.pid) - cpuBefore;
    console.log(
      `${workload.title}: ${Math.round(units / result.wallSeconds)} ${workload.unit}s/s${profiling ? ' under the profiler' : ''}, ` +
        `${Math.round((cpu * 1e6) / units)} µs of service CPU per ${workload.unit} (${result.ok} ok, ${JSON.stringify(result.statusCodes)})`,
    );
  } finally {
    await service.stop();
  }
  if (!profileDir) continue;
  const [file] = readdirSync(profileDir).filter((name) => name.endsWith('.cpuprofile'));
  if (!file) throw new Error(`no CPU profile written for ${workload.title}`);
  const raw = readFileSync(join(profileDir, file), 'utf8');
  writeFileSync(join(outDir, `${workload.file}.cpuprofile`), raw);
  writeFileSync(join(outDir, `${workload.file}.svg`), flameGraph(JSON.parse(raw) as CpuProfile, `${workload.title}, our service`));
  rmSync(profileDir, { recursive: true, force: true });
  console.log(`wrote bench/profiles/${workload.file}.svg`);
}
process.exit(0);
