/**
 * The process runtime: each session is a game server owned by a small supervisor process
 * (supervisor.mjs) in its own session directory: `work/` (its working directory and artifact
 * root), `output.log` (stdout and stderr), `state.json` (written by the supervisor). The
 * supervisor outlives the service, so after a restart the service adopts the session by
 * watching state.json again; PID reuse is guarded by comparing process start times.
 */
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, watch, writeFileSync, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import type { AdoptSpec, LaunchSpec, PreparedAllocation, Runtime, RuntimeEvent, WarmAllocation } from '../../domain/ports/runtime.js';
import { followFile } from '../follow-file.js';
import { heldAmong } from '../port-probe.js';
import { boundPorts } from '../socket-table.mjs';
import { isAlive, isSameProcess, isSameProcessIfKnown } from './proc.js';
import { execCommand, exportable, gameCommand } from './launcher.mjs';
import { dismiss as dismissSpare, killSpare, SpareSupervisor, type ProcessIdentity } from './spare-supervisor.js';
import { DEFAULT_RETENTION_MB, RetainedSessions } from './retention.js';
import { setSessionGroupNice } from './session-priority.js';
import { StartFailures, type StartFailureOptions } from './start-failures.js';
import { WindowedWrites } from '../windowed-writes.js';
import { connectAhead, handOver } from './warm-handoff.mjs';
import type { PreparedSandbox, Sandboxes } from './sandboxes.js';
import { allocationOf, SDK_SOCKET, SDK_SOCKET_IN_SESSION } from '../sdk-endpoint.js';

const SUPERVISOR = join(import.meta.dirname, 'supervisor.mjs');
/**
 * A warm game server is background work until a start claims it: its session's scheduling group
 * (session-priority.ts) runs at this nice from its launch (so its start, and whatever it does while
 * it waits, yields to claims and cold starts) and is set back to 0 at its handoff. 10, not a
 * spare's 19: a spare is set back when a start needs it, but a pool is only refilled by its
 * servers' own starts, which at 19 would take ~1.5% of a core on a host kept busy (weight 110
 * against 1024 at 10: a Node game server's ~80 ms start then takes about a second, not five).
 */
const WARM_NICE = 10;

/** Where a warm game server's supervisor takes its session (warm-handoff.mjs). */
const HANDOFF_SOCKET = 'handoff.sock';
const LIVENESS_POLL_MS = 1000;
const FIRST_STATE_TIMEOUT_MS = 10_000;
/**
 * How long past the grace period a supervisor told to stop may take to write its end (it kills
 * the game at the grace period, then tidies up) before it is taken for hung and killed.
 */
export const STOP_OVERRUN_MS = 10_000;
const MAX_PURGE_EVERY_MS = 10 * 60_000;
/** Removing a session's cgroups after a failure: tries, and the pause between them (the supervisor's are the same). */
const CGROUP_REMOVE_TRIES = 20;
const CGROUP_REMOVE_PAUSE_MS = 25;

interface SupervisorState {
  supervisorPid: number;
  supervisorStart: string;
  gamePid: number | null;
  gameStart: string | null;
  /** The session's own uid (sandboxed sessions). */
  uid?: number | null;
  phase: 'starting' | 'running' | 'restarting' | 'ended';
  /** The session's account (absent: from before it was recorded), for the retention's shares. */
  accountId?: string | null;
  /** The instance that started it (absent: from before instance ids, taken as ours). */
  instanceId?: string | null;
  /** When the game server first had its ports bound (kept through restarts and the end). */
  runningAt?: number;
  exitCode?: number | null;
  signal?: string | null;
  at: number;
}

/** A game server's process: its pid and start time (a pid alone may be another process's by now). */
interface GameProcess {
  pid: number | null;
  start: string | null;
}

const gameOf = (state: SupervisorState | undefined): GameProcess => ({ pid: state?.gamePid ?? null, start: state?.gameStart ?? null });

