/**
 * The Docker runtime tests' frame: the two test engines (SESSION_HOST_DOCKER_ENGINES, as printed by
 * test/docker/start-engines.sh, which also imports the test image; .ci/run does both), their fleet,
 * and ways to look at and into a session's container.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import Docker from 'dockerode';
import { afterAll, beforeAll, expect } from 'vitest';
import type { FleetConfig, NodeConfig } from '../../server/config/fleet-types.js';
import { engineOptions } from '../../server/runtime/docker/engine-client.js';
import { contractFetch } from './contract.js';
import { caller } from './http.js';
import { startService, testFleet, type RunningService } from './service.js';

export const engines = process.env.SESSION_HOST_DOCKER_ENGINES?.split(',').filter(Boolean) ?? [];
export const skipReason =
  'SESSION_HOST_DOCKER_ENGINES is not set (as root: export "$(bash test/docker/start-engines.sh)" starts two Docker engines)';
export const IMAGE = process.env.SESSION_HOST_TEST_IMAGE ?? 'session-host-echo:test';
/** The test image without an ENTRYPOINT: its CMD is the program (see ensureCmdOnlyImage). */
export const CMD_ONLY_IMAGE = `${IMAGE}-cmd-only`;
export const ENGINE_BASE = process.env.SESSION_HOST_DOCKER_BASE ?? '/var/lib/session-host-docker';
/** How much the `chatty` image writes to its output, in lines of 4 KiB (json-file's rotation keeps the last ~30 MB). */
export const LOG_MB = 40;
const CHATTY = `const line='x'.repeat(4095)+'\\n';let n=${LOG_MB * 256};` +
  `(function more(){while(n>0){n--;if(!process.stdout.write(line))return process.stdout.once('drain',more)}})()`;

/** The fleet's default limits, which every tag without its own gets. */
export const DEFAULT_LIMITS = { memoryMb: 64, cpus: 1, pids: 64, workMb: 64, artifactsMb: 16 };

/**
 * Node dock-1 on engine 1, dock-2 on engine 2 (location `dock`), dock-1b on engine 1 alone
 * (`dock-only-1`: where tests run that must not meet the engine-2 outage of docker-runtime.test.ts,
 * as files run in parallel), dock-2b on engine 2 alone (`dock-only-2`). Images: `echo` (the test image, as its own user 1000), `nobody` (the same
 * image, no user: the default), `cmdonly` (CMD_ONLY_IMAGE), `chatty` (writes LOG_MB of output,
 * then exits), `ghost` (not imported anywhere).
 */
export function dockerFleet(change: (fleet: FleetConfig) => void = () => {}): FleetConfig {
  return testFleet((fleet) => {
    fleet.runtime.driver = 'docker';
    fleet.runtime.docker = DEFAULT_LIMITS;
    const [a, b] = fleet.locations.map((l) => l.nodes[0]!);
    // Nodes sharing an engine's host each take half of its block (outside it, another test file's may lie).
    const half = (n: NodeConfig) => n.ports.from + Math.floor((n.ports.to - n.ports.from + 1) / 2);
    const [first, second] = [(n: NodeConfig) => ({ from: n.ports.from, to: half(n) - 1 }), (n: NodeConfig) => ({ from: half(n), to: n.ports.to })];
    fleet.locations = [
      {
        id: 'dock',
        ips: ['127.0.0.1'],
        nodes: [
          { ...a!, id: 'dock-1', ports: first(a!), capacity: 8, docker: { engine: engines[0]!, publishIp: '127.0.0.1' } },
          { ...b!, id: 'dock-2', ports: first(b!), capacity: 8, docker: { engine: engines[1]!, publishIp: '127.0.0.1' } },
        ],
      },
      { id: 'dock-only-1', ips: ['127.0.0.1'], nodes: [{ ...a!, id: 'dock-1b', ports: second(a!), capacity: 8, docker: { engine: engines[0]!, publishIp: '127.0.0.1' } }] },
      { id: 'dock-only-2', ips: ['127.0.0.1'], nodes: [{ ...b!, id: 'dock-2b', ports: second(b!), capacity: 8, docker: { engine: engines[1]!, publishIp: '127.0.0.1' } }] },
    ];
    const ports = fleet.images[0]!.tags.latest!.ports;
    const image = (name: string, docker: { image: string; user?: string }) => ({ name, defaultTag: 'latest', public: true, tags: { latest: { ports, docker } } });
    fleet.images = [image('echo', { image: IMAGE, user: '1000:1000' }), image('nobody', { image: IMAGE }),
      image('cmdonly', { image: CMD_ONLY_IMAGE, user: '1000:1000' }),
      { ...image('chatty', { image: CMD_ONLY_IMAGE }), tags: { latest: { ports: [], command: ['/usr/local/bin/node', '-e', CHATTY], docker: { image: CMD_ONLY_IMAGE } } } },
      image('ghost', { image: 'session-host-not-imported:1' })];
    change(fleet);
  });
}

