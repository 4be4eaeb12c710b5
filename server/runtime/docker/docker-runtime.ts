/**
 * The Docker runtime: each session is a container on its node's Docker engine (dockerode, one
 * client per node). The engine is the source of truth: containers carry labels (session, account,
 * location, node, and this service's instance id), so after a service restart every session is
 * found again by listing containers by label.
 *
 * - Start: create + start with the session env, published ports (allocated host port -> declared
 *   container port; the game server binds the container port, `PORT_<NAME>`), limits (memory
 *   without swap, CPUs, pids), no privileges (all capabilities dropped, no-new-privileges,
 *   read-only root filesystem with a tmpfs /tmp and a volume for the working directory).
 * - Running: every declared port is bound inside the container. For an engine on this machine
 *   (unix socket) the container's own /proc/<pid>/net/{tcp,udp} tables are read, exactly as the
 *   process runtime's supervisor does: a TCP connect to the published port would be answered by
 *   Docker's userland proxy before the game server listens, and UDP has no handshake at all. For
 *   a remote engine, TCP ports are connected to through the published host port and UDP ports
 *   are taken as ready with them (documented limitation).
 * - Crashes restart through the engine's restart policy (`on-failure`, never after a stop).
 * - Stop: `container.stop({t: grace})` (SIGTERM, grace, SIGKILL); the exit code and OOM kill
 *   come from inspect. At the end the working directory is copied out of the container (the
 *   engine's archive API) into <dataDir>/docker/<session>/artifacts, the artifact root.
 * - An engine that stops answering makes its node unavailable and its sessions `unreachable`;
 *   when it answers again they are reconciled (running, ended, or lost).
 * - Retention: ended sessions' containers (their logs) and copied artifacts are removed
 *   `retentionHours` after the end (default 24).
 */
import { boundPorts } from '../socket-table.mjs';
import Docker from 'dockerode';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { PortAllocation } from '../../domain/session-record.js';
import type { NodeDockerConfig } from '../../fleet.js';
import type { AdoptSpec, LaunchSpec, Runtime, RuntimeEvent } from '../runtime.js';
import { copyArtifacts, type ArtifactCopy } from './artifact-copy.js';
import { openContainerLogs, type LogOptions } from './container-logs.js';
import { BRIDGE_PREFIX, createSessionNetwork, removeSessionNetwork } from './session-network.js';
import { createWorkFilesystem, removeWorkFilesystem } from './work-filesystem.js';

const LABEL = {
  /** The session's key (unique across accounts): what the runtime finds its container by. */
  session: 'session-host.session',
  /** The id its account chose, for people (`docker ps --filter label=session-host.id=match-1`). */
  id: 'session-host.id',
  account: 'session-host.account',
  location: 'session-host.location',
  node: 'session-host.node',
  instance: 'session-host.instance',
  /** The session's artifact cap in bytes (read back at the end, also after a restart). */
  artifactBytes: 'session-host.artifact-bytes',
};
const POLL_MS = 500;
const READY_POLL_MS = 10;
const READY_TIMEOUT_MS = 120_000;
const GC_EVERY_MS = 10 * 60_000;
const REQUEST_TIMEOUT_MS = 5000;
/** `nobody`: a tag that names no user never runs its game server as root. */
const DEFAULT_USER = '65534:65534';
const DEFAULT_WORK_MB = 1024;
const DEFAULT_ARTIFACTS_MB = 256;
const MAX_ARTIFACT_ENTRIES = 10_000;

export interface DockerRuntimeOptions {
  /** Where the runtime keeps each session's copied artifacts. */
  dataDir: string;
  nodes: { id: string; docker: NodeDockerConfig }[];
  graceMs: number;
  retentionHours: number;
  now: () => number;
  /** The data directory's instance id (server/instance.ts), the containers' instance label. */
  instanceId: string;
}

interface Engine {
  nodeId: string;
  /** Short requests, with a timeout (an unreachable engine must not hang polling). */
  api: Docker;
  /** Long-lived requests (followed logs, stops with a grace period, archives): no timeout. */
  streams: Docker;
  local: boolean;
  publishIp: string;
  available: boolean;
  polling: boolean;
}

interface Tracked {
  sessionId: string;
  nodeId: string;
  containerId?: string;
  ports: PortAllocation[];
  workDir: string;
  restart: boolean;
  phase: 'starting' | 'running' | 'restarting' | 'ending';
  unreachable: boolean;
  /** The container start (StartedAt) that readiness was last checked for. */
  readyFor?: string;
  checking: boolean;
  /** Ended while unreachable: stop it once the engine is back. */
  forgotten: boolean;
  restartCount?: number;
}

