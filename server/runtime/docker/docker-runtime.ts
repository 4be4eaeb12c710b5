/**
 * The Docker runtime: each session is a container on its node's Docker engine (dockerode, one
 * client per node). The engine is the source of truth: containers carry labels (session, account,
 * location, node, and their owner: this service's instance id, or with several instances the
 * deployment's), so after a service restart every session is found again by listing containers
 * by label. With several instances any of them can reach every engine, so nodes move between
 * them (server/cluster/node-supervision.ts): the holder of a node's lease watches its containers,
 * and the instance that takes a dead holder's lease over adopts them the same way.
 *
 * - Start: create + start with the session env, published ports (allocated host port -> declared
 *   container port; the game server binds the container port, `PORT_<NAME>`), limits (memory
 *   without swap, CPUs, pids), no privileges (all capabilities dropped, no-new-privileges,
 *   read-only root filesystem with a tmpfs /tmp and a volume for the working directory).
 * - Running: every declared port is bound inside the container (readiness.ts), or with the tag's
 *   readiness `sdk`, its game server said ready through its SDK.
 * - The game-server SDK, on engines of this machine: served by the service for each container on
 *   a socket bind-mounted into it (container-sdk.ts); a game server that said ready and then misses
 *   its health pings (`healthSeconds`) is killed as a crash (restarted when the session asked).
 * - Crashes restart through the engine's restart policy (`on-failure`, never after a stop).
 * - Stop: `container.stop({t: grace})` (SIGTERM, grace, SIGKILL); the exit code and OOM kill
 *   come from inspect. At the end the working directory is copied out of the container (the
 *   engine's archive API) into <dataDir>/docker/<session>/artifacts, the artifact root. The stop
 *   (grace + 15 s) and the copy (2 minutes) have deadlines: an engine that never answers them
 *   does not hold the session's end (a stop is followed by up to three kills, backing off, then
 *   the session is lost if the engine answers; the end records "not copied").
 * - An engine that stops answering makes its node unavailable and its sessions `unreachable`;
 *   when it answers again they are reconciled (running, ended, or lost): reconciler.ts.
 * - Retention: ended sessions' containers (their logs) and copied artifacts are removed
 *   `retentionHours` after the end (default 24): garbage-collection.ts.
 */
import type Docker from 'dockerode';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { NodeDockerConfig } from '../../config/fleet-types.js';
import type { AdoptSpec, LaunchSpec, NodeHealth, Runtime, RuntimeEvent, WarmAllocation } from '../../domain/ports/runtime.js';
import { containerUid, launchContainer, type ContainerSdkMount } from './container-launch.js';
import { ContainerSdks } from './container-sdk.js';
import { openContainerLogs, type LogOptions } from './container-logs.js';
import { listContainers, openEngine, statusOf, type Engine } from './engine-client.js';
import { followEngineEvents, type EventFollower } from './engine-events.js';
import { collectGarbage } from './garbage-collection.js';
import { namesRegistry, pullImage } from './image-pull.js';
import { healthOf, NodeHeartbeat } from './node-health.js';
import { ENGINE_DEADLINES, Reconciler, type EngineDeadlines, type Tracked } from './reconciler.js';
import { SessionFiles } from './session-files.js';

const GC_EVERY_MS = 10 * 60_000;
const HEARTBEAT_MS = 1000;

export interface DockerRuntimeOptions {
  /** Where the runtime keeps each session's copied artifacts. */
  dataDir: string;
  nodes: { id: string; docker: NodeDockerConfig }[];
  graceMs: number;
  retentionHours: number;
  now: () => number;
  /**
   * Whose containers these are (their instance label): the data directory's instance id
   * (server/instance.ts), or with several instances the deployment's, so any of them adopts them.
   */
  owner: string;
  /** A node silent this long is gone for good: its sessions end `node_lost`. */
  nodeLostAfterMs: number;
  /** A registry pull that takes longer fails the start. */
  pullTimeoutMs: number;
  /** Some tag says ready through the SDK, or pings its health: local engines must serve it (the data directory's path must fit). */
  sdkNeeded?: boolean;
  heartbeatMs?: number;
  /** How long a stop or an archive copy may wait for the engine (ENGINE_DEADLINES unless given). */
  deadlines?: EngineDeadlines;
}