interface Watched {
  watcher: FSWatcher;
  lastPhase: SupervisorState['phase'] | undefined;
  supervisorPid: number;
  /** Told once its game server runs or the session ends: the next spare is spawned then. */
  started?: () => void;
}

export interface ProcessRuntimeOptions {
  /** Where session directories live. */
  sessionsDir: string;
  /** SIGTERM to SIGKILL. */
  graceMs: number;
  /** How long an ended session's directory (logs, artifacts) is kept. */
  retentionMs: number;
  /** How much disk ended sessions' directories may hold in all: the oldest go first beyond it (default DEFAULT_RETENTION_MB). */
  retentionBytes?: number;
  /** How many files and directories (inodes) they may hold in all, likewise (default DEFAULT_RETENTION_FILES). */
  retentionEntries?: number;
  /** Each game server in a sandbox of its own (sandbox.ts); undefined runs it as the service's user (isolation "none"). */
  sandboxes: Sandboxes | undefined;
  now: () => number;
  /** This data directory's instance id (server/instance.ts): supervisors carry it. */
  instanceId: string;
  /**
   * Other instances share the store (PostgreSQL): a live session this data directory knows
   * nothing of, or holds for another instance, is theirs to supervise, not lost.
   */
  shared?: boolean;
  /** Told each time a spare supervisor is spawned (tests: the order of spawning and handing over). */
  onSpareSpawned?: () => void;
  /** Where failed starts are logged, and reported when they found no space (start-failures.ts). */
  startFailures?: StartFailureOptions;
}

export class ProcessRuntime implements Runtime {
  readonly name = 'process';
  private readonly listeners: ((event: RuntimeEvent) => void)[] = [];
  private readonly watched = new Map<string, Watched>();
  /** Stops sent, by session: the supervisor is killed if its session has not ended by then (watchStop). */
  private readonly stopDeadlines = new Map<string, NodeJS.Timeout>();
  private readonly liveness: NodeJS.Timeout;
  private readonly retention: NodeJS.Timeout;
  private readonly retained: RetainedSessions;
  /** Starts being launched, so a stop waits for them. */
  private readonly starting = new Map<string, Promise<void>>();
  /**
   * Ready warm game servers' handoff sockets, connected before a start claims them (warm-handoff.mjs),
   * with their game server's process as it was then (set back from WARM_NICE when claimed).
   */
  private readonly handoffs = new Map<string, { ahead: ReturnType<typeof connectAhead>; game: GameProcess }>();
  /** A supervisor started ahead of need, waiting on stdin for its session. */
  private readonly spares: SpareSupervisor;
  private readonly startFailures: StartFailures;
  /** players.json, at most once a second per session (windowed-writes.ts). */
  private readonly players = new WindowedWrites<readonly string[]>((sessionId, players) => {
    const dir = this.dir(sessionId);
    try {
      writeFileSync(join(dir, 'players.json.tmp'), JSON.stringify(players), { mode: 0o600 });
      renameSync(join(dir, 'players.json.tmp'), join(dir, 'players.json'));
    } catch {
      // Not this runtime's session any more, or no space: the SDK keeps its last list.
    }
  });

  constructor(private readonly options: ProcessRuntimeOptions) {
    mkdirSync(options.sessionsDir, { recursive: true, mode: 0o700 });
    // Session uids pass through to their own work dirs; nobody else lists or reads anything here.
    if (options.sandboxes) chmodSync(options.sessionsDir, 0o711);
    this.liveness = setInterval(() => this.checkLiveness(), LIVENESS_POLL_MS);
    this.liveness.unref();
    this.retained = new RetainedSessions(options.sessionsDir, options.retentionBytes ?? DEFAULT_RETENTION_MB * 1024 * 1024, options.retentionEntries);
    this.retention = setInterval(() => this.purge(), Math.min(MAX_PURGE_EVERY_MS, Math.max(LIVENESS_POLL_MS, options.retentionMs / 2)));
    this.retention.unref();
    this.startFailures = new StartFailures(options.sessionsDir, options.startFailures ?? {});
    const { sandboxes } = options;
    this.spares = new SpareSupervisor(SUPERVISOR, options.instanceId, sandboxes && (() => sandboxes.spareCgroups()), options.onSpareSpawned);
  }

