/**
 * A supervisor spawned ahead of the next start, so a start does not wait for a fork or for Node
 * to load: taken by a start, and replaced once that start's game server runs. Loading Node takes
 * tens of milliseconds of CPU, which a game server starting beside it on a busy host would wait
 * for; so it is loaded before a start, never during one (a start finding no spare, in a burst,
 * spawns its own).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import type { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { removeCgroups } from './game-tree.mjs';
import { isSameProcess } from './proc.js';
import { hasCapability } from './capabilities.js';
import { setSessionGroupNice } from './session-priority.js';
import { SpareSpawner, type SpawnedSpare } from './spare-spawner.js';

/** A process by pid and start time (proc.ts: a pid can be reused once its process is gone). */
export interface ProcessIdentity {
  pid: number;
  start: string;
}

/** What a spare says once it has started: the spare cgroups its launcher joined (launcher.mjs), if any, and the launcher's pid and start time. */
interface SpareReady {
  cgroups: string[] | undefined;
  launcherPid: number | undefined;
  launcherStart: string | undefined;
}

/** A spare supervisor's process: its pid and start time, the pipe its session is written to, and the one its launcher reads from. */
export interface SpareProcess {
  pid: number;
  start: string | undefined;
  stdin: Writable;
  launcher: Writable;
}

interface Spare {
  process: SpareProcess;
  ready: Promise<SpareReady>;
  /** It loads at SPARE_NICE (set back to 0 when taken). */
  niced: boolean;
}

/**
 * A taken spare: its process, the spare cgroups its launcher is in (undefined: none), the pipe
 * its launcher reads its command from, and the launcher's process (its group's leader; undefined
 * when it has already gone).
 */
export interface TakenSpare {
  child: SpareProcess;
  cgroups: string[] | undefined;
  launcher: Writable;
  launcherProcess: ProcessIdentity | undefined;
}

export class SpareSupervisor {
  /** The waiting spare (undefined inside: its spawn failed). */
  private spare: Promise<Spare | undefined> | undefined;
  private closed = false;
  /** Spares yield only where they can be set back to normal priority (else the game server would inherit SPARE_NICE). */
  private niceSpares = mayRaisePriority();
  private readonly spawner = new SpareSpawner({ PATH: process.env.PATH ?? '/usr/bin:/bin' });

  constructor(
    private readonly script: string,
    private readonly instanceId: string,
    /** Cgroups for the spare's launcher to join ahead of need (sandboxed runtimes); undefined: none. */
    private readonly spareCgroups?: () => string[],
    /** Told each time a spare is spawned (tests: the order of spawning and handing over). */
    private readonly onSpawned?: () => void,
  ) {
    this.spare = this.spawn(true);
  }

  /** The spare (or a new one when there is none), once it has started and its launcher has joined its cgroups. */
  async take(): Promise<TakenSpare> {
    // One spawned on demand (a burst) is not made to yield: a start waits for it.
    const waiting = this.spare ?? this.spawn(false);
    this.spare = undefined;
    let spare = await waiting;
    // One that died while it waited (killed, out of memory) serves nobody, nor one never spawned: a new one does.
    if (!spare || !running(spare.process)) {
      if (spare) dismiss(spare.process);
      spare = await this.spawn(false);
    }
    // No process could be made (EMFILE, ENFILE, EAGAIN): this start fails, the service goes on.
    if (!spare) throw new Error('could not start a supervisor: the host has no file descriptors or processes to spare');
    const { pid } = spare.process;
    // Needed now: it stops yielding (on a busy host a yielding one may not have loaded yet).
    let normal = !spare.niced || renice(pid, 0);
    const { cgroups, launcherPid, launcherStart } = await spare.ready;
    const launcherProcess = launcherPid !== undefined && launcherStart !== undefined ? { pid: launcherPid, start: launcherStart } : undefined;
    // Before the game's command, which the launcher execs (the game server keeps its priority); only while it is still that launcher.
    if (spare.niced && launcherProcess && isSameProcess(launcherProcess.pid, launcherProcess.start)) normal = renice(launcherProcess.pid, 0) && normal;
    if (!normal) {
      // Its game server would run at SPARE_NICE: this spare gets none; one spawned now does, and no
      // spare yields from here on (unless it failed only because this one died just now).
      if (running(spare.process)) this.niceSpares = false;
      dismiss(spare.process);
      return this.take();
    }
    return { child: spare.process, cgroups, launcher: spare.process.launcher, launcherProcess };
  }

  /** A new spare once `started` settles (the game server it was taken for runs, or failed); none once closed. */
  replenishAfter(started: Promise<unknown>): void {
    const replenish = () => {
      if (!this.closed) this.spare ??= this.spawn(true);
    };
    started.then(replenish, replenish);
  }

  /** The spare has no session: closing its stdin and its launcher's pipe empty ends them. */
  close(): void {
    this.closed = true;
    void this.spare?.then((spare) => spare && dismiss(spare.process));
    this.spare = undefined;
    this.spawner.close();
  }