export class DockerRuntime implements Runtime {
  readonly name = 'docker';
  /** Engines are reached over a socket or the network: any instance can supervise a node. */
  readonly nodesMove = true;
  /**
   * A warm game server's SDK is served by the instance that launched it, and a node's containers
   * move to another instance with the node: with several instances, no warm pools (service.ts).
   */
  readonly warmNeedsOneInstance = true;
  private readonly listeners: ((event: RuntimeEvent) => void)[] = [];
  private readonly engines = new Map<string, Engine>();
  private readonly files: SessionFiles;
  private readonly reconciler: Reconciler;
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly heartbeat: NodeHeartbeat;
  private readonly followers = new Map<Engine, EventFollower>();
  private readonly instance: string;
  private readonly sdks: ContainerSdks;
  private readonly servesSdks: boolean;
  private closed = false;

  constructor(private readonly options: DockerRuntimeOptions) {
    mkdirSync(join(options.dataDir, 'docker'), { recursive: true, mode: 0o700 });
    this.instance = options.owner;
    this.files = new SessionFiles(options.dataDir);
    const sdkRoot = join(options.dataDir, 'docker', 'sdk');
    const local = options.nodes.some((node) => node.docker.engine.startsWith('unix://'));
    if (local && options.sdkNeeded) ContainerSdks.checkRoot(sdkRoot);
    // Otherwise served where the path fits (a game server may read its allocation), and a data
    // directory too long for a socket serves none rather than refusing to start.
    this.servesSdks = local && ContainerSdks.fits(sdkRoot);
    this.sdks = new ContainerSdks(sdkRoot, {
      // A fault here is logged, never the service's end: the session is reconciled by the engine's events all the same.
      ready: (sessionId) => void this.sdkSaidReady(sessionId).catch((error: Error) => console.warn(`session ${sessionId}: its SDK's ready not applied: ${error.message}`)),
      missedHealth: (sessionId) => void this.killHung(sessionId).catch((error: Error) => console.warn(`session ${sessionId}: not killed after its missed health: ${error.message}`)),
      watched: (sessionId) => {
        const tracked = this.tracked.get(sessionId);
        return tracked?.phase === 'running' && !tracked.unreachable;
      },
    });
    for (const node of options.nodes) this.engines.set(node.id, openEngine(node.id, node.docker));
    this.reconciler = new Reconciler({
      engines: this.engines,
      files: this.files,
      instance: this.instance,
      graceMs: options.graceMs,
      now: options.now,
      emit: (event) => this.emit(event),
      closed: () => this.closed,
      engineFailed: (engine) => this.heartbeat.suspect(engine),
      deadlines: options.deadlines ?? ENGINE_DEADLINES,
      gone: (sessionId) => this.sdks.remove(sessionId),
    });
    this.heartbeat = new NodeHeartbeat([...this.engines.values()], {
      heartbeatMs: options.heartbeatMs ?? HEARTBEAT_MS,
      lostAfterMs: options.nodeLostAfterMs,
      now: options.now,
      down: (engine) => {
        this.unfollow(engine);
        this.reconciler.markDown(engine);
      },
      up: (engine) => this.follow(engine),
      lost: (engine) => this.reconciler.loseNode(engine),
    });
    const gc = setInterval(() => void this.collectGarbage(), GC_EVERY_MS);
    this.timers.push(gc);
    for (const timer of this.timers) timer.unref();
  }

  /** The engine's events drive the sessions' states; each (re)connection resyncs the node. */
  private follow(engine: Engine): void {
    this.unfollow(engine);
    this.followers.set(
      engine,
      followEngineEvents(engine, this.instance, {
        connected: () => void this.reconciler.resync(engine),
        container: (sessionId) => void this.reconciler.refresh(engine, sessionId),
      }),
    );
  }

