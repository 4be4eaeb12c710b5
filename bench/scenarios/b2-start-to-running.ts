/**
 * B2, start-to-running on the process runtime: from sending POST /session to the game
 * server's TCP port accepting a connection, one session at a time, beside the floor of
 * spawning the same echo server directly and waiting for its port the same way (the first
 * wave's floor, no isolation). A second floor spawns it in the same sandbox the runtime uses
 * (server/runtime/process/sandbox.ts: own uid, pasta network namespace, bwrap view; built by the
 * same function), which splits our overhead into the cost of isolation and the control plane.
 * The three are interleaved so drift hits all alike.
 */
import { spawn } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { client, waitUntil, type Api } from '../api.js';
import { fleet, LOCATION } from '../fleets.js';
import { track } from '../processes.js';
import type { BenchOptions, Row, ScenarioResult } from '../report.js';
import { serviceRoot, startOurService } from '../service.js';
import { ms, ratio, rounded, summarize } from '../stats.js';
import { cgroupProblem } from '../../server/runtime/process/cgroups.js';
import { withSeccomp } from '../../server/runtime/process/launcher.mjs';
import { checkSandbox, sandboxArgv, seccompHandoff, type SandboxTools } from '../../server/runtime/process/sandbox.js';

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

/** The floor's sandbox user: outside the service's uid range. */
const FLOOR_UID = 399_999;

/**
 * Resolves once the echo server answers a line over TCP, retrying every 1 ms. A connection alone
 * is not enough: in the sandbox, pasta accepts on the host port before the game server listens
 * inside, and closes the connection when nothing answers there.
 */
function connectable(host: string, port: number, timeoutMs = CONNECT_TIMEOUT_MS): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      let answered = false;
      const socket = connect({ host, port }, () => socket.write('ping\n'));
      socket.once('data', () => {
        answered = true;
        socket.destroy();
        resolve();
      });
      socket.once('close', () => {
        if (answered) return;
        if (performance.now() > deadline) reject(new Error(`${host}:${port} did not answer in ${timeoutMs} ms`));
        else setTimeout(attempt, 1);
      });
      socket.on('error', () => socket.destroy());
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

/** The floor: spawn the echo server (optionally in the runtime's sandbox) and wait for its port. */
async function direct(tools: SandboxTools | undefined, index: number) {
  const root = mkdtempSync(join(tmpdir(), 'session-host-bench-floor-'));
  const work = join(root, 'work');
  mkdirSync(work);
  const game = FLOOR_PORTS.from + 2 * (floorRound++ % FLOOR_PORTS.pairs);
  if (tools) {
    chmodSync(root, 0o711);
    chownSync(work, FLOOR_UID, FLOOR_UID);
  }
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    SESSION_ID: `floor-${index}`,
    SESSION_HOST: '127.0.0.1',
    PORT_GAME: String(game),
    PORT_QUERY: String(game + 1),
  };
  const sandbox = tools
    ? sandboxArgv(tools, {
        uid: FLOOR_UID,
        workDir: work,
        hostAddress: '127.0.0.1',
        ports: [
          { name: 'game', type: 'udp', container: 7777, host: game },
          { name: 'query', type: 'tcp', container: 7778, host: game + 1 },
        ],
        hide: [],
        readOnly: [serviceRoot],
        limits: { openFiles: 1024, fileBytes: 1024 ** 3 },
      })
    : [];
  const [file, ...args] = [...sandbox, process.execPath, ECHO];
  try {
    const t0 = performance.now();
    // The sandbox's bwrap reads its seccomp filter from a descriptor, as the launcher hands it.
    const child = track(withSeccomp(tools && seccompHandoff(tools), ['ignore', 'ignore', 'ignore'], (stdio) => spawn(file, args, { cwd: work, env, stdio, detached: true })));
    const exited = new Promise((ok) => child.once('exit', ok));
    await connectable('127.0.0.1', game + 1);
    const toRunning = performance.now() - t0;
    // Ending pasta (or the bare echo server) ends the floor.
    process.kill(-child.pid!, tools ? 'SIGKILL' : 'SIGTERM');
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
  const check = checkSandbox(() => cgroupProblem());
  const tools = check.ok ? check.tools : undefined;
  const samples = { answered: [] as number[], ours: [] as number[], floor: [] as number[], floorSandbox: [] as number[] };
  try {
    for (let i = 0; i < WARMUP_SESSIONS + SESSIONS; i++) {
      const run = await viaService(api, `b2-${i}`);
      const floor = await direct(undefined, i);
      const floorSandbox = tools ? await direct(tools, i) : Number.NaN;
      if (i < WARMUP_SESSIONS) continue;
      samples.answered.push(run.answered);
      samples.ours.push(run.toRunning);
      samples.floor.push(floor);
      if (tools) samples.floorSandbox.push(floorSandbox);
    }
  } finally {
    await service.stop();
  }

  const ours = summarize(samples.ours);
  const floor = summarize(samples.floor);
  const floorSandbox = summarize(samples.floorSandbox);
  const answered = summarize(samples.answered);
  // The target is against the floor in the same sandbox (DESIGN 7); without one, against the bare floor.
  const sameSandbox = tools ? floorSandbox : floor;
  const overhead = ours.p50 - sameSandbox.p50;
  const scenario = 'B2 start-to-running (process runtime)';
  const rows: Row[] = [
    {
      scenario,
      metric: `p50, POST → first TCP answer (${SESSIONS} sequential), vs floor in the same sandbox`,
      ours: ms(ours.p50),
      reference: `${tools ? 'floor+sandbox' : 'floor (no sandbox here)'} ${ms(sameSandbox.p50)}`,
      ratio: `${ratio(ours.p50 / sameSandbox.p50)}, +${ms(overhead)}`,
      target: '≤ floor + 10 ms',
      met: overhead <= 10,
    },
    {
      scenario,
      metric: 'p50, the cost of isolation: floor in the sandbox vs the bare (first-wave) floor',
      ours: tools ? ms(floorSandbox.p50) : 'n/a',
      reference: `floor ${ms(floor.p50)}`,
      ratio: tools ? `${ratio(floorSandbox.p50 / floor.p50)}, +${ms(floorSandbox.p50 - floor.p50)}` : '',
      target: '',
      met: null,
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
      isolation: tools ? 'sandbox (setpriv + pasta + bwrap)' : `none (${check.ok ? '' : check.problem})`,
      startToRunningMs: rounded(ours),
      floorMs: rounded(floor),
      floorInSandboxMs: tools ? rounded(floorSandbox) : null,
      postAnswerMs: rounded(answered),
      overheadP50Ms: overhead,
      samplesMs: { ours: samples.ours, floor: samples.floor, floorSandbox: samples.floorSandbox, answered: samples.answered },
    },
  };
}
