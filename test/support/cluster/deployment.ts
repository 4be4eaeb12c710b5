/**
 * A real deployment on this machine, as the README's "Running several instances" describes
 * it: a fresh database in the test PostgreSQL (test/support/postgres.mjs), N service instances (each its own process and data directory, one
 * DATABASE_URL and SECRET_KEY) and, for three, HAProxy on deploy/haproxy.cfg in front with
 * health checks on /readyz. Every port is free-picked; stop() tears everything down. Free of
 * vitest, so the benchmarks start it too.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHaproxy, type Haproxy } from './haproxy.js';
import { freePort } from '../free-port.js';
import { createDatabase } from '../postgres.mjs';

export const DEPLOYMENT_TOKEN = 'gsh_ClusterBootstrapToken000000000000000000';
/** Generous: an instance loads Node and tsx, which took more than 60 s on 2 busy cores (load 22). */
const READY_TIMEOUT_MS = 180_000;

export interface Instance {
  name: string;
  port: number;
  url: string;
  dataDir: string;
  /** Running now (not killed, or started again). */
  readonly alive: boolean;
  /** Everything it printed since it was last started. */
  output(): string;
  kill(signal: NodeJS.Signals): Promise<void>;
  /** Start it again on the same port and data directory. */
  start(): Promise<void>;
}

export interface Deployment {
  /** HAProxy's address with three instances; the first instance's with fewer. */
  url: string;
  databaseUrl: string;
  token: string;
  instances: Instance[];
  haproxy: Haproxy | undefined;
  stop(): Promise<void>;
}

export interface DeploymentOptions {
  /** HAProxy in front of three; with one or two, none. */
  instances: 1 | 2 | 3;
  /** The fleet file every instance reads (the same file: they share the fleet). */
  fleet: unknown;
  /** More environment for every instance. */
  env?: Record<string, string>;
  /** More environment for one instance (1-based), after `env`. */
  instanceEnv?: (instance: number) => Record<string, string>;
  /** HAProxy's health check interval (deploy/haproxy.cfg says 2s). */
  checkInterval?: string;
}

export async function startDeployment(options: DeploymentOptions): Promise<Deployment> {
  const root = mkdtempSync(join(tmpdir(), 'session-host-cluster-'));
  const fleetFile = join(root, 'fleet.json');
  writeFileSync(fleetFile, JSON.stringify(options.fleet, null, 2));
  const databaseUrl = await createDatabase('deployment');
  const shared = {
    DATABASE_URL: databaseUrl,
    SECRET_KEY: randomBytes(32).toString('base64'),
    BOOTSTRAP_TOKEN: DEPLOYMENT_TOKEN,
    FLEET_FILE: fleetFile,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    // HAProxy forwards the caller's address (deploy/haproxy.cfg: option forwardfor).
    TRUST_PROXY: '127.0.0.1',
    // A test's SIGTERM ends the instance at once (it is the readiness delay's own test that sets one).
    SHUTDOWN_DELAY_SECONDS: '0',
    ...options.env,
  };
  const instances: Instance[] = [];
  let haproxy: Haproxy | undefined;
  const stop = async () => {
    await haproxy?.stop();
    for (const instance of instances) await instance.kill('SIGKILL');
    rmSync(root, { recursive: true, force: true });
  };
  try {
    for (let i = 1; i <= options.instances; i++) {
      const instance = serviceInstance(`instance${i}`, await freePort(), join(root, `instance${i}`), { ...shared, ...options.instanceEnv?.(i) });
      instances.push(instance);
      // One at a time: the first creates the schema and the bootstrap account.
      await instance.start();
    }
    if (options.instances === 3) {
      haproxy = await startHaproxy({
        port: await freePort(),
        instancePorts: instances.map((i) => i.port),
        socket: join(root, 'haproxy.sock'),
        checkInterval: options.checkInterval ?? '300ms',
      });
      await waitForAllUp(haproxy);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: haproxy?.url ?? instances[0]!.url, databaseUrl, token: DEPLOYMENT_TOKEN, instances, haproxy, stop };
}

async function waitForAllUp(haproxy: Haproxy): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    const states = Object.values(await haproxy.states());
    if (states.length > 0 && states.every((state) => state === 'UP')) return;
    if (Date.now() > deadline) throw new Error(`haproxy never saw every instance up: ${JSON.stringify(states)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function serviceInstance(name: string, port: number, dataDir: string, env: Record<string, string>): Instance {
  let child: ChildProcess | undefined;
  let output = '';
  const instance: Instance = {
    name,
    port,
    url: `http://127.0.0.1:${port}`,
    dataDir,
    get alive() {
      return child !== undefined && child.exitCode === null && child.signalCode === null;
    },
    output: () => output,
    async kill(signal) {
      if (!instance.alive) return;
      const exited = once(child!, 'exit');
      child!.kill(signal);
      await exited;
    },
    async start() {
      output = '';
      child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
        env: { ...process.env, ...env, PORT: String(port), DATA_DIR: dataDir },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const started = child;
      started.stdout!.on('data', (chunk: Buffer) => (output += chunk));
      started.stderr!.on('data', (chunk: Buffer) => (output += chunk));
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${name} did not start:\n${output}`)), READY_TIMEOUT_MS);
        const onExit = (code: number | null) => {
          clearTimeout(timer);
          reject(new Error(`${name} exited with ${code} before listening:\n${output}`));
        };
        started.once('exit', onExit);
        const check = () => {
          if (!output.includes('listening on')) return;
          clearTimeout(timer);
          started.off('exit', onExit);
          started.stdout!.off('data', check);
          resolve();
        };
        started.stdout!.on('data', check);
      });
    },
  };
  return instance;
}
