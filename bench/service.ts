/**
 * The servers under test, each in a child process of its own: our service (so RSS and CPU are
 * its own), Prism mocking the bundled spec, and the bare Fastify floor. Each is started on a
 * free loopback port and resolved once it says it is listening.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { FleetConfig } from '../server/config/fleet-types.js';
import { reapSessions, track, trackDataDir, untrackDataDir } from './processes.js';

export const projectRoot = resolve(import.meta.dirname, '..');
/**
 * The checkout whose service, spec and echo server are measured: this one unless
 * BENCH_SERVICE_ROOT names another (e.g. an exported commit, while this tree is mid-edit).
 */
export const serviceRoot = resolve(process.env.BENCH_SERVICE_ROOT ?? projectRoot);
/** Extra environment for the service, as JSON (e.g. to raise a start-rate limit for setup). */
const extraServiceEnv = JSON.parse(process.env.BENCH_SERVICE_ENV ?? '{}') as Record<string, string>;
const READY_TIMEOUT_MS = 60_000;
const EXIT_TIMEOUT_MS = 15_000;

export interface Server {
  name: string;
  url: string;
  pid: number;
  /** SIGTERM, wait for the exit (SIGKILL after a timeout). */
  stop(): Promise<void>;
}

export interface OurService extends Server {
  token: string;
  dataDir: string;
  /** Resident set size of the service process now (VmRSS) and its peak (VmHWM). */
  memory(): { rss: number; peak: number };
  /** Stops the service; resolves to the size of its store once SQLite has checkpointed and closed it. */
  stopAndMeasure(): Promise<{ storeBytes: number }>;
}

function randomToken(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  return 'gsh_' + Array.from(randomBytes(40), (b) => alphabet[b % alphabet.length]).join('');
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as { port: number };
  await new Promise((ok) => server.close(ok));
  return port;
}

