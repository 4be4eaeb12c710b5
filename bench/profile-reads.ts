/**
 * Flame graphs of the read routes (issue 19): `npm run bench:profile` starts our service under
 * `--cpu-prof` once per route (simulated runtime, 100 live sessions, LOG_LEVEL=warn, metrics on
 * as by default, traces off), loads that one route for BENCH_DURATION seconds (default 10) with
 * 10 connections, and writes bench/profiles/<route>.svg (and the raw .cpuprofile next to it,
 * not committed). The graphs show where a request's CPU time goes; numbers belong to B1.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { client } from './api.js';
import { flameGraph, type CpuProfile } from './flamegraph.js';
import { fleet } from './fleets.js';
import { runLoad } from './load.js';
import { startOurService } from './service.js';
import { fillSessions } from './setup.js';

const durationSeconds = Number(process.env.BENCH_DURATION ?? 10);
const outDir = join(import.meta.dirname, 'profiles');

const ROUTES = [
  { file: 'get-session-by-id', title: 'GET /session/{id}', path: (id: string) => `/session/${id}` },
  { file: 'get-session-list', title: 'GET /session (100 live)', path: () => '/session' },
];

for (const route of ROUTES) {
  const profileDir = mkdtempSync(join(tmpdir(), 'session-host-profile-'));
  const service = await startOurService({
    runtime: 'simulated',
    fleet: fleet({ driver: 'simulated', capacity: 1000, ports: { from: 10_000, to: 59_999 } }),
    logLevel: 'warn',
    cpuProfileDir: profileDir,
  });
  try {
    await fillSessions(service, 100, 'profile');
    const { body } = await client(service.url, service.token).get('/session');
    const path = route.path(body.sessions[0].id);
    const load = await runLoad({ url: service.url, token: service.token, connections: 10, durationSeconds, warmupSeconds: 1, requests: [{ method: 'GET', path }] });
    console.log(`${route.title}: ${Math.round(load.okPerSecond)} req/s under the profiler`);
  } finally {
    await service.stop();
  }
  const [file] = readdirSync(profileDir).filter((name) => name.endsWith('.cpuprofile'));
  if (!file) throw new Error(`no CPU profile written for ${route.title}`);
  const raw = readFileSync(join(profileDir, file), 'utf8');
  writeFileSync(join(outDir, `${route.file}.cpuprofile`), raw);
  writeFileSync(join(outDir, `${route.file}.svg`), flameGraph(JSON.parse(raw) as CpuProfile, `${route.title}, our service, ${durationSeconds} s of load`));
  rmSync(profileDir, { recursive: true, force: true });
  console.log(`wrote bench/profiles/${route.file}.svg`);
}
process.exit(0);
