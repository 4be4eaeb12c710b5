/**
 * The host's file table (fs.file-max) against what the process runtime's sessions may hold of it.
 * Every open file of every process takes an entry, and past fs.file-max the kernel refuses new
 * files (ENFILE) to every unprivileged process: every tenant's game servers and pasta (its players'
 * new connections), while the service itself goes on. A sandboxed session holds at most
 * `sessionOpenFiles` in its game tree (the supervisor kills it past that) plus `openFiles` in its
 * pasta (its rlimit); an unsandboxed one pids x openFiles. A fleet whose nodes, full, could take
 * more than half the table is worth a warning at start-up (outside check 9, F6).
 */
import { readFileSync } from 'node:fs';
import type { FleetConfig, SessionLimits } from '../../config/fleet-types.js';
import { hasCapability } from './capabilities.js';

/** The host's fs.file-max, or undefined where it cannot be read (not Linux). */
export function hostFileMax(path = '/proc/sys/fs/file-max'): number | undefined {
  try {
    const value = Number(readFileSync(path, 'utf8').trim());
    return Number.isSafeInteger(value) && value > 0 ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The most open files one session may hold, under the most generous of its images' limits. */
export function sessionFileBound(limits: readonly SessionLimits[], sandboxed: boolean): number {
  return Math.max(
    0,
    ...limits.map(({ pids, openFiles, sessionOpenFiles }) => (sandboxed ? Math.min(sessionOpenFiles, pids * openFiles) + openFiles : pids * openFiles)),
  );
}

/**
 * A warning when the fleet's nodes, every one full (`limits`: each image's session limits), could
 * hold more than half of `fileMax`; else undefined.
 */
export function fileTableWarning(fleet: FleetConfig, limits: readonly SessionLimits[], fileMax: number | undefined): string | undefined {
  if (fileMax === undefined) return undefined;
  const sessions = fleet.locations.flatMap((location) => location.nodes).reduce((sum, node) => sum + node.capacity, 0);
  const perSession = sessionFileBound(limits, fleet.runtime.isolation !== 'none');
  const total = sessions * perSession;
  if (total <= fileMax / 2) return undefined;
  return (
    `the fleet's ${sessions} session slots may hold ${total} open files (${perSession} each: sessionOpenFiles + openFiles, ` +
    `or pids x openFiles unsandboxed), more than half of this host's fs.file-max (${fileMax}): past it every game server gets ENFILE; ` +
    'lower runtime.limits.sessionOpenFiles or the nodes\' capacity, or raise fs.file-max'
  );
}

/** This process's hard limit on open files (RLIMIT_NOFILE), or undefined where unreadable or unlimited. */
export function ownHardOpenFiles(path = '/proc/self/limits'): number | undefined {
  try {
    const line = readFileSync(path, 'utf8').split('\n').find((l) => l.startsWith('Max open files'));
    const hard = Number(line?.split(/\s{2,}/)[2]);
    return Number.isSafeInteger(hard) && hard > 0 ? hard : undefined;
  } catch {
    return undefined;
  }
}

const CAP_SYS_RESOURCE = 24n;

/** Whether this process may raise a hard limit past its own: CAP_SYS_RESOURCE in its effective set. */
export function mayRaiseLimits(path = '/proc/self/status'): boolean {
  return hasCapability(CAP_SYS_RESOURCE, path);
}

/**
 * A warning when an image's `openFiles` passes this service's hard open-files limit and it may
 * not raise it: the sandbox's prlimit then fails and every start of that image ends
 * `start_failed`, the reason only in the session's output log (outside check oc-faults).
 */
export function openFilesLimitWarning(limits: readonly SessionLimits[], hard: number | undefined, mayRaise: boolean): string | undefined {
  if (hard === undefined || mayRaise) return undefined;
  const wanted = Math.max(0, ...limits.map((l) => l.openFiles));
  if (wanted <= hard) return undefined;
  return (
    `an image's openFiles (${wanted}) passes this service's hard open-files limit (${hard}) and it lacks CAP_SYS_RESOURCE: ` +
    "every start of such an image fails (start_failed); raise the service's limit (systemd LimitNOFILE=, ulimit -Hn) or lower openFiles"
  );
}