/** Spawn a server and wait until a line of its output matches `ready`; later output is drained. */
function spawnServer(name: string, cwd: string, file: string, args: string[], env: NodeJS.ProcessEnv, ready: RegExp, output?: (text: string) => void) {
  const child = track(spawn(file, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] }));
  return new Promise<{ child: ChildProcess; match: RegExpMatchArray }>((resolvePromise, reject) => {
    let seen = '';
    const timer = setTimeout(() => fail(`not ready after ${READY_TIMEOUT_MS} ms`), READY_TIMEOUT_MS);
    const fail = (why: string) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${name}: ${why}\n${seen.slice(-2000)}`));
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      const match = seen.match(ready);
      if (!match) return;
      clearTimeout(timer);
      child.off('exit', onExit);
      // From now on only drain the pipes, so a chatty server never blocks on a full pipe.
      for (const stream of [child.stdout!, child.stderr!]) {
        stream.off('data', onData);
        stream.on('data', output ? (later: Buffer) => output(later.toString('utf8')) : () => {});
      }
      resolvePromise({ child, match });
    };
    const onExit = (code: number | null) => fail(`exited with ${code} before it was ready`);
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', onExit);
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((ok) => child.once('exit', () => ok()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), EXIT_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}

export interface ServiceOptions {
  /** RUNTIME for the service; undefined leaves the fleet file's driver (docker). */
  runtime: 'simulated' | 'process' | undefined;
  fleet: FleetConfig;
  /** pino level of the service; request logging (info) costs throughput, so the default is warn. */
  logLevel?: string;
  /** Write a V8 CPU profile of the service into this directory when it exits. */
  cpuProfileDir?: string;
  /** More environment for the service (after the defaults and BENCH_SERVICE_ENV). */
  env?: Record<string, string>;
  /** Another checkout to run (bench/baseline.ts), and the name it goes by in the table. */
  checkout?: { root: string; name: string };
  /** More V8/Node flags for the service (e.g. `--trace-gc-nvp`, read back through `output`). */
  nodeArgs?: string[];
  /** The service's output (stdout and stderr) once it is listening; otherwise drained unread. */
  output?: (text: string) => void;
}

/** The V8 heap flags of a checkout's `npm start` (package.json). */
function startV8Flags(root: string): string[] {
  const start = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts['start'] ?? '';
  return start.split(/\s+/).filter((arg) => /^--max-(semi|old)-space-size=\d+$/.test(arg));
}

/**
 * V8's flags for the floors we compare against (the bare Fastify route, Prism): our service's,
 * so a ratio compares the servers, not their GC settings.
 */
const floorV8Flags = () => startV8Flags(serviceRoot);

export async function startOurService(options: ServiceOptions): Promise<OurService> {
  const dataDir = mkdtempSync(join(tmpdir(), 'session-host-bench-'));
  trackDataDir(dataDir);
  const fleetFile = join(dataDir, 'fleet.json');
  writeFileSync(fleetFile, JSON.stringify(options.fleet, null, 2));
  const token = randomToken();
  // V8's flags as `npm start` gives them (the checkout's package.json), so the service runs as deployed.
  const nodeArgs = [...startV8Flags(options.checkout?.root ?? serviceRoot), ...(options.nodeArgs ?? []), '--import', 'tsx'];
  if (options.cpuProfileDir) {
    mkdirSync(options.cpuProfileDir, { recursive: true });
    nodeArgs.push('--cpu-prof', '--cpu-prof-dir', options.cpuProfileDir);
  }
  const { child, match } = await spawnServer(
    options.checkout?.name ?? 'service',
    options.checkout?.root ?? serviceRoot,
    process.execPath,
    [...nodeArgs, 'server/main.ts'],
    {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      HOST: '127.0.0.1',
      PORT: '0',
      DATA_DIR: dataDir,
      BOOTSTRAP_TOKEN: token,
      ...(options.runtime ? { RUNTIME: options.runtime } : {}),
      FLEET_FILE: fleetFile,
      LOG_LEVEL: options.logLevel ?? 'warn',
      // The scenarios measure throughput and capacity, not the per-account start-rate limit
      // (default burst 20, 5/s), which would turn B1's writes, B3's setup and B4 into 420s.
      START_RATE_PER_SECOND: '1000000',
      START_BURST: '1000000',
      // Nor quota: 10,000 simulated sessions filled slowly on a busy machine use up the default 6,000 minutes.
      DEFAULT_QUOTA_MINUTES: '100000000',
      ...extraServiceEnv,
      ...options.env,
    },
    /session host listening on (http:\/\/\S+)/,
    options.output,
  );
  const pid = child.pid!;
  const stop = async () => {
    await stopChild(child);
    // Game servers outlive the service by design; anything still recorded live is ours to end.
    reapSessions(dataDir);
  };
  return {
    name: options.checkout?.name ?? 'ours',
    url: match[1]!,
    pid,
    token,
    dataDir,
    memory() {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      const kib = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
      return { rss: kib('VmRSS'), peak: kib('VmHWM') };
    },
    stop: async () => {
      await stop();
      rmSync(dataDir, { recursive: true, force: true });
      untrackDataDir(dataDir);
    },
    async stopAndMeasure() {
      await stop();
      const file = (suffix: string) => join(dataDir, `service.db${suffix}`);
      const storeBytes = ['', '-wal'].reduce((sum, s) => sum + (existsSync(file(s)) ? statSync(file(s)).size : 0), 0);
      rmSync(dataDir, { recursive: true, force: true });
      untrackDataDir(dataDir);
      return { storeBytes };
    },
  };
}

/** Prism mocking the bundled spec, as `npm run mock` does (its answers are the spec's examples). */
export async function startPrism(): Promise<Server> {
  const port = await freePort();
  const { child } = await spawnServer(
    'prism',
    serviceRoot,
    join(projectRoot, 'node_modules/.bin/prism'),
    ['mock', 'generated/openapi.yaml', '--host', '127.0.0.1', '--port', String(port)],
    // A Node script (its own shebang): the flags reach it through NODE_OPTIONS.
    { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', FORCE_COLOR: '0', NODE_OPTIONS: floorV8Flags().join(' ') },
    /Prism is listening/,
  );
  return { name: 'prism', url: `http://127.0.0.1:${port}`, pid: child.pid!, stop: () => stopChild(child) };
}

/** The bare Fastify floor (bare-server.ts) answering with the given bodies. */
export function startBare(bodies: BareBodies): Promise<Server> {
  return startFloor('bare', 'bench/bare-server.ts', bodies, /bare listening on (http:\/\/\S+)/);
}

/** The write floor (write-floor-server.ts): the pair's statements and fsyncs behind bare Fastify, answering `created`. */
export function startWriteFloor(bodies: { created: unknown; token: string }): Promise<Server> {
  return startFloor('floor', 'bench/write-floor-server.ts', bodies, /write floor listening on (http:\/\/\S+)/);
}

/** A floor server of bench/ (run as the service is, with the project's V8 flags), given its bodies in a file. */
async function startFloor(name: string, script: string, bodies: unknown, listening: RegExp): Promise<Server> {
  const dir = mkdtempSync(join(tmpdir(), `session-host-bench-${name}-`));
  const file = join(dir, 'bodies.json');
  writeFileSync(file, JSON.stringify(bodies));
  const { child, match } = await spawnServer(
    name,
    projectRoot,
    process.execPath,
    [...floorV8Flags(), '--import', 'tsx', script, file],
    { PATH: process.env.PATH, HOME: process.env.HOME },
    listening,
  );
  rmSync(dir, { recursive: true, force: true });
  return { name, url: match[1]!, pid: child.pid!, stop: () => stopChild(child) };
}

export interface BareBodies {
  session: unknown;
  list: unknown;
  created: unknown;
}
