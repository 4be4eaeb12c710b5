/**
 * B2, start-to-running on the process runtime: from sending POST /session to the game
 * server's TCP port accepting a connection, one session at a time, beside the floor of
 * spawning the same echo server directly and waiting for its port the same way. A second
 * floor wraps the echo server in bubblewrap with the very arguments the runtime used (read from
 * a live game server's command line), which splits our overhead into isolation and control
 * plane. The three are interleaved so drift hits all alike.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { client, waitUntil, type Api } from '../api.js';
import { fleet, LOCATION } from '../fleets.js';
import { track } from '../processes.js';
import type { BenchOptions, Row, ScenarioResult } from '../report.js';
import { serviceRoot, startOurService, type OurService } from '../service.js';
import { ms, ratio, rounded, summarize } from '../stats.js';

const SESSIONS = 30;
const WARMUP_SESSIONS = 3;
const PORTS = { from: 45_000, to: 45_899 };
/**
 * The floors use ports of their own, outside the service's range, a new pair each time: a
 * server from the previous round still closing must never answer for the next one.
 */
const FLOOR_PORTS = { from: 45_900, pairs: 50 };
let floorRound = 0;
const CONNECT_TIMEOUT_MS = 15_000;
const ECHO = join(serviceRoot, 'server/sample/echo-server.mjs');

/**
 * The bubblewrap arguments (up to `--`) the runtime wrapped a session's game server in, from
 * the command line of its game process; undefined when it runs without isolation.
 */
function isolationOf(service: OurService, sessionId: string): string[] | undefined {
  const state = JSON.parse(readFileSync(join(service.dataDir, 'sessions', sessionId, 'state.json'), 'utf8'));
  const argv = readFileSync(`/proc/${state.gamePid}/cmdline`, 'utf8').split('\0');
  if (!argv[0]!.endsWith('bwrap')) return undefined;
  return argv.slice(1, argv.indexOf('--') + 1);
}

/** Resolves once a TCP connection to the port succeeds, retrying every 1 ms. */
function connectable(host: string, port: number, timeoutMs = CONNECT_TIMEOUT_MS): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      const socket = connect({ host, port });
      socket.once('connect', () => {
        socket.destroy();
        resolve();
      });
      socket.once('error', () => {
        socket.destroy();
        if (performance.now() > deadline) reject(new Error(`${host}:${port} did not accept a connection in ${timeoutMs} ms`));
        else setTimeout(attempt, 1);
      });
    };
    attempt();
  });
}

const isFinal = (status: string) => status === 'exited' || status === 'dead';

/** One session through the API: start, wait for its query port, stop, wait for the end. */
async function viaService(api: Api, id: string, whileRunning: () => void = () => {}) {
  const t0 = performance.now();
  const started = await api.post('/session', { id, location: LOCATION, image: 'echo' });
  const answered = performance.now() - t0;
  if (started.status !== 201) throw new Error(`start answered ${started.status}: ${JSON.stringify(started.body)}`);
  const query = (started.body.ports as { name: string; host: number }[]).find((p) => p.name === 'query')!;
  await connectable(started.body.host, query.host);
  const toRunning = performance.now() - t0;
  whileRunning();
  const stopped = await api.del(`/session/${id}`);
  if (stopped.status !== 204) throw new Error(`stop answered ${stopped.status}`);
  await waitUntil(`session ${id} to end`, async () => isFinal((await api.get(`/session/${id}`)).body.status), 15_000, 10);
  return { answered, toRunning };
}