/** dockerode's options for an engine address; with `tls`, HTTPS with a client certificate. */
export function engineOptions(address: string, tls?: NodeDockerConfig['tls']): Docker.DockerOptions {
  if (address.startsWith('unix://')) return { socketPath: address.slice('unix://'.length) };
  const url = new URL(address.replace(/^tcp:/, 'http:'));
  const endpoint = { host: url.hostname, port: Number(url.port) };
  if (!tls) return { ...endpoint, protocol: 'http' };
  const [ca, cert, key] = [tls.ca, tls.cert, tls.key].map((file) => readFileSync(file));
  return { ...endpoint, protocol: 'https', ca, cert, key };
}

export class DockerRuntime implements Runtime {
  readonly name = 'docker';
  private readonly listeners: ((event: RuntimeEvent) => void)[] = [];
  private readonly engines = new Map<string, Engine>();
  private readonly tracked = new Map<string, Tracked>();
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly instance: string;
  private closed = false;

  constructor(private readonly options: DockerRuntimeOptions) {
    const dir = join(options.dataDir, 'docker');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    this.instance = options.instanceId;
    for (const node of options.nodes) {
      const base = engineOptions(node.docker.engine, node.docker.tls);
      this.engines.set(node.id, {
        nodeId: node.id,
        api: new Docker({ ...base, timeout: REQUEST_TIMEOUT_MS }),
        streams: new Docker(base),
        local: node.docker.engine.startsWith('unix://'),
        publishIp: node.docker.publishIp ?? '0.0.0.0',
        available: true,
        polling: false,
      });
    }
    const poll = setInterval(() => {
      for (const engine of this.engines.values()) void this.poll(engine);
    }, POLL_MS);
    const gc = setInterval(() => void this.collectGarbage(), GC_EVERY_MS);
    this.timers.push(poll, gc);
    for (const timer of this.timers) timer.unref();
  }

  onEvent(listener: (event: RuntimeEvent) => void): void {
    this.listeners.push(listener);
  }

  nodeAvailable(nodeId: string): boolean {
    return this.engines.get(nodeId)?.available ?? false;
  }

  async hasImage(nodeId: string, image: string): Promise<boolean | undefined> {
    const engine = this.engines.get(nodeId);
    if (!engine) return undefined;
    try {
      await engine.api.getImage(image).inspect();
      return true;
    } catch (error) {
      if ((error as { statusCode?: number }).statusCode === 404) return false;
      this.markDown(engine);
      return undefined;
    }
  }

