/**
 * B2D, start-to-running on the Docker runtime: from sending POST /session to the game server's
 * first echo over TCP through the published port, one session at a time, beside two floors on
 * the same engine and image: the engine API directly (create + start, the same port mapping and
 * limits, through dockerode) and the `docker run` command line. "Running" is an answered line,
 * not a TCP connect: Docker's userland proxy accepts connections before the game server listens.
 * The three are interleaved so drift hits all alike. Needs SESSION_HOST_DOCKER_ENGINES (the
 * first engine is used) and the test image of test/docker/build-image.sh. With
 * SESSION_HOST_REMOTE_ENGINES (test/docker/start-remote-engines.sh) a row for a remote node
 * follows: the same starts on an engine in a network namespace of its own, over mutual TLS, the
 * echo answered at the node's address.
 */
import { execFile } from 'node:child_process';
import { connect } from 'node:net';
import { promisify } from 'node:util';
import { join } from 'node:path';
import Docker from 'dockerode';
import { engineOptions } from '../../server/runtime/docker/engine-client.js';
import { client, waitUntil, type Api } from '../api.js';
import { fleet as makeFleet, LOCATION } from '../fleets.js';
import type { BenchOptions, Row, ScenarioResult } from '../report.js';
import { startOurService } from '../service.js';
import { ms, ratio, rounded, summarize } from '../stats.js';

const SESSIONS = 15;
const WARMUP_SESSIONS = 2;
const PORTS = { from: 46_000, to: 46_499 };
const FLOOR_PORT_FROM = 46_500;
const IMAGE = process.env.SESSION_HOST_TEST_IMAGE ?? 'session-host-echo:test';
const TIMEOUT_MS = 30_000;
const run = promisify(execFile);

/** Resolves once the echo server answers a line on the port, retrying every 2 ms. */
function echoes(port: number, host = '127.0.0.1'): Promise<void> {
  const deadline = performance.now() + TIMEOUT_MS;
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
        if (performance.now() > deadline) reject(new Error(`${host}:${port} did not echo in ${TIMEOUT_MS} ms`));
        else setTimeout(attempt, 2);
      });
      socket.once('error', () => socket.destroy());
    };
    attempt();
  });
}

const isFinal = (status: string) => status === 'exited' || status === 'dead';

async function viaService(api: Api, id: string) {
  const t0 = performance.now();
  const started = await api.post('/session', { id, location: LOCATION, image: 'echo' });
  if (started.status !== 201) throw new Error(`start answered ${started.status}: ${JSON.stringify(started.body)}`);
  const query = (started.body.ports as { name: string; host: number }[]).find((p) => p.name === 'query')!;
  await echoes(query.host, started.body.host as string);
  const toEcho = performance.now() - t0;
  await waitUntil(`session ${id} to be running`, async () => (await api.get(`/session/${id}`)).body.status === 'running', TIMEOUT_MS, 2);
  const toRunning = performance.now() - t0;
  if ((await api.del(`/session/${id}`)).status !== 204) throw new Error(`stop of ${id} failed`);
  await waitUntil(`session ${id} to end`, async () => isFinal((await api.get(`/session/${id}`)).body.status), TIMEOUT_MS, 20);
  return { toEcho, toRunning };
}

async function viaApi(docker: Docker, port: number) {
  const t0 = performance.now();
  const container = await docker.createContainer({
    Image: IMAGE,
    Env: ['SESSION_ID=floor', 'PORT_GAME=7777', 'PORT_QUERY=7778'],
    ExposedPorts: { '7777/udp': {}, '7778/tcp': {} },
    HostConfig: {
      PortBindings: { '7777/udp': [{ HostIp: '127.0.0.1', HostPort: String(port) }], '7778/tcp': [{ HostIp: '127.0.0.1', HostPort: String(port + 1) }] },
      Memory: 64 * 1024 * 1024,
    },
  });
  await container.start();
  await echoes(port + 1);
  const elapsed = performance.now() - t0;
  await container.remove({ force: true, v: true });
  return elapsed;
}

async function viaCli(engine: string, port: number) {
  const t0 = performance.now();
  const { stdout } = await run('docker', [
    '-H', engine, 'run', '-d', '-e', 'SESSION_ID=floor', '-m', '64m',
    '-p', `127.0.0.1:${port}:7777/udp`, '-p', `127.0.0.1:${port + 1}:7778/tcp`, IMAGE,
  ]);
  await echoes(port + 1);
  const elapsed = performance.now() - t0;
  await run('docker', ['-H', engine, 'rm', '-f', '-v', stdout.trim()]);
  return elapsed;
}