/** The floor: spawn the echo server (optionally inside bubblewrap) and wait for its port. */
async function direct(bwrapArgs: string[] | undefined, index: number) {
  const root = mkdtempSync(join(tmpdir(), 'session-host-bench-floor-'));
  const work = join(root, 'work');
  mkdirSync(work);
  const game = FLOOR_PORTS.from + 2 * (floorRound++ % FLOOR_PORTS.pairs);
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    SESSION_ID: `floor-${index}`,
    SESSION_HOST: '127.0.0.1',
    PORT_GAME: String(game),
    PORT_QUERY: String(game + 1),
  };
  const [file, args]: [string, string[]] = bwrapArgs ? ['bwrap', [...bwrapArgs, process.execPath, ECHO]] : [process.execPath, [ECHO]];
  try {
    const t0 = performance.now();
    const child = track(spawn(file, args, { cwd: work, env, stdio: 'ignore', detached: true }));
    const exited = new Promise((ok) => child.once('exit', ok));
    await connectable('127.0.0.1', game + 1);
    const toRunning = performance.now() - t0;
    // The echo server stops on SIGTERM; bwrap passes no signal on, so signal the whole group.
    process.kill(-child.pid!, 'SIGTERM');
    await exited;
    return toRunning;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

export async function b2(options: BenchOptions): Promise<ScenarioResult> {
  const service = await startOurService({
    runtime: 'process',
    fleet: fleet({ driver: 'process', capacity: 64, ports: PORTS }),
    logLevel: options.logLevel,
    ...(options.cpuProfileDir ? { cpuProfileDir: options.cpuProfileDir } : {}),
  });
  const api = client(service.url, service.token);
  let isolation: string[] | undefined;
  const samples = { answered: [] as number[], ours: [] as number[], floor: [] as number[], floorBwrap: [] as number[] };
  try {
    for (let i = 0; i < WARMUP_SESSIONS + SESSIONS; i++) {
      const id = `b2-${i}`;
      const run = await viaService(api, id, () => {
        if (i === 0) isolation = isolationOf(service, id);
      });
      const floor = await direct(undefined, i);
      const floorBwrap = isolation ? await direct(isolation, i) : Number.NaN;
      if (i < WARMUP_SESSIONS) continue;
      samples.answered.push(run.answered);
      samples.ours.push(run.toRunning);
      samples.floor.push(floor);
      if (isolation) samples.floorBwrap.push(floorBwrap);
    }
  } finally {
    await service.stop();
  }

  const ours = summarize(samples.ours);
  const floor = summarize(samples.floor);
  const floorBwrap = summarize(samples.floorBwrap);
  const answered = summarize(samples.answered);
  const overhead = ours.p50 - floor.p50;
  const scenario = 'B2 start-to-running (process runtime)';
  const rows: Row[] = [
    {
      scenario,
      metric: `p50, POST → TCP connect (${SESSIONS} sequential)`,
      ours: ms(ours.p50),
      reference: `floor ${ms(floor.p50)}`,
      ratio: `${ratio(ours.p50 / floor.p50)}, +${ms(overhead)}`,
      target: '≤ floor + 10 ms',
      met: overhead <= 10,
    },
    {
      scenario,
      metric: 'p95',
      ours: ms(ours.p95),
      reference: `floor ${ms(floor.p95)}`,
      ratio: `${ratio(ours.p95 / floor.p95)}, +${ms(ours.p95 - floor.p95)}`,
      target: '',
      met: null,
    },
    {
      scenario,
      metric: `p50 vs floor in bubblewrap (${isolation ? 'ours isolates with bwrap' : 'ours runs without isolation'})`,
      ours: ms(ours.p50),
      reference: isolation ? `floor+bwrap ${ms(floorBwrap.p50)}` : 'n/a',
      ratio: isolation ? `+${ms(ours.p50 - floorBwrap.p50)}` : '',
      target: '',
      met: null,
    },
    {
      scenario,
      metric: 'p50 / p95 of the POST answer alone',
      ours: `${ms(answered.p50)} / ${ms(answered.p95)}`,
      reference: '',
      ratio: '',
      target: '',
      met: null,
    },
  ];
  return {
    rows,
    raw: {
      sessions: SESSIONS,
      isolation: isolation ? { tool: 'bubblewrap', args: isolation } : 'none',
      startToRunningMs: rounded(ours),
      floorMs: rounded(floor),
      floorWithBubblewrapMs: isolation ? rounded(floorBwrap) : null,
      postAnswerMs: rounded(answered),
      overheadP50Ms: overhead,
      samplesMs: { ours: samples.ours, floor: samples.floor, floorBwrap: samples.floorBwrap, answered: samples.answered },
    },
  };
}