  private unfollow(engine: Engine): void {
    this.followers.get(engine)?.stop();
    this.followers.delete(engine);
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

  nodeHealth(nodeId: string): NodeHealth | undefined {
    const engine = this.engines.get(nodeId);
    return engine && { status: healthOf(engine), lastSeen: engine.lastSeen ?? null };
  }

  /** Held by the engine, or (an image naming a registry) to be pulled at the start. */
  async hasImage(nodeId: string, image: string): Promise<boolean | undefined> {
    const engine = this.engines.get(nodeId);
    if (!engine) return undefined;
    const held = await this.holds(engine, image);
    return held === false && namesRegistry(image) ? true : held;
  }

  private async holds(engine: Engine, image: string): Promise<boolean | undefined> {
    try {
      await engine.api.getImage(image).inspect();
      return true;
    } catch (error) {
      if (statusOf(error) === 404) return false;
      this.heartbeat.suspect(engine);
      return undefined;
    }
  }

  async start(spec: LaunchSpec): Promise<void> {
    const engine = this.reconciler.engine(spec.nodeId);
    if (!spec.container) throw new Error(`session ${spec.sessionId}: the docker runtime needs a container image`);
    if (spec.warm && !this.canWarm(spec.nodeId)) throw new Error(`warm game server ${spec.sessionId}: node ${spec.nodeId}'s engine is not on this machine, so its SDK cannot be served`);
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
      readiness: spec.sdk.readiness,
    };
    this.tracked.set(spec.sessionId, tracked);
    const launch = async () => {
      tracked.launching = true;
      try {
        // The SDK first: its socket is there, and the game server's, before the game server starts.
        const sdk: ContainerSdkMount | undefined = engine.local && this.servesSdks ? await this.serveSdk(spec) : undefined;
        await launchContainer(engine, spec, tracked, this.instance, this.files, sdk);
      } catch (error) {
        this.tracked.delete(spec.sessionId);
        this.sdks.remove(spec.sessionId);
        this.reconciler.abandon(spec.sessionId, spec.nodeId);
        throw error;
      } finally {
        tracked.launching = false;
      }
      // The engine's events during the launch were left to it: the container as it is now (running: its readiness; ended already: its end).
      void this.reconciler.refresh(engine, spec.sessionId);
    };
    if (!namesRegistry(spec.container.image) || (await this.holds(engine, spec.container.image)) !== false) {
      // The session ends start_failed without a word to its caller (the 201 went out): the log says why.
      return launch().catch((error: Error) => {
        console.warn(`session ${spec.sessionId}: not started on node ${spec.nodeId}: ${error.message}`);
        throw error;
      });
    }
    // Pulled first, after the 201: a failed pull or launch is an end before running (`start_failed`).
    tracked.pulling = true;
    void (async () => {
      try {
        await pullImage(engine, spec.container!.image, this.options.pullTimeoutMs);
        tracked.pulling = false;
        if (tracked.forgotten) throw new Error('stopped while its image was pulled');
        await launch();
        if (tracked.released) await this.letGo(tracked);
      } catch (error) {
        console.warn(`session ${spec.sessionId}: not started on node ${spec.nodeId}: ${(error as Error).message}`);
        this.tracked.delete(spec.sessionId);
        this.sdks.remove(spec.sessionId);
        this.emit({ type: 'exited', sessionId: spec.sessionId, at: this.options.now(), exitCode: null, signal: null });
      }
    })();
  }

  async stop(sessionId: string): Promise<void> {
    const tracked = this.tracked.get(sessionId);
    // A stop during the pull: the launch is called off (and reported as the end).
    if (tracked?.pulling) tracked.forgotten = true;
    else if (tracked) await this.reconciler.stop(tracked);
  }

  supervises(sessionId: string): boolean {
    return this.tracked.has(sessionId);
  }