  onEvent(listener: (event: RuntimeEvent) => void): void {
    this.listeners.push(listener);
  }

  private dir(sessionId: string): string {
    return join(this.options.sessionsDir, sessionId);
  }

  async start(spec: LaunchSpec): Promise<void> {
    const launching = this.launch(spec);
    this.starting.set(spec.sessionId, launching);
    try {
      await launching;
    } catch (error) {
      this.options.sandboxes?.release(spec.sessionId);
      this.startFailures.failed(spec.sessionId, error);
      throw error;
    } finally {
      this.starting.delete(spec.sessionId);
    }
  }

  private async launch(spec: LaunchSpec): Promise<void> {
    const dir = this.dir(spec.sessionId);
    const work = join(dir, 'work');
    mkdirSync(work, { recursive: true, mode: 0o700 });
    // The SDK socket's directory: the service's (passable, not listable); the socket is the session uid's.
    const sdkDir = join(dir, 'sdk');
    mkdirSync(sdkDir, { recursive: true, mode: 0o711 });
    const { child: supervisor, cgroups: spareCgroups, launcher, launcherProcess } = await this.spares.take();
    let started!: () => void;
    this.spares.replenishAfter(new Promise<void>((resolve) => (started = resolve)));
    let sandbox: PreparedSandbox | undefined;
    try {
      sandbox = this.options.sandboxes?.prepare(spec, dir, work, sdkDir, spareCgroups);
    } catch (error) {
      // The taken spare has no session: told so, it ends with its launcher.
      dismissSpare(supervisor);
      started();
      throw error;
    }
    const sdkSocket = sandbox ? SDK_SOCKET_IN_SESSION : join(sdkDir, SDK_SOCKET);
    const env = { ...spec.env, SESSION_HOST_SDK: sdkSocket };
    // The game's command first, to the launcher when it is in the session's cgroups; it runs it on
    // the supervisor's go, once that has taken its session (launcher.mjs), and the supervisor reads
    // the same command for restarts. Otherwise (or when its shell cannot set the environment) the
    // launcher ends and the supervisor starts the game from a shell that joins them first.
    const launcherTold = (!sandbox || sandbox.launcherJoined) && exportable(env);
    launcher.end(launcherTold ? execCommand(gameCommand({ env, file: spec.file, args: spec.args, sandbox }, work)) : undefined);
    // The launcher execs the game on the supervisor's go: in its session, and so in its group.
    if (spec.warm && launcherTold) setSessionGroupNice(launcherProcess?.pid, WARM_NICE);
    await new Promise<void>((resolve, reject) => {
      // A spare that died meanwhile fails this start (EPIPE), not the service.
      supervisor.stdin.once('error', reject);
      supervisor.stdin.end(
        JSON.stringify({
          dir,
          spec: {
            accountId: spec.accountId,
            file: spec.file,
            args: spec.args,
            env,
            ports: spec.ports,
            restart: spec.restart,
            graceMs: this.options.graceMs,
            outputBytes: Math.round(spec.limits.outputMb * 1024 * 1024),
            outputBytesPerSecond: Math.ceil(spec.limits.outputMbPerSecond * 1024 * 1024),
            workDirBytes: Math.round(spec.limits.workDirMb * 1024 * 1024),
            workDirEntries: spec.limits.workDirFiles,
            sessionOpenFiles: spec.limits.sessionOpenFiles,
            sandbox,
            launcherTold,
            sdk: {
              // Relative to the session directory (the supervisor's working directory): a unix socket's path is short.
              socketPath: `sdk/${SDK_SOCKET}`,
              // Where it is bound first: in the session directory, which the game server does not see.
              bindDir: 'sdk-bind',
              readiness: spec.sdk.readiness,
              healthSeconds: spec.sdk.healthSeconds,
              // A warm one has no session yet: it learns it from allocate(), over this template.
              allocation: spec.warm ? null : allocationOf(spec),
              ...(spec.warm ? { warm: allocationOf(spec) } : {}),
            },
          },
          // One line: the supervisor reads it as soon as the newline arrives.
        }) + '\n',
        (error?: Error | null) => (error ? reject(error) : resolve()),
      );
    }).catch(async (error: unknown) => {
      // Its launcher never gets the go from a dead supervisor; ended all the same, with whatever is in the session's cgroups.
      killSpare(supervisor);
      killGroup(launcherProcess);
      await this.removeCgroups(spec.sessionId);
      started();
      throw error;
    });
    this.watch(spec.sessionId, supervisor.pid, undefined, started);
  }

