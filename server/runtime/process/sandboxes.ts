/**
 * The sandboxes of one process runtime: which uid each live session has (one each, from the
 * configured range), its cgroups, and the command line the supervisor runs it with.
 */
import { createHash } from 'node:crypto';
import { chmodSync, chownSync, existsSync, statSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { FleetConfigError } from '../../config/fleet.js';
import { projectRoot } from '../../project-root.js';
import type { FleetConfig } from '../../config/fleet-types.js';
import type { LaunchSpec } from '../../domain/ports/runtime.js';
import { adoptSpareCgroups, cgroupProblem, createCgroups, createSpareCgroups, removeSessionCgroups, removeSpareCgroups } from './cgroups.js';
import { applyEgressFirewall, egressTable, fleetFlows, hostResolvers, removeEgressFirewall } from './egress-firewall.js';
import type { SeccompHandoff } from './launcher.mjs';
import { checkSandbox, hiddenPrefixOf, noSandboxMessage, sandboxArgv, seccompHandoff, type SandboxTools } from './sandbox.js';

export interface SandboxesOptions {
  tools: SandboxTools;
  uids: { from: number; to: number };
  cgroupRoot: string;
  /** Keeps this instance's cgroups apart from another's on the same host. */
  cgroupGroup: string;
  /** Hidden from every game server (the data directory). */
  hide: string[];
  /** Shown read-only although under a hidden directory (the project, Node's prefix). */
  readOnly: string[];
}

/** What the supervisor needs to start a game server in its sandbox. */
export interface PreparedSandbox {
  uid: number;
  argv: string[];
  cgroups: string[];
  /** The spare supervisor's launcher is in `cgroups` (they were its spare ones): the game starts from it. */
  launcherJoined: boolean;
  /** The seccomp filter bwrap reads (`argv` names the descriptor). */
  seccomp: SeccompHandoff;
}

const MB = 1024 * 1024;

export class NoFreeUid extends Error {}

export class Sandboxes {
  private readonly uidOf = new Map<string, number>();

  constructor(private readonly options: SandboxesOptions) {
    removeSpareCgroups(options.cgroupRoot, options.cgroupGroup);
  }

  /** Cgroups for a spare supervisor's launcher to join ahead of need (cgroups.ts). */
  spareCgroups(): string[] {
    return createSpareCgroups(this.options.cgroupRoot, this.options.cgroupGroup);
  }

  /**
   * Give the session a uid, make its work directory that uid's alone, and make its cgroups: the
   * spare ones its supervisor's launcher joined (`spareCgroups`, when it did), or new ones.
   */
  prepare(spec: LaunchSpec, sessionDir: string, workDir: string, sdkDir: string, spareCgroups?: readonly string[]): PreparedSandbox {
    const uid = this.allocate(spec.sessionId);
    try {
      // Others may pass through (to reach the work dir they own) but not list.
      chmodSync(sessionDir, 0o711);
      chownSync(workDir, uid, uid);
      chmodSync(workDir, 0o700);
      const { cgroupRoot, cgroupGroup } = this.options;
      const limits = { memoryMb: spec.limits.memoryMb, pids: spec.limits.pids, cpuShares: spec.limits.cpuShares };
      const adopted = spareCgroups && adoptSpareCgroups(spareCgroups, cgroupRoot, cgroupGroup, spec.sessionId, limits);
      const cgroups = adopted ?? createCgroups(cgroupRoot, cgroupGroup, spec.sessionId, limits);
      const argv = sandboxArgv(this.options.tools, {
        uid,
        workDir,
        hostAddress: spec.host,
        ports: spec.ports,
        hide: this.options.hide,
        readOnly: this.options.readOnly,
        // No file larger than the work directory may hold: one file alone never passes its limit.
        limits: { openFiles: spec.limits.openFiles, fileBytes: Math.round(Math.min(spec.limits.fileMb, spec.limits.workDirMb) * MB) },
        sdkDir,
      });
      return { uid, argv, cgroups, launcherJoined: adopted !== undefined, seccomp: seccompHandoff(this.options.tools) };
    } catch (error) {
      this.release(spec.sessionId);
      throw error;
    }
  }

  /** A session adopted after a restart keeps the uid it has. */
  adopt(sessionId: string, uid: number | null | undefined): void {
    if (typeof uid === 'number') this.uidOf.set(sessionId, uid);
  }

  release(sessionId: string): void {
    this.uidOf.delete(sessionId);
  }

  /**
   * The service stops. With no game server of it left, its egress table goes (a SIGKILLed
   * instance's is replaced when it starts again); one still running keeps it.
   */
  close({ gameServersLeft }: { gameServersLeft: boolean }): void {
    if (!gameServersLeft) removeEgressFirewall(this.options.tools.nft, egressTable(this.options.cgroupGroup));
  }

  /** An ended session's cgroups, should its supervisor have vanished before removing them; false while one is still busy. */
  removeLeftovers(sessionId: string): boolean {
    return removeSessionCgroups(this.options.cgroupRoot, this.options.cgroupGroup, sessionId);
  }

  private allocate(sessionId: string): number {
    const used = new Set(this.uidOf.values());
    for (let uid = this.options.uids.from; uid <= this.options.uids.to; uid++) {
      if (used.has(uid)) continue;
      this.uidOf.set(sessionId, uid);
      return uid;
    }
    throw new NoFreeUid(`no free uid in ${this.options.uids.from}-${this.options.uids.to}`);
  }
}

const DEFAULT_UIDS = { from: 400_000, to: 499_999 };

/**
 * The sandboxes for a fleet whose isolation is not "none", or the one-line reason they cannot
 * exist here (the service then refuses to start: there is no silent fallback).
 */
export function processSandboxes(fleet: FleetConfig, dataDir: string): Sandboxes | undefined {
  if (fleet.runtime.isolation === 'none') return undefined;
  const check = checkSandbox(() => cgroupProblem());
  if (!check.ok) throw new FleetConfigError(noSandboxMessage(check.problem));
  // Session uids pass through to their own work dirs; the database and key stay the service's alone.
  chmodSync(dataDir, 0o711);
  const uids = fleet.runtime.uids ?? DEFAULT_UIDS;
  const allowedNetworks = (fleet.runtime.allowedNetworks ?? []).map((network) => network.trim());
  const { perSession, perSecond } = fleetFlows(fleet);
  const flows = { perSession, perSecond };
  const egress = applyEgressFirewall(check.tools.nft, egressTable(instanceCgroupGroup(dataDir)), { uids, allowedNetworks, resolvers: hostResolvers(), flows });
  if (egress) throw new FleetConfigError(noSandboxMessage(egress));
  allowTraversal(dirname(dataDir));
  for (const file of ['service.db', 'service.db-wal', 'service.db-shm', 'secret.key']) {
    if (existsSync(join(dataDir, file))) chmodSync(join(dataDir, file), 0o600);
  }
  // Node (and any image's interpreter) may live where the sandbox hides: show its prefix read-only.
  const executables = [process.execPath, ...fleet.images.flatMap((image) => Object.values(image.tags).map((tag) => tag.command?.[0] ?? ''))];
  const prefixes = executables.filter((file) => file.startsWith('/')).map(hiddenPrefixOf);
  const readOnly = [...new Set([projectRoot, ...prefixes.filter((p): p is string => p !== undefined && !isWithin(p, dataDir) && !isWithin(dataDir, p))])];
  for (const dir of readOnly) allowTraversal(dir);
  return new Sandboxes({
    tools: check.tools,
    uids,
    cgroupRoot: '/sys/fs/cgroup',
    cgroupGroup: instanceCgroupGroup(dataDir),
    hide: [dataDir],
    readOnly,
  });
}

/** One data directory, one instance: its path names the instance's cgroups. */
export function instanceCgroupGroup(dataDir: string): string {
  return createHash('sha256').update(dataDir).digest('hex').slice(0, 12);
}

/**
 * Every directory down to the data directory and to what the sandbox shows read-only (the
 * project, Node's prefix) must let others pass through (x, not r): bwrap runs as the session's
 * uid and must reach what it binds. One without it (a project under /root, a private temp dir)
 * gets o+x, and the service says so.
 */
function allowTraversal(path: string): void {
  for (let dir = path; ; dir = dirname(dir)) {
    const mode = statSync(dir).mode & 0o7777;
    if ((mode & 0o001) === 0) {
      chmodSync(dir, mode | 0o001);
      console.warn(`${dir}: made passable for game servers' users (o+x, not readable), to reach what their sandbox binds`);
    }
    if (dirname(dir) === dir) return;
  }
}

function isWithin(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir + sep);
}