export const docker = (engine: string) => new Docker(engineOptions(engine));

/**
 * (Re)start the test engines (test/docker/start-engines.sh; idempotent), without blocking: the
 * service under test runs in this process, and a synchronous exec would freeze it for the
 * script's seconds. Its timers then all fire at once when it returns, before the I/O that
 * arrived meanwhile: an idle keep-alive connection past the server's keep-alive timeout is
 * closed under the test's next request (ECONNRESET), and an engine's answered ping counts as
 * missed. No timeout of its own: one that killed the script midway would leave an engine down
 * for the files that run after; the test's timeout bounds the wait.
 */
export const startEngines = () => promisify(execFile)('bash', ['test/docker/start-engines.sh']);

/** The labels that find a session's containers by the id its account chose (and the account, where ids repeat across accounts). */
const sessionLabels = (sessionId: string, accountId?: string) =>
  [`session-host.id=${sessionId}`, ...(accountId ? [`session-host.account=${accountId}`] : [])];

export async function containersOf(sessionId: string, accountId?: string) {
  const all = await Promise.all(engines.map((e) => docker(e).listContainers({ all: true, filters: { label: sessionLabels(sessionId, accountId) } })));
  return all.flat();
}

/** A session's container, inspected, with the engine it runs on. */
export async function containerOf(sessionId: string, accountId?: string) {
  for (const engine of engines) {
    const [found] = await docker(engine).listContainers({ all: true, filters: { label: sessionLabels(sessionId, accountId) } });
    if (found) return { engine, info: await docker(engine).getContainer(found.Id).inspect() };
  }
  throw new Error(`no container for session ${sessionId}`);
}

/** Run Node code inside a session's container (as its user, in its namespaces); its stdout. */
export async function nodeIn(sessionId: string, script: string, options: { detach?: boolean; accountId?: string } = {}): Promise<string> {
  const { engine, info } = await containerOf(sessionId, options.accountId);
  const args = ['-H', engine, 'exec', ...(options.detach ? ['-d'] : []), info.Id, '/usr/local/bin/node', '-e', script];
  const { stdout } = await promisify(execFile)('docker', args, { timeout: 20_000 });
  return stdout.trim();
}

/** The game-server SDK's socket as a container sees it (SESSION_HOST_SDK). */
export const SDK_SOCKET_IN_CONTAINER = '/run/session-host/sdk.sock';

/** Node code (for nodeIn) that asks the SDK at `socketPath` for its allocation and prints the answer's JSON, or the error's code. */
export const sdkAllocationProbe = (socketPath = SDK_SOCKET_IN_CONTAINER) =>
  `import('/app/sdk-client.mjs').then(async ({ connectSdk }) => {` +
  `try { console.log(JSON.stringify(await connectSdk(${JSON.stringify(socketPath)}).allocation())) } catch (e) { console.log(e.code ?? e.message) } })`;

/** Node code that connects to host:port and prints `connected` or why not (an error code, `timeout`). */
export function connectProbe(host: string, port: number): string {
  return `const s=require('net').connect(${port},${JSON.stringify(host)});s.setTimeout(1500);` +
    `s.on('connect',()=>{console.log('connected');process.exit(0)});` +
    `s.on('error',(e)=>{console.log(e.code);process.exit(0)});s.on('timeout',()=>{console.log('timeout');process.exit(0)})`;
}