export async function b2docker(options: BenchOptions): Promise<ScenarioResult> {
  const scenario = 'B2D start-to-running (Docker runtime)';
  const engine = process.env.SESSION_HOST_DOCKER_ENGINES?.split(',')[0];
  if (!engine) {
    const reason = 'skipped: SESSION_HOST_DOCKER_ENGINES is not set (test/docker/start-engines.sh)';
    return { rows: [{ scenario, metric: reason, ours: 'n/a', reference: '', ratio: '', target: '', met: null }], raw: { skipped: reason } };
  }
  const fleet = makeFleet({
    driver: 'docker',
    capacity: 64,
    ports: PORTS,
    // Limits are required; the test image's own user (1000) owns /work.
    docker: { node: { engine, publishIp: '127.0.0.1' }, tag: { image: IMAGE, memoryMb: 256, cpus: 1, pids: 256, user: '1000:1000' } },
  });
  const service = await startOurService({ runtime: undefined, fleet, logLevel: options.logLevel });
  const api = client(service.url, service.token);
  const docker = new Docker(engineOptions(engine));
  const samples = { echo: [] as number[], running: [] as number[], api: [] as number[], cli: [] as number[] };
  try {
    for (let i = 0; i < WARMUP_SESSIONS + SESSIONS; i++) {
      const ours = await viaService(api, `b2d-${Date.now()}-${i}`);
      const port = FLOOR_PORT_FROM + 4 * (i % 100);
      const direct = await viaApi(docker, port);
      const cli = await viaCli(engine, port + 2);
      if (i < WARMUP_SESSIONS) continue;
      samples.echo.push(ours.toEcho);
      samples.running.push(ours.toRunning);
      samples.api.push(direct);
      samples.cli.push(cli);
    }
  } finally {
    await service.stop();
    // Ended sessions' containers are kept for the retention period; the benchmark leaves none.
    const left = await docker.listContainers({ all: true, filters: { label: ['session-host.session'] } }).catch(() => []);
    for (const c of left) if (c.Labels['session-host.session']!.startsWith('b2d-')) await docker.getContainer(c.Id).remove({ force: true, v: true }).catch(() => {});
  }
  const remote = await remoteNode(options);
  const echo = summarize(samples.echo);
  const running = summarize(samples.running);
  const direct = summarize(samples.api);
  const cli = summarize(samples.cli);
  const rows: Row[] = [
    {
      scenario,
      metric: `p50, POST → first TCP echo (${SESSIONS} sequential)`,
      ours: ms(echo.p50),
      reference: `engine API ${ms(direct.p50)}`,
      ratio: `${ratio(echo.p50 / direct.p50)}, +${ms(echo.p50 - direct.p50)}`,
      target: '',
      met: null,
    },
    { scenario, metric: 'p50 vs `docker run`', ours: ms(echo.p50), reference: `docker run ${ms(cli.p50)}`, ratio: ratio(echo.p50 / cli.p50), target: '', met: null },
    { scenario, metric: 'p95, POST → first TCP echo', ours: ms(echo.p95), reference: `engine API ${ms(direct.p95)}`, ratio: ratio(echo.p95 / direct.p95), target: '', met: null },
    { scenario, metric: 'p50 / p95, POST → status running', ours: `${ms(running.p50)} / ${ms(running.p95)}`, reference: '', ratio: '', target: '', met: null },
    remote
      ? {
          scenario,
          metric: 'p50, POST → first TCP echo, remote node (mutual TLS, own namespace)',
          ours: ms(remote.p50),
          reference: `local node ${ms(echo.p50)}`,
          ratio: ratio(remote.p50 / echo.p50),
          target: '',
          met: null,
        }
      : { scenario, metric: 'remote node', ours: 'n/a', reference: 'skipped: SESSION_HOST_REMOTE_ENGINES is not set (test/docker/start-remote-engines.sh)', ratio: '', target: '', met: null },
  ];
  return {
    rows,
    raw: {
      sessions: SESSIONS,
      engine,
      image: IMAGE,
      toEchoMs: rounded(echo),
      toRunningMs: rounded(running),
      engineApiFloorMs: rounded(direct),
      dockerRunFloorMs: rounded(cli),
      remoteNodeToEchoMs: remote ? rounded(remote) : null,
      samplesMs: samples,
    },
  };
}

/** The same starts through a service whose node is the first remote engine (mutual TLS), echoed at the node's address. */
async function remoteNode(options: BenchOptions): Promise<ReturnType<typeof summarize> | undefined> {
  const engine = process.env.SESSION_HOST_REMOTE_ENGINES?.split(',')[0];
  const tlsDir = process.env.SESSION_HOST_REMOTE_TLS;
  if (!engine || !tlsDir) return undefined;
  const host = new URL(engine.replace(/^tcp:/, 'http:')).hostname;
  const tls = { ca: join(tlsDir, 'ca.pem'), cert: join(tlsDir, 'client.pem'), key: join(tlsDir, 'client-key.pem') };
  const fleet = makeFleet({
    driver: 'docker',
    capacity: 64,
    ports: PORTS,
    docker: { node: { engine, tls, publishIp: host }, tag: { image: IMAGE, memoryMb: 256, cpus: 1, pids: 256, user: '1000:1000' } },
  });
  for (const location of fleet.locations) for (const node of location.nodes) node.host = host;
  const service = await startOurService({ runtime: undefined, fleet, logLevel: options.logLevel });
  const api = client(service.url, service.token);
  const samples: number[] = [];
  try {
    for (let i = 0; i < WARMUP_SESSIONS + SESSIONS; i++) {
      const { toEcho } = await viaService(api, `b2d-remote-${Date.now()}-${i}`);
      if (i >= WARMUP_SESSIONS) samples.push(toEcho);
    }
  } finally {
    await service.stop();
  }
  return summarize(samples);
}