  /** `idle`: it loads at SPARE_NICE, so game servers starting meanwhile (and their first players) go first. Undefined: it could not be spawned. */
  private async spawn(idle: boolean): Promise<Spare | undefined> {
    this.onSpawned?.();
    let cgroups: string[] | undefined;
    try {
      cgroups = this.spareCgroups?.();
    } catch {
      // Without them its launcher joins nothing: the start makes the session's cgroups and a fresh shell joins them.
    }
    const args = [this.script, `--instance=${this.instanceId}`, ...(cgroups ?? []).map((dir) => `--join=${dir}`)];
    let spawned: SpawnedSpare;
    try {
      // One spawned ahead of need warms its SDK server while it waits; one a start waits for does not.
      spawned = await this.spawner.spawn(process.execPath, idle ? [...args, '--warm-up'] : args);
    } catch {
      // Out of file descriptors or processes, or closed while it was being spawned: a spare that
      // never started, which take() replaces. Its cgroups go, with whatever joined them.
      if (cgroups) void removeWhenLeft(cgroups);
      return undefined;
    }
    const niced = idle && this.niceSpares && renice(spawned.pid, SPARE_NICE);
    // It says on stdout whether its launcher joined them (once); a spare that fails to start is noticed when it is taken.
    const ready = spawned.said.then(({ said, launcherStart }): SpareReady => {
      const told = /^(joined|not joined) (\d+)\n/.exec(said);
      return {
        cgroups: told?.[1] === 'joined' && cgroups && cgroups.length > 0 ? cgroups : undefined,
        launcherPid: told ? Number(told[2]) : undefined,
        launcherStart,
      };
    });
    return { process: spawned, ready, niced };
  }
}

const CGROUP_REMOVE_TRIES = 50;
const CGROUP_REMOVE_WAIT_MS = 100;

/** Cgroups removed once what was killed in them has left (a killed process takes a moment). */
async function removeWhenLeft(dirs: readonly string[]): Promise<void> {
  for (let attempt = 0; attempt < CGROUP_REMOVE_TRIES && !removeCgroups(dirs); attempt++) await sleep(CGROUP_REMOVE_WAIT_MS);
}

/** A spare (taken or not) that gets no session: its stdin and its launcher's pipe closed empty, it ends with its launcher. */
export function dismiss(spare: SpareProcess): void {
  spare.stdin.end();
  spare.launcher.end();
}

/** A spare's process ended at once (while it is still that process). */
export function killSpare(spare: SpareProcess): void {
  if (spare.start !== undefined && isSameProcess(spare.pid, spare.start)) process.kill(spare.pid, 'SIGKILL');
}

/** Whether a spare's process still runs (not exited, not a zombie its exit has not reached us from yet). */
const running = (spare: SpareProcess) => spare.start !== undefined && isSameProcess(spare.pid, spare.start);

/**
 * A waiting spare's niceness (its session group's, where autogroups count): it yields to starts
 * and running games, but still loads before the next start on a busy host. At 19 (weight 15
 * against 1024) a spare took 0.6-2.2 s to load at load 11-15 on 2 cores and every start of B2
 * then waited for it in take() (80-460 ms, median ~185); at 10 (weight 110) 0.3-1.5 s, and a
 * third of the starts did not wait at all (median wait ~55 ms; B2 at load 14: 451 against
 * 801 ms). The warm game servers' WARM_NICE is 10 for the same reason (process-runtime.ts).
 */
export const SPARE_NICE = 10;

/**
 * Every thread of the process (niceness is per thread on Linux), and its session's scheduling
 * group (session-priority.ts); one that is gone is left alone. False when one could not be set (not permitted).
 */
function renice(pid: number | undefined, nice: number): boolean {
  return reniceThreads(pid, nice) && setSessionGroupNice(pid, nice);
}

function reniceThreads(pid: number | undefined, nice: number): boolean {
  let threads: string[];
  try {
    threads = readdirSync(`/proc/${pid}/task`);
  } catch {
    return true;
  }
  let done = true;
  for (const tid of threads) {
    try {
      setPriority(Number(tid), nice);
    } catch (error) {
      // Ended meanwhile is fine; anything else (EACCES) is not.
      if ((error as { info?: { code?: string } }).info?.code !== 'ESRCH') done = false;
    }
  }
  return done;
}

const CAP_SYS_NICE = 23n;

/**
 * Whether this process may raise a priority (SPARE_NICE back to 0): CAP_SYS_NICE, or an RLIMIT_NICE
 * of at least 20 (it allows nice down to 20 - limit). Read once, from /proc; unknown counts as no.
 */
function mayRaisePriority(): boolean {
  if (hasCapability(CAP_SYS_NICE)) return true;
  try {
    const limit = /^Max nice priority\s+(\S+)/m.exec(readFileSync('/proc/self/limits', 'utf8'))![1]!;
    return limit === 'unlimited' || Number(limit) >= 20;
  } catch {
    return false;
  }
}