  /**
   * Another instance watches the session's node now. One whose image is still being pulled has
   * no container for it to find: it is let go once launched (a stop meanwhile still reaches it here).
   */
  release(sessionId: string, live?: () => Promise<boolean>): void {
    const tracked = this.tracked.get(sessionId);
    if (tracked?.pulling) {
      tracked.released = true;
      tracked.stillLive = live;
    } else {
      this.tracked.delete(sessionId);
      // Its socket stays: the instance that watches it now serves it again.
      this.sdks.close(sessionId);
    }
  }

  /**
   * A start released while its image was pulled, now launched. Its session may have ended
   * meanwhile (its start deadline, as the pull finished): the stop then went to whoever watched
   * it, maybe nobody, and no instance adopts an ended session, so its container would run on for
   * good, on host ports the store has freed. So the session is read again, and stopped here if it
   * has ended (review 4, finding 6); if it is live, the node's holder adopts it.
   */
  private async letGo(tracked: Tracked): Promise<void> {
    let live = true;
    try {
      live = (await tracked.stillLive?.()) ?? true;
    } catch (error) {
      console.warn(`session ${tracked.sessionId}: could not be read after its launch (${(error as Error).message}); left to its node's holder`);
    }
    if (!this.tracked.has(tracked.sessionId)) return;
    if (live) {
      this.tracked.delete(tracked.sessionId);
      this.sdks.close(tracked.sessionId);
    } else await this.reconciler.stop(tracked);
  }