  async start(spec: LaunchSpec): Promise<void> {
    const engine = this.engine(spec.nodeId);
    if (!spec.container) throw new Error(`session ${spec.sessionId}: the docker runtime needs a container image`);
    const workDir = spec.container.workDir ?? '/work';
    const tracked: Tracked = {
      sessionId: spec.sessionId,
      nodeId: spec.nodeId,
      ports: spec.ports,
      workDir,
      restart: spec.restart,
      phase: 'starting',
      unreachable: false,
      checking: false,
      forgotten: false,
    };
    this.tracked.set(spec.sessionId, tracked);
    const env = { ...spec.env };
    // Inside the container the game server binds the declared port; clients reach it on the published one.
    for (const port of spec.ports) {
      env[`PORT_${port.name.toUpperCase()}`] = String(port.container);
      env[`PUBLIC_PORT_${port.name.toUpperCase()}`] = String(port.host);
    }
    const key = (p: PortAllocation) => `${p.container}/${p.type}`;
    const { memoryMb, cpus, pids, user = DEFAULT_USER, workMb = DEFAULT_WORK_MB, artifactsMb = DEFAULT_ARTIFACTS_MB } = spec.container;
    const labels = {
      [LABEL.session]: spec.sessionId,
      [LABEL.id]: spec.publicId,
      [LABEL.account]: spec.accountId,
      [LABEL.location]: spec.location,
      [LABEL.node]: spec.nodeId,
      [LABEL.instance]: this.instance,
    };
    const sessionDir = this.sessionDir(spec.sessionId);
    let network: string | undefined;
    try {
      const cmd = await this.command(engine, spec);
      network = await createSessionNetwork(engine.api, labels);
      mkdirSync(sessionDir, { recursive: true, mode: 0o700 });
      // A size-limited filesystem where the engine is on this machine; a plain volume elsewhere.
      const work: Docker.MountConfig[number] = engine.local
        ? { Type: 'bind', Source: await createWorkFilesystem(sessionDir, workMb, user), Target: workDir }
        : { Type: 'volume', Source: '', Target: workDir };
      const container = await engine.api.createContainer({
        Image: spec.container.image,
        ...(cmd ? { Cmd: cmd } : {}),
        Env: Object.entries(env).map(([k, v]) => `${k}=${v}`),
        WorkingDir: workDir,
        User: user,
        Labels: { ...labels, [LABEL.artifactBytes]: String(artifactsMb * 1024 * 1024) },
        ExposedPorts: Object.fromEntries(spec.ports.map((p) => [key(p), {}])),
        HostConfig: {
          NetworkMode: network,
          PortBindings: Object.fromEntries(spec.ports.map((p) => [key(p), [{ HostIp: engine.publishIp, HostPort: String(p.host) }]])),
          RestartPolicy: spec.restart ? { Name: 'on-failure', MaximumRetryCount: 0 } : { Name: 'no' },
          Privileged: false,
          CapDrop: ['ALL'],
          SecurityOpt: ['no-new-privileges:true'],
          ReadonlyRootfs: true,
          Tmpfs: { '/tmp': 'rw,nosuid,nodev,size=64m' },
          // Writable, kept after the end until the artifacts are copied out.
          Mounts: [work],
          LogConfig: { Type: 'json-file', Config: { 'max-size': '10m', 'max-file': '3' } },
          ...(memoryMb ? { Memory: memoryMb * 1024 * 1024, MemorySwap: memoryMb * 1024 * 1024 } : {}),
          ...(cpus ? { NanoCpus: Math.round(cpus * 1e9) } : {}),
          ...(pids ? { PidsLimit: pids } : {}),
        },
      });
      tracked.containerId = container.id;
      try {
        await container.start();
      } catch (error) {
        await container.remove({ force: true, v: true }).catch(() => {});
        throw error;
      }
    } catch (error) {
      this.tracked.delete(spec.sessionId);
      if (network) await removeSessionNetwork(engine.api, network);
      await removeWorkFilesystem(sessionDir);
      throw error;
    }
    void this.checkReady(tracked);
  }

  /**
   * The container's command (CMD), which follows the image's ENTRYPOINT: the tag's `command`, or
   * else the image's own CMD, then the request's args. The args never replace what the image
   * runs: without an ENTRYPOINT, CMD is the program itself.
   */
  private async command(engine: Engine, spec: LaunchSpec): Promise<string[] | undefined> {
    const { command } = spec.container!;
    if (command) return [...command, ...spec.args];
    if (spec.args.length === 0) return undefined;
    const image = await engine.api.getImage(spec.container!.image).inspect();
    return [...(image.Config.Cmd ?? []), ...spec.args];
  }

  async stop(sessionId: string): Promise<void> {
    const tracked = this.tracked.get(sessionId);
    if (!tracked) return;
    const engine = this.engine(tracked.nodeId);
    if (!engine.available) {
      // The session goes unreachable; the stop is finished when the engine is back.
      tracked.forgotten = true;
      return;
    }
    const id = tracked.containerId ?? (await this.findContainer(engine, sessionId))?.Id;
    if (!id) {
      this.lose(tracked);
      return;
    }
    tracked.containerId = id;
    try {
      // The grace period can outlast the request timeout: the client without one.
      await engine.streams.getContainer(id).stop({ t: Math.ceil(this.options.graceMs / 1000) });
    } catch (error) {
      const status = (error as { statusCode?: number }).statusCode;
      if (status === 404) return this.lose(tracked);
      // 304: already stopped. Anything else: the engine went away; polling takes it from here.
      if (status !== 304) return;
    }
    await this.finish(tracked);
  }

  forget(sessionId: string): void {
    const tracked = this.tracked.get(sessionId);
    if (tracked) tracked.forgotten = true;
  }

  async adopt(spec: AdoptSpec): Promise<void> {
    const engine = this.engines.get(spec.nodeId);
    const tracked: Tracked = {
      sessionId: spec.sessionId,
      nodeId: spec.nodeId,
      ports: spec.ports,
      workDir: '/work',
      restart: false,
      phase: spec.wasRunning ? 'running' : 'starting',
      unreachable: false,
      checking: false,
      forgotten: false,
    };
    this.tracked.set(spec.sessionId, tracked);
    if (!engine) return this.lose(tracked);
    let found: Docker.ContainerInfo | undefined;
    try {
      found = await this.findContainer(engine, spec.sessionId);
    } catch {
      this.markDown(engine);
      return;
    }
    if (!found) return this.lose(tracked);
    tracked.containerId = found.Id;
    await this.reconcile(engine, tracked, found);
  }