  async stop(sessionId: string): Promise<void> {
    // A start still being launched finishes first, so a stop can never miss what it launches.
    await this.starting.get(sessionId)?.catch(() => {});
    // A supervisor just spawned has no SIGTERM handler until it writes its first state.
    const state = this.readState(sessionId) ?? (this.watched.has(sessionId) ? await this.firstState(sessionId) : undefined);
    if (state && !this.ours(state)) return this.emitForeign(sessionId);
    const pid = this.watched.get(sessionId)?.supervisorPid ?? state?.supervisorPid;
    if (pid !== undefined && (!state || isSameProcess(pid, state.supervisorStart))) {
      try {
        process.kill(pid, 'SIGTERM');
        this.watchStop(sessionId, pid, state?.supervisorStart);
        return;
      } catch {
        // It exited just now: its end is in state.json, or it is lost; the watcher tells which.
        return;
      }
    }
    // No supervisor to stop it gracefully: end the game server and report the session lost.
    this.endOrphan(sessionId, state);
    this.emit({ type: 'lost', sessionId, at: this.options.now() });
  }

  /**
   * A supervisor that has not ended its session by the grace period and STOP_OVERRUN_MS is hung
   * (SIGSTOP, a frozen cgroup): it is killed, and the liveness check ends the session as lost
   * with its game server. Without this the session stayed shuttingdown, its game running, for good.
   */
  private watchStop(sessionId: string, pid: number, start: string | undefined, afterMs = this.options.graceMs + STOP_OVERRUN_MS) {
    clearTimeout(this.stopDeadlines.get(sessionId));
    const deadline = setTimeout(() => {
      this.stopDeadlines.delete(sessionId);
      if (!this.watched.has(sessionId) || this.readState(sessionId)?.phase === 'ended') return;
      const same = start ? isSameProcessIfKnown(pid, start) : isAlive(pid);
      // Not known (its /proc entry unreadable: no file descriptor left) is not gone: looked at again, as the liveness check does.
      if (same === undefined) return this.watchStop(sessionId, pid, start, LIVENESS_POLL_MS);
      if (!same) return;
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Gone meanwhile: the liveness check tells.
      }
    }, afterMs);
    deadline.unref();
    this.stopDeadlines.set(sessionId, deadline);
  }

  async adopt(spec: AdoptSpec): Promise<void> {
    const state = this.readState(spec.sessionId);
    if (this.options.shared && (!state || !this.ours(state))) return;
    if (state && !this.ours(state)) return this.emitForeign(spec.sessionId);
    if (state?.phase === 'ended') {
      this.emitEnded(spec.sessionId, state, spec.wasRunning ? 'running' : undefined);
      return;
    }
    if (!state || !isSameProcess(state.supervisorPid, state.supervisorStart)) {
      this.endOrphan(spec.sessionId, state);
      this.emit({ type: 'lost', sessionId: spec.sessionId, at: this.options.now() });
      return;
    }
    this.options.sandboxes?.adopt(spec.sessionId, state.uid);
    this.watch(spec.sessionId, state.supervisorPid, spec.wasRunning ? 'running' : undefined);
  }

  /**
   * The players the API joined, for the game server's SDK allocation: players.json in the
   * session directory (the service's, not the game's), replaced atomically, at most once a
   * second (windowed-writes.ts); its supervisor watches it. Best effort: a full disk leaves the
   * SDK's list as it was.
   */
  playersChanged(sessionId: string, players: readonly string[]): void {
    this.players.changed(sessionId, players);
  }

  /** Its supervisor is watched here (sessions belong to the instance on their host: they never move). */
  supervises(sessionId: string): boolean {
    return this.watched.has(sessionId) || this.starting.has(sessionId);
  }

  /** A warm game server's session, through its supervisor (warm-handoff.mjs): resolved once its SDK has it. */
  allocate(sessionId: string, allocation: WarmAllocation): Promise<void> {
    return this.prepareAllocation(sessionId, allocation).allocate();
  }

  /**
   * Its allocation sent ahead of the claim's commit, on the connection made ahead: its supervisor
   * wakes and reads it while the claim commits, and applies it on allocate()'s `go`.
   */
  prepareAllocation(sessionId: string, allocation: WarmAllocation): PreparedAllocation {
    const ready = this.handoffs.get(sessionId);
    this.handoffs.delete(sessionId);
    const socketPath = join(this.dir(sessionId), HANDOFF_SOCKET);
    const prepared = ready ? ready.ahead.prepare(allocation) : { go: () => handOver(socketPath, allocation), abort() {} };
    return {
      allocate: async () => {
        const handing = prepared.go();
        // Claimed: no longer background work (WARM_NICE). Set while the `go` is on its way, before
        // the supervisor answers the game server's long-poll; one launched by an earlier run of the
        // service (no connection made ahead here) is found through its state.
        const { pid, start } = ready?.game ?? gameOf(this.readState(sessionId));
        if (pid && start && isSameProcess(pid, start)) setSessionGroupNice(pid, 0);
        await handing;
      },
      abort: () => {
        prepared.abort();
        // Not claimed after all: a later start hands it over on a connection made ahead again.
        if (ready && this.watched.has(sessionId)) this.handoffs.set(sessionId, { ...ready, ahead: connectAhead(socketPath) });
      },
    };
  }

  /** Its supervisor listens for a handoff while it has none (the socket goes once it is handed over). */
  awaitsAllocation(sessionId: string): boolean {
    return this.supervises(sessionId) && existsSync(join(this.dir(sessionId), HANDOFF_SOCKET));
  }

  /** Every node of this runtime is this host: the ports a start picked, bound for a moment (port-probe.ts). */
  heldAmong(host: string, ports: readonly number[]): Promise<ReadonlySet<number>> {
    return heldAmong(host, ports);
  }

  /** Every node of this runtime is this host: whatever its socket tables hold. */
  heldPorts(): ReadonlySet<number> {
    const bound = boundPorts('/proc/net');
    return bound ? new Set([...bound.tcp, ...bound.udp]) : new Set();
  }

  logs(sessionId: string, options: { follow: boolean; signal: AbortSignal; lastBytes?: number }) {
    const path = join(this.dir(sessionId), 'output.log');
    if (!existsSync(path)) return undefined;
    return followFile(path, { ...options, isDone: () => !this.watched.has(sessionId) });
  }

  artifactRoot(sessionId: string): string | undefined {
    const work = join(this.dir(sessionId), 'work');
    return existsSync(work) ? work : undefined;
  }

  async close(): Promise<void> {
    clearInterval(this.liveness);
    clearInterval(this.retention);
    // The players of the last second, for the game servers that outlive the service.
    this.players.flushAll();
    this.startFailures.close();
    this.spares.close();
    // Game servers outlive the service: while one runs, its egress table stays; with none left, it goes.
    this.options.sandboxes?.close({ gameServersLeft: this.starting.size > 0 || this.anyGameServerLeft() });
    for (const { watcher } of this.watched.values()) watcher.close();
    this.watched.clear();
    for (const deadline of this.stopDeadlines.values()) clearTimeout(deadline);
    this.stopDeadlines.clear();
    for (const { ahead } of this.handoffs.values()) ahead.close();
    this.handoffs.clear();
    await this.retained.close();
  }

  /** Ended sessions' directories past the retention. */
  private purge() {
    this.forgetPurged(this.retained.purge({
      before: this.options.now() - this.options.retentionMs,
      isLive: (id) => this.watched.has(id) || this.starting.has(id),
    }));
  }

  /** Once the retention removed them (off the event loop); a walk that failed is tried again at the next purge. */
  private forgetPurged(purging: Promise<readonly string[]>) {
    purging.then(
      (purged) => {
        for (const sessionId of purged) this.options.sandboxes?.removeLeftovers(sessionId);
      },
      () => {},
    );
  }

  private watch(sessionId: string, supervisorPid: number, lastPhase?: SupervisorState['phase'], started?: () => void) {
    const watcher = watch(this.dir(sessionId), (_event, file) => {
      if (file === 'state.json') this.refresh(sessionId);
    });
    this.watched.set(sessionId, { watcher, lastPhase, supervisorPid, started });
    // The supervisor may have written before the watch began.
    this.refresh(sessionId);
  }

  private ours(state: SupervisorState): boolean {
    return state.instanceId === undefined || state.instanceId === this.options.instanceId;
  }

  /**
   * A supervisor of another instance (this data directory is a copy): neither adopted nor
   * stopped, and its game server is left alone; here the session is lost.
   */
  private emitForeign(sessionId: string): void {
    this.emit({ type: 'lost', sessionId, at: this.options.now() });
  }

  private unwatch(sessionId: string) {
    this.handoffs.get(sessionId)?.ahead.close();
    this.handoffs.delete(sessionId);
    this.watched.get(sessionId)?.started?.();
    this.watched.get(sessionId)?.watcher.close();
    this.watched.delete(sessionId);
    clearTimeout(this.stopDeadlines.get(sessionId));
    this.stopDeadlines.delete(sessionId);
    this.options.sandboxes?.release(sessionId);
  }

  private refresh(sessionId: string) {
    const entry = this.watched.get(sessionId);
    const state = this.readState(sessionId);
    if (!entry || !state || state.phase === entry.lastPhase) return;
    const seen = entry.lastPhase;
    entry.lastPhase = state.phase;
    if (state.phase !== 'starting') entry.started?.();
    const at = this.serviceTime(state.at);
    if (state.phase === 'running') {
      // A warm one's handoff, connected now: a start that claims it writes its allocation and a `go`.
      if (existsSync(join(this.dir(sessionId), HANDOFF_SOCKET))) {
        this.handoffs.get(sessionId)?.ahead.close();
        this.handoffs.set(sessionId, { ahead: connectAhead(join(this.dir(sessionId), HANDOFF_SOCKET)), game: gameOf(state) });
      }
      this.emit({ type: 'running', sessionId, at });
    }
    else if (state.phase === 'restarting') this.emit({ type: 'restarting', sessionId, at });
    else if (state.phase === 'ended') this.emitEnded(sessionId, state, seen);
  }

  /** `seen`: the phase last reported for it; a run nobody saw is reported (running) before the end. */
  private emitEnded(sessionId: string, state: SupervisorState, seen: SupervisorState['phase'] | undefined) {
    this.unwatch(sessionId);
    // Its directory no longer grows: counted against the retention's disk budget now, not at the next purge.
    // (Retention orders directories by the wall clock, as it does their files' times.)
    this.forgetPurged(this.retained.sessionEnded(sessionId, state.at, state.accountId));
    const at = this.serviceTime(state.at);
    // It ran while nobody watched (the service was down): that it ran is part of the record.
    if (state.runningAt !== undefined && seen !== 'running') this.emit({ type: 'running', sessionId, at: this.serviceTime(state.runningAt) });
    this.emit({ type: 'exited', sessionId, at, exitCode: state.exitCode ?? null, signal: state.signal ?? null });
  }

  /**
   * A supervisor's time (its wall clock when it wrote the state) on the service's clock: its age,
   * read on the same wall clock now, before the service's now. A supervisor is a process of its
   * own, started after whatever step of the wall clock the service's steady clock (clock.ts) has
   * left out; its raw Date.now() charged such a step to the session (a 4 s session was charged a
   * day after a day's step). A time ahead of the wall clock (a step back since) is now.
   */
  private serviceTime(supervisorAt: number): number {
    return this.options.now() - Math.max(0, Date.now() - supervisorAt);
  }

  /** A supervisor that vanished without writing its end (killed) leaves a lost session. */
  private checkLiveness() {
    for (const [sessionId, entry] of this.watched) {
      const state = this.readState(sessionId);
      if (state?.phase === 'ended') {
        this.refresh(sessionId);
        continue;
      }
      // Not known (its /proc entry unreadable: no file descriptor left) is not gone: looked at again at the next poll.
      const alive = state ? (isSameProcessIfKnown(state.supervisorPid, state.supervisorStart) ?? true) : isAlive(entry.supervisorPid);
      if (alive) continue;
      this.unwatch(sessionId);
      this.endOrphan(sessionId, state);
      this.emit({ type: 'lost', sessionId, at: this.options.now() });
    }
  }

  /** A session without its supervisor: its game server's group ended, and whatever is left in its cgroups. */
  private endOrphan(sessionId: string, state: SupervisorState | undefined) {
    if (state?.gamePid && state.gameStart) killGroup({ pid: state.gamePid, start: state.gameStart });
    void this.removeCgroups(sessionId);
  }

  /** The session's cgroups and whatever is left in them, once they can go (a killed process takes a moment to die). */
  private async removeCgroups(sessionId: string): Promise<void> {
    const { sandboxes } = this.options;
    if (!sandboxes) return;
    for (let attempt = 0; attempt < CGROUP_REMOVE_TRIES && !sandboxes.removeLeftovers(sessionId); attempt++) {
      await new Promise((resolve) => setTimeout(resolve, CGROUP_REMOVE_PAUSE_MS));
    }
  }

  private async firstState(sessionId: string): Promise<SupervisorState | undefined> {
    // Monotonic: a wall clock stepped forward gave up on a supervisor at once.
    const deadline = performance.now() + FIRST_STATE_TIMEOUT_MS;
    while (performance.now() < deadline) {
      const state = this.readState(sessionId);
      if (state) return state;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return undefined;
  }

  /** Whether a supervisor or game server of any session directory still runs (any instance's: kept on the safe side). */
  private anyGameServerLeft(): boolean {
    let sessionIds: string[];
    try {
      sessionIds = readdirSync(this.options.sessionsDir);
    } catch {
      return false;
    }
    return sessionIds.some((sessionId) => {
      const state = this.readState(sessionId);
      if (!state || state.phase === 'ended') return false;
      const gameRuns = !!state.gamePid && !!state.gameStart && isSameProcess(state.gamePid, state.gameStart);
      return gameRuns || isSameProcess(state.supervisorPid, state.supervisorStart);
    });
  }

  private readState(sessionId: string): SupervisorState | undefined {
    try {
      return JSON.parse(readFileSync(join(this.dir(sessionId), 'state.json'), 'utf8')) as SupervisorState;
    } catch {
      return undefined;
    }
  }

  private emit(event: RuntimeEvent) {
    for (const listener of this.listeners) listener(event);
  }
}

/** A process group, by its leader, when that is still the same process: killed. */
function killGroup(leader: ProcessIdentity | undefined): void {
  if (!leader || !isSameProcess(leader.pid, leader.start)) return;
  try {
    process.kill(-leader.pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}