  releaseNode(nodeId: string): void {
    for (const tracked of [...this.tracked.values()]) if (tracked.nodeId === nodeId) this.release(tracked.sessionId);
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
      this.heartbeat.suspect(engine);
      return;
    }
    if (!found) {
      // Not created yet: a start in flight on another instance (an image pull). Its holder's
      // next look adopts it once it is; should it never be, its start deadline ends the session.
      if (spec.launching) return void this.tracked.delete(spec.sessionId);
      return this.reconciler.lose(tracked);
    }
    tracked.containerId = found.Id;
    // Its SDK, served again where its container sees it (an engine of this machine).
    if (engine.local && (await this.sdks.serveAdopted(spec.sessionId, found.Mounts, spec.wasRunning))) {
      tracked.readiness = this.sdks.readiness(spec.sessionId);
    }
    if (this.tracked.get(spec.sessionId) !== tracked) return this.sdks.close(spec.sessionId);
    await this.reconciler.reconcile(engine, tracked, found);
  }

  /** Warm game servers run where this service serves their SDK: on engines of this machine (a unix socket's bind mount). */
  canWarm(nodeId: string): boolean {
    return this.servesSdks && this.engines.get(nodeId)?.local === true;
  }

  /**
   * A warm game server's session, through the SDK this service serves it: resolved once its SDK
   * answers with it (a long-poll waiting for it is answered now). A start that asked for restarts
   * sets the container's restart policy first (it was launched with none), so a crash right after
   * the handoff restarts it.
   */
  async allocate(sessionId: string, allocation: WarmAllocation): Promise<void> {
    const tracked = this.tracked.get(sessionId);
    if (!tracked?.containerId) throw new Error(`session ${sessionId}: no container of this service's to hand the session to`);
    if (allocation.restart) {
      await this.reconciler.engine(tracked.nodeId).api.getContainer(tracked.containerId).update({ RestartPolicy: { Name: 'on-failure', MaximumRetryCount: 0 } });
      tracked.restart = true;
    }
    this.sdks.allocate(sessionId, allocation);
  }

  /** Whether this adopted warm game server still waits for its session (the service died between a claim and its handoff). */
  awaitsAllocation(sessionId: string): boolean {
    return this.tracked.has(sessionId) && this.sdks.awaitsAllocation(sessionId);
  }

  /** The players the control API joined: the game server's SDK allocation follows. */
  playersChanged(sessionId: string, players: readonly string[]): void {
    this.sdks.setPlayers(sessionId, players);
  }

  /**
   * The session's SDK, served before its container starts. A tag that needs it (readiness `sdk`,
   * health pings) fails its start without it; for any other, a socket that could not be made
   * (a full disk) is logged and the game server runs without one.
   */
  private async serveSdk(spec: LaunchSpec): Promise<ContainerSdkMount | undefined> {
    try {
      return await this.sdks.serveNew(spec, containerUid(spec));
    } catch (error) {
      if (spec.warm || spec.sdk.readiness === 'sdk' || spec.sdk.healthSeconds !== undefined) throw error;
      this.sdks.remove(spec.sessionId);
      console.warn(`session ${spec.sessionId}: runs without its SDK: ${(error as Error).message}`);
      return undefined;
    }
  }

  /**
   * A game server said ready through its SDK. Which container start said it is what counts (a
   * restart between two looks at the engine must not pass for ready): the current one, looked
   * at now; its health is watched from here.
   */
  private async sdkSaidReady(sessionId: string): Promise<void> {
    const tracked = this.tracked.get(sessionId);
    const liveness = this.sdks.liveness(sessionId);
    if (!tracked?.containerId || !liveness) return;
    const info = await this.reconciler.engine(tracked.nodeId).api.getContainer(tracked.containerId).inspect().catch(() => undefined);
    if (!info?.State.Running || this.tracked.get(sessionId) !== tracked) return;
    if (tracked.sdkReadyFor !== info.State.StartedAt) {
      tracked.sdkReadyFor = info.State.StartedAt;
      liveness.relaunched();
    }
    liveness.ready();
    await this.reconciler.checkReady(tracked);
  }

  /**
   * A game server said ready and then missed its health pings: killed as a crash would be (exit
   * 137, restarted by the engine's restart policy when the session asked). The container's own
   * process gets the SIGKILL, from this machine: an engine's kill would count as a stop, and
   * the engine would not restart it. Only the start that said ready: a newer one says it anew.
   */
  private async killHung(sessionId: string): Promise<void> {
    const tracked = this.tracked.get(sessionId);
    if (!tracked?.containerId) return;
    const info = await this.reconciler.engine(tracked.nodeId).api.getContainer(tracked.containerId).inspect().catch(() => undefined);
    if (!info?.State.Running || !info.State.Pid) return;
    // Adopted while running: it said ready under the previous supervisor, at whichever start that was.
    if (tracked.sdkReadyFor !== undefined && tracked.sdkReadyFor !== info.State.StartedAt) return;
    const seconds = this.sdks.healthSeconds(sessionId);
    // The engine's pid is the host's: it names this container's process only when this service
    // sees the host's processes (not from a container of its own) and the pid was not reused
    // since. Its cgroup names the container either way, so nothing else is ever killed.
    if (!ownsPid(info.State.Pid, info.Id)) {
      console.warn(`session ${sessionId}: no health ping for ${seconds} s, but pid ${info.State.Pid} is not container ${info.Id.slice(0, 12)}'s here: not killed`);
      return;
    }
    console.warn(`session ${sessionId}: no health ping for ${seconds} s; its game server (container ${info.Id.slice(0, 12)}) is killed`);
    try {
      process.kill(info.State.Pid, 'SIGKILL');
    } catch (error) {
      // Gone meanwhile (ESRCH): its end is reported as any other.
      if ((error as NodeJS.ErrnoException).code !== 'ESRCH') console.warn(`session ${sessionId}: its game server was not killed: ${(error as Error).message}`);
    }
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
    this.heartbeat.stop();
    for (const engine of this.engines.values()) this.unfollow(engine);
    this.tracked.clear();
    this.sdks.closeAll();
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
      now: this.options.now,
    });
  }

  private emit(event: RuntimeEvent) {
    // Work in flight when the service closed reports nothing: the next start adopts the session.
    if (this.closed) return;
    for (const listener of this.listeners) listener(event);
  }
}

/** Whether `pid`, as this process sees it, runs in the cgroup of container `containerId` (its full id is in the cgroup's path). */
export function ownsPid(pid: number, containerId: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/cgroup`, 'utf8').includes(containerId);
  } catch {
    return false;
  }
}