  logs(sessionId: string, options: LogOptions): Readable {
    const out = new PassThrough();
    void (async () => {
      const located = await this.locate(sessionId);
      if (!located) return out.end();
      const { engine, containerId } = located;
      try {
        await pipeline(await openContainerLogs(engine.streams, containerId, options), out, { end: false });
      } catch {
        // Aborted, or the engine went away.
      }
      const end = this.readEnd(sessionId);
      if (end?.oomKilled && !out.destroyed) {
        out.write(`session-host: the container was killed for exceeding its memory limit (OOMKilled, exit code ${end.exitCode})\n`);
      }
      out.end();
    })().catch(() => out.end());
    return out;
  }

  artifactRoot(sessionId: string): string | undefined {
    const dir = this.artifactsDir(sessionId);
    return existsSync(dir) ? dir : undefined;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearInterval(timer);
    this.tracked.clear();
  }

  private engine(nodeId: string): Engine {
    const engine = this.engines.get(nodeId);
    if (!engine) throw new Error(`node ${nodeId} has no docker engine configured`);
    return engine;
  }

  private sessionDir(sessionId: string): string {
    return join(this.options.dataDir, 'docker', 'sessions', encodeURIComponent(sessionId));
  }

  private artifactsDir(sessionId: string): string {
    return join(this.sessionDir(sessionId), 'artifacts');
  }

  /** Inside the container the artifacts were the working directory (`/work` unless the tag says otherwise). */
  artifactViewRoot(sessionId: string): string | undefined {
    return this.readEnd(sessionId)?.workDir;
  }

  private readEnd(sessionId: string): { exitCode: number; oomKilled: boolean; at: number; workDir?: string } | undefined {
    try {
      return JSON.parse(readFileSync(join(this.sessionDir(sessionId), 'end.json'), 'utf8'));
    } catch {
      return undefined;
    }
  }

  private async findContainer(engine: Engine, sessionId: string): Promise<Docker.ContainerInfo | undefined> {
    const list = await engine.api.listContainers({
      all: true,
      filters: { label: [`${LABEL.instance}=${this.instance}`, `${LABEL.session}=${sessionId}`] },
    });
    return list[0];
  }

  /** The engine and container of a session, live or ended (until removed). */
  private async locate(sessionId: string): Promise<{ engine: Engine; containerId: string } | undefined> {
    const tracked = this.tracked.get(sessionId);
    if (tracked?.containerId) return { engine: this.engine(tracked.nodeId), containerId: tracked.containerId };
    for (const engine of this.engines.values()) {
      try {
        const found = await this.findContainer(engine, sessionId);
        if (found) return { engine, containerId: found.Id };
      } catch {
        // Unreachable: try the others.
      }
    }
    return undefined;
  }

  /** One engine: is it there, and what became of the sessions on it. */
  private async poll(engine: Engine): Promise<void> {
    if (engine.polling || this.closed) return;
    engine.polling = true;
    try {
      let list: Docker.ContainerInfo[];
      try {
        list = await engine.api.listContainers({ all: true, filters: { label: [`${LABEL.instance}=${this.instance}`] } });
      } catch {
        this.markDown(engine);
        return;
      }
      engine.available = true;
      const bySession = new Map(list.map((c) => [c.Labels[LABEL.session]!, c]));
      for (const tracked of [...this.tracked.values()]) {
        if (tracked.nodeId !== engine.nodeId || tracked.phase === 'ending') continue;
        const container = bySession.get(tracked.sessionId);
        if (!container) {
          // Not created yet (start in flight) or gone.
          if (tracked.containerId) this.lose(tracked);
          continue;
        }
        tracked.containerId = container.Id;
        await this.reconcile(engine, tracked, container);
      }
    } finally {
      engine.polling = false;
    }
  }

