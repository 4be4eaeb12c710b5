/**
 * The sessions this runtime watches, brought in line with what their engines say: a container
 * that runs is `running` (once ready), one that restarts is `restarting`, one that ended is
 * finished (exit recorded, artifacts copied out, network removed), one that is gone is `lost`.
 * An engine that stops answering makes its sessions `unreachable` (node-health.ts decides when);
 * when it answers again they are reconciled the same way. Sessions of a node taken as lost are
 * abandoned: if the node comes back after all, their containers are removed.
 */
import type Docker from 'dockerode';
import { mkdirSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { dirname } from 'node:path';
import type { Readable } from 'node:stream';
import type { PortAllocation } from '../../domain/ports/sessions.js';
import type { RuntimeEvent } from '../../domain/ports/runtime.js';
import { copyArtifacts, type ArtifactCopy } from './artifact-copy.js';
import { onServiceClock } from './engine-clock.js';
import { LABEL, listContainers, statusOf, type Engine } from './engine-client.js';
import { withDeadline } from './node-health.js';
import { probeUntilReady } from './readiness.js';
import { BRIDGE_PREFIX, removeSessionNetwork } from './session-network.js';
import type { SessionFiles } from './session-files.js';
import { removeWorkFilesystem } from './work-filesystem.js';

export const DEFAULT_ARTIFACTS_MB = 256;
const MAX_ARTIFACT_ENTRIES = 10_000;

/**
 * The engine calls made without the short request timeout still end: an engine that takes a
 * stop or an archive request and never answers must not hold a session's end forever.
 */
export interface EngineDeadlines {
  /** A stop's answer may come this long after the grace period (SIGKILL, the container's exit). */
  stopSlackMs: number;
  /** A whole archive copy (256 MiB, the default cap, at 2 MiB/s). */
  archiveMs: number;
}

export const ENGINE_DEADLINES: EngineDeadlines = { stopSlackMs: 15_000, archiveMs: 120_000 };

/**
 * A stop the engine did not carry out is followed by this many kills, the first at once, each
 * next one twice as long after the last (from KILL_BACKOFF_MS): a container held up for a moment
 * (its process in uninterruptible I/O) still ends as `exited` rather than `lost`.
 */
const KILL_ATTEMPTS = 3;
const KILL_BACKOFF_MS = 1000;
/** After an end whose container could not be inspected, how long until it is looked at again. */
const REFINISH_MS = 1000;

export interface Tracked {
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
  /** Ended while unreachable (or while its image was pulled): stop it once the engine is back. */
  forgotten: boolean;
  /**
   * Being created and started (launchContainer): the engine's events about its container are the
   * launch's to handle. A start the engine refused removes the container it created, and the
   * removal's event, looked at meanwhile, made the session `lost` (ended `node_lost`, as if its
   * node had died) before the launch could end it `start_failed`.
   */
  launching?: boolean;
  /** Its image is being pulled: no container yet. */
  pulling?: boolean;
  /** Handed to another instance while its image was pulled: let go once launched. */
  released?: boolean;
  /** For a released start: whether its session is still live once launched (else it is stopped here). */
  stillLive?: () => Promise<boolean>;
  /** The end being recorded (finish under way). */
  finishing?: Promise<void>;
  restartCount?: number;
  /** How it becomes `running`: its declared ports bound (default), or its game server's `POST /ready` on its SDK. */
  readiness?: 'ports' | 'sdk';
  /** The container start (StartedAt) whose game server last said ready through its SDK. */
  sdkReadyFor?: string;
}

export interface ReconcilerOptions {
  engines: ReadonlyMap<string, Engine>;
  files: SessionFiles;
  instance: string;
  graceMs: number;
  now: () => number;
  emit: (event: RuntimeEvent) => void;
  closed: () => boolean;
  /** A request to the engine failed: its heartbeat checks it now. */
  engineFailed: (engine: Engine) => void;
  deadlines: EngineDeadlines;
  /** The session is no longer watched here because it ended or is lost: its SDK goes (container-sdk.ts). */
  gone: (sessionId: string) => void;
}

export class Reconciler {
  readonly tracked = new Map<string, Tracked>();
  /** Sessions ended `node_lost`: whatever their node still runs of them is removed when it is back. */
  private readonly abandoned = new Map<string, string>();

  constructor(private readonly options: ReconcilerOptions) {}

  engine(nodeId: string): Engine {
    const engine = this.options.engines.get(nodeId);
    if (!engine) throw new Error(`node ${nodeId} has no docker engine configured`);
    return engine;
  }

  /** One engine: what became of every session on it (after a (re)connection: nothing is known). */
  async resync(engine: Engine): Promise<void> {
    if (engine.polling || this.options.closed()) return;
    engine.polling = true;
    try {
      let list: Docker.ContainerInfo[];
      try {
        list = await listContainers(engine, this.options.instance);
      } catch {
        this.options.engineFailed(engine);
        return;
      }
      const bySession = new Map(list.map((c) => [c.Labels[LABEL.session]!, c]));
      for (const tracked of [...this.tracked.values()]) {
        if (tracked.nodeId !== engine.nodeId || tracked.phase === 'ending' || tracked.launching) continue;
        const container = bySession.get(tracked.sessionId);
        if (!container) {
          // Not created yet (start in flight) or gone.
          if (tracked.containerId) this.lose(tracked);
          continue;
        }
        tracked.containerId = container.Id;
        await this.reconcile(engine, tracked, container);
      }
      // The list is the engine's whole truth: an abandoned session it does not show has nothing left.
      for (const [sessionId, nodeId] of [...this.abandoned]) {
        if (nodeId !== engine.nodeId) continue;
        this.abandoned.delete(sessionId);
        const container = bySession.get(sessionId);
        if (!container) continue;
        await engine.api.getContainer(container.Id).remove({ force: true, v: true }).catch(() => {});
        const network = container.HostConfig?.NetworkMode;
        if (network?.startsWith(BRIDGE_PREFIX)) await removeSessionNetwork(engine.api, network);
      }
    } finally {
      engine.polling = false;
    }
  }

  /**
   * One session, after an engine event about its container. Inspected, not listed: the list is
   * a view the engine updates after it reports the event, while inspect waits for the container.
   */
  async refresh(engine: Engine, sessionId: string): Promise<void> {
    const tracked = this.tracked.get(sessionId);
    if (!tracked?.containerId || tracked.launching || tracked.nodeId !== engine.nodeId || tracked.phase === 'ending' || this.options.closed()) return;
    let state: string;
    try {
      state = (await engine.api.getContainer(tracked.containerId).inspect()).State.Status;
    } catch (error) {
      if (statusOf(error) === 404) this.lose(tracked);
      else this.options.engineFailed(engine);
      return;
    }
    if (this.tracked.get(sessionId) === tracked) await this.reconcile(engine, tracked, { Id: tracked.containerId, State: state });
  }

  async reconcile(engine: Engine, tracked: Tracked, container: Pick<Docker.ContainerInfo, 'Id' | 'State'>): Promise<void> {
    const wasUnreachable = tracked.unreachable;
    tracked.unreachable = false;
    if (tracked.forgotten) {
      await this.stop(tracked);
      return;
    }
    switch (container.State) {
      case 'running': {
        if (tracked.restart && tracked.phase === 'running') {
          // A crash and restart between two polls shows only in the restart count.
          const info = await engine.api.getContainer(container.Id).inspect().catch(() => undefined);
          if (info && tracked.restartCount !== undefined && info.RestartCount > tracked.restartCount) {
            tracked.phase = 'restarting';
            this.emit('restarting', tracked);
          }
          if (info) tracked.restartCount = info.RestartCount;
        }
        if (tracked.phase === 'running') {
          if (wasUnreachable) this.emit('running', tracked);
          return;
        }
        void this.checkReady(tracked);
        return;
      }
      case 'restarting':
        if (tracked.phase === 'running') {
          tracked.phase = 'restarting';
          this.emit('restarting', tracked);
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

  /** Probe until every declared port is bound in the container (or see whether its SDK said ready), then report it running. */
  async checkReady(tracked: Tracked): Promise<void> {
    if (tracked.readiness === 'sdk') return this.checkSdkReady(tracked);
    if (tracked.checking) return;
    tracked.checking = true;
    const wanted = () => !this.options.closed() && this.tracked.get(tracked.sessionId) === tracked && tracked.phase !== 'ending';
    try {
      if (await probeUntilReady(this.engine(tracked.nodeId), tracked.containerId!, tracked, wanted)) {
        tracked.phase = 'running';
        this.emit('running', tracked);
      }
    } finally {
      tracked.checking = false;
    }
  }

  /**
   * Readiness `sdk`: running once the container's current start is the one whose game server
   * said ready (ContainerSdks tells it, and calls this again). Looked at once per call, no
   * polling: the ready comes as a call; a restart is seen by reconcile(), which calls this again.
   */
  private async checkSdkReady(tracked: Tracked): Promise<void> {
    if (!tracked.containerId) return;
    const info = await this.engine(tracked.nodeId).api.getContainer(tracked.containerId).inspect().catch(() => undefined);
    if (!info?.State.Running || this.options.closed() || this.tracked.get(tracked.sessionId) !== tracked) return;
    const start = info.State.StartedAt;
    // Checked after the await: two calls meeting here report it running once.
    if (tracked.phase === 'ending' || tracked.sdkReadyFor !== start || tracked.readyFor === start) return;
    tracked.readyFor = start;
    tracked.restartCount = info.RestartCount;
    tracked.phase = 'running';
    this.emit('running', tracked);
  }

  /** SIGTERM, the grace period, SIGKILL; then finish. An unavailable engine: once it is back. */
  async stop(tracked: Tracked): Promise<void> {
    const engine = this.engine(tracked.nodeId);
    if (!engine.available) {
      // The session goes unreachable; the stop is finished when the engine is back.
      tracked.forgotten = true;
      return;
    }
    const id = tracked.containerId ?? (await listContainers(engine, this.options.instance, tracked.sessionId))[0]?.Id;
    if (!id) {
      this.lose(tracked);
      return;
    }
    tracked.containerId = id;
    try {
      // The grace period can outlast the request timeout: the client without one, a deadline past the grace instead.
      const abortSignal = AbortSignal.timeout(this.options.graceMs + this.options.deadlines.stopSlackMs);
      await engine.streams.getContainer(id).stop({ t: Math.ceil(this.options.graceMs / 1000), abortSignal });
    } catch (error) {
      const status = statusOf(error);
      if (status === 404) return this.lose(tracked);
      // 304: already stopped. Anything else (no answer by the deadline, an engine error): kills.
      if (status !== 304 && !(await this.killWithRetries(engine, id))) return this.stuck(engine, tracked);
    }
    await this.finish(tracked);
  }

  /** Kills until one goes through, KILL_ATTEMPTS at most, backing off between them. */
  private async killWithRetries(engine: Engine, id: string): Promise<boolean> {
    for (let attempt = 1; ; attempt++) {
      if (await this.kill(engine, id)) return true;
      if (attempt === KILL_ATTEMPTS || this.options.closed()) return false;
      await sleep(KILL_BACKOFF_MS * 2 ** (attempt - 1));
    }
  }

  /** SIGKILL with a deadline of its own; true once the container is not running. */
  private async kill(engine: Engine, id: string): Promise<boolean> {
    try {
      await engine.streams.getContainer(id).kill({ abortSignal: AbortSignal.timeout(this.options.deadlines.stopSlackMs) });
      return true;
    } catch (error) {
      // 404: gone; 409: not running. Both are what the kill was for.
      const status = statusOf(error);
      return status === 404 || status === 409;
    }
  }

  /**
   * Neither the stop nor the kills went through. An engine that is away: its heartbeat checks it,
   * and the resync on its return finishes the stop. An engine that answers but cannot end the
   * container (stuck in uninterruptible I/O): the session is lost rather than left shutting down
   * and charged forever, and the container is removed whenever the engine lists it again.
   */
  private async stuck(engine: Engine, tracked: Tracked): Promise<void> {
    try {
      await withDeadline(engine.api.ping(), this.options.deadlines.stopSlackMs);
    } catch {
      tracked.forgotten = true;
      return this.options.engineFailed(engine);
    }
    this.abandoned.set(tracked.sessionId, tracked.nodeId);
    this.lose(tracked);
  }

  /**
   * The container ended: record the exit, copy the artifacts out, report it. Called again while
   * under way (a stop and the engine's exit event meet), it resolves when the first call is done.
   */
  finish(tracked: Tracked): Promise<void> {
    if (!tracked.finishing) tracked.finishing = this.finishOnce(tracked).finally(() => (tracked.finishing = undefined));
    return tracked.finishing;
  }

  private async finishOnce(tracked: Tracked): Promise<void> {
    if (tracked.phase === 'ending') return;
    tracked.phase = 'ending';
    const engine = this.engine(tracked.nodeId);
    const { files } = this.options;
    let info: Docker.ContainerInspectInfo;
    try {
      info = await engine.api.getContainer(tracked.containerId!).inspect();
    } catch {
      // Not answered: the end is looked for again shortly (the exit event, if it came meanwhile,
      // was passed over while this finish was under way), and the engine is checked.
      tracked.phase = 'starting';
      this.options.engineFailed(engine);
      setTimeout(() => void this.refresh(engine, tracked.sessionId), REFINISH_MS).unref();
      return;
    }
    const artifacts = files.artifacts(tracked.sessionId);
    try {
      mkdirSync(artifacts, { recursive: true, mode: 0o700 });
    } catch {
      // A full data disk: no artifacts (the copy below fails too); the end is reported all the same.
    }
    const workDir = info.Config.WorkingDir || tracked.workDir;
    const maxBytes = Number(info.Config.Labels?.[LABEL.artifactBytes]) || DEFAULT_ARTIFACTS_MB * 1024 * 1024;
    let copied: ArtifactCopy | undefined;
    // Aborts the request and the archive stream with it: what was copied by then stays.
    const abortSignal = AbortSignal.timeout(this.options.deadlines.archiveMs);
    try {
      const archive = (await engine.streams.getContainer(info.Id).getArchive({ path: workDir, abortSignal })) as unknown as Readable;
      copied = await copyArtifacts(archive, artifacts, { maxBytes, maxEntries: MAX_ARTIFACT_ENTRIES });
    } catch {
      // No working directory: no artifacts. No archive by the deadline: the end says so.
      if (abortSignal.aborted) copied = { bytes: 0, entries: 0, truncated: `not copied: no archive from the engine within ${this.options.deadlines.archiveMs} ms` };
    }
    if (copied?.truncated) console.warn(`session ${tracked.sessionId}: artifacts ${copied.truncated}`);
    // Copied out (within the cap): the working directory's filesystem is not kept twice. Found
    // through the container's mount: another instance (one since dead) may have launched it.
    const work = info.Mounts.find((mount) => mount.Type === 'bind' && mount.Destination === workDir);
    if (engine.local && work) await removeWorkFilesystem(dirname(work.Source));
    const network = info.HostConfig.NetworkMode;
    if (network?.startsWith(BRIDGE_PREFIX)) await removeSessionNetwork(engine.api, network, info.Id);
    // The engine's time of the end, on the service's clock; never later than now (an end is seen after it).
    const finished = Date.parse(info.State.FinishedAt);
    const at = Math.min(Number.isFinite(finished) && finished > 0 ? await onServiceClock(engine, finished, this.options.now) : Infinity, this.options.now());
    const exitCode = info.State.ExitCode;
    const oomKilled = info.State.OOMKilled;
    try {
      files.writeEnd(tracked.sessionId, { exitCode, oomKilled, at, containerId: info.Id, nodeId: tracked.nodeId, artifacts: copied, workDir });
    } catch (error) {
      // A full data disk. Thrown, it left this session `ending` with its end never reported (every
      // later look returns at once): running, and charged, until a restart. Without end.json only
      // the log's OOM note and the artifacts' root are missing (retention reads the end from the engine or the directory).
      console.warn(`session ${tracked.sessionId}: its end could not be written to the data directory: ${(error as Error).message}`);
    }
    this.tracked.delete(tracked.sessionId);
    this.options.gone(tracked.sessionId);
    // An OOM kill is a SIGKILL: exit code 137, end reason `crashed` (the logs say why).
    this.options.emit({ type: 'exited', sessionId: tracked.sessionId, at, exitCode, signal: oomKilled ? 'SIGKILL' : null });
  }

  /**
   * A start that failed here may have left a container on the node after all: a create or start
   * the engine carried out but whose answer was lost with it, and a removal that could not reach
   * it. Left, it runs on for a session that ended, on host ports the store gives to the next one
   * (whose start then fails). Removed when the engine next lists it (its return).
   */
  abandon(sessionId: string, nodeId: string): void {
    this.abandoned.set(sessionId, nodeId);
  }

  lose(tracked: Tracked): void {
    this.tracked.delete(tracked.sessionId);
    this.options.gone(tracked.sessionId);
    this.emit('lost', tracked);
  }

  /** The engine does not answer: its sessions are unreachable until it does. */
  markDown(engine: Engine): void {
    for (const tracked of this.tracked.values()) {
      if (tracked.nodeId !== engine.nodeId || tracked.unreachable || tracked.phase === 'ending') continue;
      tracked.unreachable = true;
      if (!tracked.forgotten) this.emit('unreachable', tracked);
    }
  }

  /** The node is gone for good: its sessions are lost, and abandoned should it come back. */
  loseNode(engine: Engine): void {
    for (const tracked of [...this.tracked.values()]) {
      if (tracked.nodeId !== engine.nodeId) continue;
      this.abandoned.set(tracked.sessionId, tracked.nodeId);
      this.lose(tracked);
    }
  }

  private emit(type: 'running' | 'restarting' | 'lost' | 'unreachable', tracked: Tracked): void {
    this.options.emit({ type, sessionId: tracked.sessionId, at: this.options.now() });
  }
}