/** Remove what sessions whose id starts with `prefix` left on the engines (containers, networks). */
export async function removeLeftovers(prefix: string): Promise<void> {
  for (const engine of engines) {
    const api = docker(engine);
    const ours = (labels: Record<string, string> | undefined) => labels?.['session-host.id']?.startsWith(prefix);
    const containers = await api.listContainers({ all: true, filters: { label: ['session-host.id'] } }).catch(() => []);
    for (const c of containers) if (ours(c.Labels)) await api.getContainer(c.Id).remove({ force: true, v: true }).catch(() => {});
    const networks = await api.listNetworks({ filters: { label: ['session-host.id'] } }).catch(() => []);
    for (const n of networks) if (ours(n.Labels)) await api.getNetwork(n.Id).remove().catch(() => {});
  }
}

/** CMD_ONLY_IMAGE on engine 1: the test image committed with no ENTRYPOINT and the echo server as CMD. */
export async function ensureCmdOnlyImage(): Promise<void> {
  for (const engine of engines.slice(0, 1)) {
    const api = docker(engine);
    const container = await api.createContainer({ Image: IMAGE, Entrypoint: [''], Cmd: ['/usr/local/bin/node', '/app/echo-server.mjs'] });
    const [repo, tag] = CMD_ONLY_IMAGE.split(/:(?=[^:/]+$)/) as [string, string];
    await container.commit({ repo, tag });
    await container.remove();
  }
}

/** The test image with VOLUMEs declared: `/data` (mode 1777, writable by its user) and its working directory. */
export const VOLUME_IMAGE = `${IMAGE}-volumes`;

/**
 * VOLUME_IMAGE on engine 1: what a hostile image does to get a writable place of no size on the
 * engine host's disk, past the read-only root and the size-limited working directory.
 */
export async function ensureVolumeImage(): Promise<void> {
  for (const engine of engines.slice(0, 1)) {
    const api = docker(engine);
    const script = "require('fs').mkdirSync('/data');require('fs').chmodSync('/data',0o1777)";
    const container = await api.createContainer({ Image: IMAGE, User: '0', Entrypoint: ['/usr/local/bin/node'], Cmd: ['-e', script] });
    await container.start();
    await container.wait();
    const changes = ['VOLUME ["/data", "/work/"]', 'USER 1000:1000', 'ENTRYPOINT ["/usr/local/bin/node","/app/echo-server.mjs"]', 'CMD []'];
    await promisify(execFile)('docker', ['-H', engine, 'commit', ...changes.flatMap((change) => ['--change', change]), container.id, VOLUME_IMAGE]);
    await container.remove();
  }
}

/**
 * The frame of a Docker API test file (inside its describe.skipIf(engines.length < 2)): a service on
 * the test engines with `fleet` for the file's tests, a contract-checking caller, and once the file
 * is done its sessions stopped, the service closed, whatever its sessions left on the engines
 * removed and no contract violation recorded. Session ids start with `prefix` (the leftovers'
 * filter): `newId()` makes one, remembered for that cleanup; `start()` starts a session with one
 * on engine 1 alone (location `dock-only-1`, away from docker-runtime.test.ts's outage of engine 2).
 */
export function useDockerService(prefix: string, fleet: () => FleetConfig, prepare: () => Promise<void> = async () => {}) {
  const contract = contractFetch();
  const ids: string[] = [];
  const frame = {
    contract,
    newId() {
      const id = `${prefix}${Math.random().toString(36).slice(2, 10)}`;
      ids.push(id);
      return id;
    },
    /** A new session of `image` on engine 1 (`body` adds to the start's request); its id, once answered 201. */
    async start(image: string, body: Record<string, unknown> = {}) {
      const id = frame.newId();
      expect((await frame.call('POST', '/session', { body: { id, location: 'dock-only-1', image, ...body } })).status).toBe(201);
      return id;
    },
  } as { running: RunningService; call: ReturnType<typeof caller>; contract: typeof contract; newId(): string; start(image: string, body?: Record<string, unknown>): Promise<string> };
  beforeAll(async () => {
    await prepare();
    frame.running = await startService({}, { fleet: fleet() });
    frame.call = caller(frame.running.url, frame.running.token, contract);
  });
  afterAll(async () => {
    for (const id of ids) await frame.call?.('DELETE', `/session/${id}`).catch(() => {});
    await frame.running?.close();
    await removeLeftovers(prefix);
    expect(contract.violations).toEqual([]);
  });
  return frame;
}
