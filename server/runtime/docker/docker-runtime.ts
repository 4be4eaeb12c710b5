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
 * - Running: every declared port is bound inside the container (readiness.ts).
 * - Crashes restart through the engine's restart policy (`on-failure`, never after a stop).
 * - Stop: `container.stop({t: grace})` (SIGTERM, grace, SIGKILL); the exit code and OOM kill
 *   come from inspect. At the end the working directory is copied out of the container (the
 *   engine's archive API) into <dataDir>/docker/<session>/artifacts, the artifact root.
 * - An engine that stops answering makes its node unavailable and its sessions `unreachable`;
 *   when it answers again they are reconciled (running, ended, or lost): reconciler.ts.
 * - Retention: ended sessions' containers (their logs) and copied artifacts are removed
 *   `retentionHours` after the end (default 24): garbage-collection.ts.
 */
import Docker from 'dockerode';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { PortAllocation } from '../../domain/ports/sessions.js';
import type { NodeDockerConfig } from '../../config/fleet-types.js';
import type { AdoptSpec, LaunchSpec, Runtime, RuntimeEvent } from '../../domain/ports/runtime.js';
import { openContainerLogs, type LogOptions } from './container-logs.js';
import { LABEL, listContainers, openEngine, statusOf, type Engine } from './engine-client.js';
import { collectGarbage } from './garbage-collection.js';
import { DEFAULT_ARTIFACTS_MB, Reconciler, type Tracked } from './reconciler.js';
import { SessionFiles } from './session-files.js';
import { createSessionNetwork, removeSessionNetwork } from './session-network.js';
import { createWorkFilesystem, removeWorkFilesystem } from './work-filesystem.js';

const POLL_MS = 500;
const GC_EVERY_MS = 10 * 60_000;
/** `nobody`: a tag that names no user never runs its game server as root. */
const DEFAULT_USER = '65534:65534';
const DEFAULT_WORK_MB = 1024;

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

export class DockerRuntime implements Runtime {
  readonly name = 'docker';
  private readonly listeners: ((event: RuntimeEvent) => void)[] = [];
  private readonly engines = new Map<string, Engine>();
  private readonly files: SessionFiles;
  private readonly reconciler: Reconciler;
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly instance: string;
  private closed = false;

  constructor(private readonly options: DockerRuntimeOptions) {
    mkdirSync(join(options.dataDir, 'docker'), { recursive: true, mode: 0o700 });
    this.instance = options.instanceId;
    this.files = new SessionFiles(options.dataDir);
    for (const node of options.nodes) this.engines.set(node.id, openEngine(node.id, node.docker));
    this.reconciler = new Reconciler({
      engines: this.engines,
      files: this.files,
      instance: this.instance,
      graceMs: options.graceMs,
      now: options.now,
      emit: (event) => this.emit(event),
      closed: () => this.closed,
    });
    const poll = setInterval(() => {
      for (const engine of this.engines.values()) void this.reconciler.poll(engine);
    }, POLL_MS);
    const gc = setInterval(() => void this.collectGarbage(), GC_EVERY_MS);
    this.timers.push(poll, gc);
    for (const timer of this.timers) timer.unref();
  }

  private get tracked(): Map<string, Tracked> {
    return this.reconciler.tracked;
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
      if (statusOf(error) === 404) return false;
      this.reconciler.markDown(engine);
      return undefined;
    }
  }

  async start(spec: LaunchSpec): Promise<void> {
    const engine = this.reconciler.engine(spec.nodeId);
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
    const sessionDir = this.files.dir(spec.sessionId);
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
    void this.reconciler.checkReady(tracked);
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
    if (tracked) await this.reconciler.stop(tracked);
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
    if (!engine) return this.reconciler.lose(tracked);
    let found: Docker.ContainerInfo | undefined;
    try {
      [found] = await listContainers(engine, this.instance, spec.sessionId);
    } catch {
      this.reconciler.markDown(engine);
      return;
    }
    if (!found) return this.reconciler.lose(tracked);
    tracked.containerId = found.Id;
    await this.reconciler.reconcile(engine, tracked, found);
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
      const end = this.files.readEnd(sessionId);
      if (end?.oomKilled && !out.destroyed) {
        out.write(`session-host: the container was killed for exceeding its memory limit (OOMKilled, exit code ${end.exitCode})\n`);
      }
      out.end();
    })().catch(() => out.end());
    return out;
  }

  artifactRoot(sessionId: string): string | undefined {
    const dir = this.files.artifacts(sessionId);
    return existsSync(dir) ? dir : undefined;
  }

  /** Inside the container the artifacts were the working directory (`/work` unless the tag says otherwise). */
  artifactViewRoot(sessionId: string): string | undefined {
    return this.files.readEnd(sessionId)?.workDir;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearInterval(timer);
    this.tracked.clear();
  }

  /** The engine and container of a session, live or ended (until removed). */
  private async locate(sessionId: string): Promise<{ engine: Engine; containerId: string } | undefined> {
    const tracked = this.tracked.get(sessionId);
    if (tracked?.containerId) return { engine: this.reconciler.engine(tracked.nodeId), containerId: tracked.containerId };
    for (const engine of this.engines.values()) {
      try {
        const [found] = await listContainers(engine, this.instance, sessionId);
        if (found) return { engine, containerId: found.Id };
      } catch {
        // Unreachable: try the others.
      }
    }
    return undefined;
  }

  private collectGarbage(): Promise<void> {
    return collectGarbage({
      engines: this.engines.values(),
      files: this.files,
      instance: this.instance,
      isLive: (sessionId) => this.tracked.has(sessionId),
      cutoff: this.options.now() - this.options.retentionHours * 3600_000,
    });
  }

  private emit(event: RuntimeEvent) {
    // Work in flight when the service closed reports nothing: the next start adopts the session.
    if (this.closed) return;
    for (const listener of this.listeners) listener(event);
  }
}