  private async reconcile(engine: Engine, tracked: Tracked, container: Docker.ContainerInfo): Promise<void> {
    const wasUnreachable = tracked.unreachable;
    tracked.unreachable = false;
    if (tracked.forgotten) {
      await this.stop(tracked.sessionId);
      return;
    }
    switch (container.State) {
      case 'running': {
        if (tracked.restart && tracked.phase === 'running') {
          // A crash and restart between two polls shows only in the restart count.
          const info = await engine.api.getContainer(container.Id).inspect().catch(() => undefined);
          if (info && tracked.restartCount !== undefined && info.RestartCount > tracked.restartCount) {
            tracked.phase = 'restarting';
            this.emit({ type: 'restarting', sessionId: tracked.sessionId, at: this.options.now() });
          }
          if (info) tracked.restartCount = info.RestartCount;
        }
        if (tracked.phase === 'running') {
          if (wasUnreachable) this.emit({ type: 'running', sessionId: tracked.sessionId, at: this.options.now() });
          return;
        }
        void this.checkReady(tracked);
        return;
      }
      case 'restarting':
        if (tracked.phase === 'running') {
          tracked.phase = 'restarting';
          this.emit({ type: 'restarting', sessionId: tracked.sessionId, at: this.options.now() });
        }
        return;
      case 'exited':
      case 'dead':
        await this.finish(tracked);
        return;
      default:
        // created, paused, removing: wait.
        return;
    }
  }

  /** Poll until every declared port is bound in the container, then report it running. */
  private async checkReady(tracked: Tracked): Promise<void> {
    if (tracked.checking) return;
    tracked.checking = true;
    const engine = this.engine(tracked.nodeId);
    const deadline = Date.now() + READY_TIMEOUT_MS;
    try {
      while (!this.closed && Date.now() < deadline && this.tracked.get(tracked.sessionId) === tracked && tracked.phase !== 'ending') {
        let info: Docker.ContainerInspectInfo;
        try {
          info = await engine.api.getContainer(tracked.containerId!).inspect();
        } catch {
          return;
        }
        if (!info.State.Running) {
          if (info.State.Restarting) {
            await sleep(READY_POLL_MS * 5);
            continue;
          }
          return;
        }
        if (tracked.readyFor === info.State.StartedAt) return;
        tracked.restartCount = info.RestartCount;
        const ready = await this.portsReady(engine, tracked, info.State.Pid);
        if (ready) {
          tracked.readyFor = info.State.StartedAt;
          tracked.phase = 'running';
          this.emit({ type: 'running', sessionId: tracked.sessionId, at: this.options.now() });
          return;
        }
        await sleep(READY_POLL_MS);
      }
    } finally {
      tracked.checking = false;
    }
  }

  private async portsReady(engine: Engine, tracked: Tracked, pid: number): Promise<boolean> {
    if (engine.local) {
      const bound = boundPorts(`/proc/${pid}/net`);
      if (bound) return tracked.ports.every((p) => bound[p.type].has(p.container));
    }
    const host = engine.publishIp === '0.0.0.0' ? '127.0.0.1' : engine.publishIp;
    const tcp = tracked.ports.filter((p) => p.type === 'tcp');
    const results = await Promise.all(tcp.map((p) => canConnect(host, p.host)));
    return results.every(Boolean);
  }

  /** The container ended: record the exit, copy the artifacts out, report it. */
  private async finish(tracked: Tracked): Promise<void> {
    if (tracked.phase === 'ending') return;
    tracked.phase = 'ending';
    const engine = this.engine(tracked.nodeId);
    const container = engine.api.getContainer(tracked.containerId!);
    let info: Docker.ContainerInspectInfo;
    try {
      info = await container.inspect();
    } catch {
      tracked.phase = 'starting';
      return;
    }
    const dir = this.sessionDir(tracked.sessionId);
    const artifacts = this.artifactsDir(tracked.sessionId);
    mkdirSync(artifacts, { recursive: true, mode: 0o700 });
    const workDir = info.Config.WorkingDir || tracked.workDir;
    const maxBytes = Number(info.Config.Labels?.[LABEL.artifactBytes]) || DEFAULT_ARTIFACTS_MB * 1024 * 1024;
    let copied: ArtifactCopy | undefined;
    try {
      const archive = (await engine.streams.getContainer(info.Id).getArchive({ path: workDir })) as unknown as Readable;
      copied = await copyArtifacts(archive, artifacts, { maxBytes, maxEntries: MAX_ARTIFACT_ENTRIES });
      if (copied.truncated) console.warn(`session ${tracked.sessionId}: artifacts ${copied.truncated}`);
    } catch {
      // No working directory: no artifacts.
    }
    // Copied out (within the cap): the working directory's filesystem is not kept twice.
    if (engine.local) await removeWorkFilesystem(dir);
    const network = info.HostConfig.NetworkMode;
    if (network?.startsWith(BRIDGE_PREFIX)) await removeSessionNetwork(engine.api, network, info.Id);
    const finished = Date.parse(info.State.FinishedAt);
    const at = Number.isFinite(finished) && finished > 0 ? finished : this.options.now();
    const exitCode = info.State.ExitCode;
    const oomKilled = info.State.OOMKilled;
    writeFileSync(join(dir, 'end.json'), JSON.stringify({ exitCode, oomKilled, at, containerId: info.Id, nodeId: tracked.nodeId, artifacts: copied, workDir }));
    this.tracked.delete(tracked.sessionId);
    // An OOM kill is a SIGKILL: exit code 137, end reason `crashed` (the logs say why).
    this.emit({ type: 'exited', sessionId: tracked.sessionId, at, exitCode, signal: oomKilled ? 'SIGKILL' : null });
  }

