/**
 * Per-session cgroups (v1: the `memory`, `pids` and `cpu` controllers, each its own hierarchy).
 * The runtime creates them with the session's limits; the supervisor moves the game server's
 * tree into them before it starts and removes them when the session ends. Memory has no swap
 * to spill into (memsw set too where accounted), so a game server over its limit is killed by
 * the kernel's OOM killer: SIGKILL, exit code 137.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeCgroups } from './game-tree.mjs';

export interface CgroupLimits {
  memoryMb: number;
  pids: number;
  /** Relative CPU weight (cpu.shares; 1024 is one normal process's share). */
  cpuShares: number;
}

const CONTROLLERS = ['memory', 'pids', 'cpu'] as const;

/** Undefined when the controllers are there; otherwise what is missing. */
export function cgroupProblem(root = '/sys/fs/cgroup'): string | undefined {
  const missing = CONTROLLERS.filter((controller) => !existsSync(join(root, controller, 'cgroup.procs')));
  return missing.length === 0 ? undefined : `the cgroup v1 controllers ${missing.join(', ')} are not mounted under ${root}`;
}

const sessionCgroups = (root: string, group: string, sessionId: string) =>
  CONTROLLERS.map((controller) => join(root, controller, 'session-host', group, sessionId));

/** The session's cgroup directories, created with its limits. `group` keeps instances on one host apart. */
export function createCgroups(root: string, group: string, sessionId: string, limits: CgroupLimits): string[] {
  const dirs = makeCgroups(root, group, sessionId);
  writeLimits(dirs, limits);
  return dirs;
}

function makeCgroups(root: string, group: string, name: string): string[] {
  const dirs = sessionCgroups(root, group, name);
  for (const dir of dirs) mkdirSync(dir, { recursive: true });
  return dirs;
}

const SPARE_PREFIX = 'spare-';

/**
 * Cgroups without limits for a spare supervisor's launcher to join ahead of need (launcher.mjs):
 * joining one waits for an RCU grace period (~10 ms), which a start then does not wait for.
 */
export function createSpareCgroups(root: string, group: string): string[] {
  return makeCgroups(root, group, `${SPARE_PREFIX}${randomBytes(8).toString('hex')}`);
}

/**
 * A spare's cgroups become the session's: renamed (what is in them stays in them) and given its
 * limits before anything in them runs the game. Undefined when they cannot be (then the session's
 * are created afresh and the spare's removed, with whatever is in them).
 */
export function adoptSpareCgroups(spare: readonly string[], root: string, group: string, sessionId: string, limits: CgroupLimits): string[] | undefined {
  const dirs = sessionCgroups(root, group, sessionId);
  try {
    spare.forEach((dir, i) => renameSync(dir, dirs[i]!));
    writeLimits(dirs, limits);
    return dirs;
  } catch {
    removeCgroups([...spare, ...dirs]);
    return undefined;
  }
}

/** Spares' cgroups an earlier run left (its spare supervisors are gone): emptied and removed. */
export function removeSpareCgroups(root: string, group: string): void {
  for (const controller of CONTROLLERS) {
    const dir = join(root, controller, 'session-host', group);
    let spares: string[] = [];
    try {
      spares = readdirSync(dir).filter((name) => name.startsWith(SPARE_PREFIX));
    } catch {
      // None made yet.
    }
    removeCgroups(spares.map((name) => join(dir, name)));
  }
}

function writeLimits(dirs: string[], limits: CgroupLimits): void {
  const [memory, pids, cpu] = dirs as [string, string, string];
  const bytes = String(limits.memoryMb * 1024 * 1024);
  writeFileSync(join(memory, 'memory.limit_in_bytes'), bytes);
  if (existsSync(join(memory, 'memory.memsw.limit_in_bytes'))) writeFileSync(join(memory, 'memory.memsw.limit_in_bytes'), bytes);
  writeFileSync(join(pids, 'pids.max'), String(limits.pids));
  writeFileSync(join(cpu, 'cpu.shares'), String(limits.cpuShares));
}

/** What a vanished supervisor left of a session's cgroups (a live one removes its own): killed and removed. */
export function removeSessionCgroups(root: string, group: string, sessionId: string): boolean {
  return removeCgroups(sessionCgroups(root, group, sessionId));
}

/** Every cgroup of an instance (tests, and an instance retired for good); false while some are still busy. */
export function removeInstanceCgroups(root: string, group: string): boolean {
  let removed = true;
  for (const controller of CONTROLLERS) {
    const dir = join(root, controller, 'session-host', group);
    let sessions: string[];
    try {
      sessions = readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
    } catch {
      continue;
    }
    if (!removeCgroups(sessions.map((session) => join(dir, session)))) removed = false;
    try {
      rmdirSync(dir);
    } catch {
      removed = false;
    }
  }
  return removed;
}