  private lose(tracked: Tracked): void {
    this.tracked.delete(tracked.sessionId);
    this.emit({ type: 'lost', sessionId: tracked.sessionId, at: this.options.now() });
  }

  private markDown(engine: Engine): void {
    engine.available = false;
    for (const tracked of this.tracked.values()) {
      if (tracked.nodeId !== engine.nodeId || tracked.unreachable || tracked.phase === 'ending') continue;
      tracked.unreachable = true;
      if (!tracked.forgotten) this.emit({ type: 'unreachable', sessionId: tracked.sessionId, at: this.options.now() });
    }
  }

  /** Remove containers and artifacts of sessions that ended more than retentionHours ago. */
  private async collectGarbage(): Promise<void> {
    const cutoff = this.options.now() - this.options.retentionHours * 3600_000;
    for (const engine of this.engines.values()) {
      let list: Docker.ContainerInfo[];
      try {
        list = await engine.api.listContainers({ all: true, filters: { label: [`${LABEL.instance}=${this.instance}`], status: ['exited', 'dead'] } });
      } catch {
        continue;
      }
      for (const c of list) {
        const sessionId = c.Labels[LABEL.session]!;
        if (this.tracked.has(sessionId)) continue;
        const end = this.readEnd(sessionId);
        let endedAt = end?.at;
        if (endedAt === undefined) {
          const info = await engine.api.getContainer(c.Id).inspect().catch(() => undefined);
          endedAt = info ? Date.parse(info.State.FinishedAt) : undefined;
        }
        if (endedAt === undefined || endedAt > cutoff) continue;
        await engine.api.getContainer(c.Id).remove({ v: true }).catch(() => {});
        await this.removeSessionDir(sessionId);
      }
    }
    await this.removeStrayNetworks();
    // Artifacts whose container is already gone.
    const sessions = join(this.options.dataDir, 'docker', 'sessions');
    if (!existsSync(sessions)) return;
    for (const name of readdirSync(sessions)) {
      const dir = join(sessions, name);
      const end = this.readEnd(decodeURIComponent(name));
      const at = end?.at ?? statSync(dir).mtimeMs;
      if (at <= cutoff && !this.tracked.has(decodeURIComponent(name))) await this.removeSessionDir(decodeURIComponent(name));
    }
  }

  /** A session's directory: its artifacts, and its working directory's filesystem if still there. */
  private async removeSessionDir(sessionId: string): Promise<void> {
    const dir = this.sessionDir(sessionId);
    if (await removeWorkFilesystem(dir)) rmSync(dir, { recursive: true, force: true });
  }

  /** Session networks nothing uses any more (a start interrupted between network and container). */
  private async removeStrayNetworks(): Promise<void> {
    for (const engine of this.engines.values()) {
      const networks = await engine.api.listNetworks({ filters: { label: [`${LABEL.instance}=${this.instance}`] } }).catch(() => []);
      for (const network of networks) {
        if (this.tracked.has(network.Labels?.[LABEL.session] ?? '')) continue;
        // Refused while a container is attached: a live session keeps its network.
        await engine.api.getNetwork(network.Id).remove().catch(() => {});
      }
    }
  }

  private emit(event: RuntimeEvent) {
    // Work in flight when the service closed reports nothing: the next start adopts the session.
    if (this.closed) return;
    for (const listener of this.listeners) listener(event);
  }
}

function sleep(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function canConnect(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, host);
    socket.setTimeout(1000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}
