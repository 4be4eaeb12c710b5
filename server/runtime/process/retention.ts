/**
 * Retention of ended sessions' directories: their logs and artifacts stay readable
 * `runtime.retentionHours` after the end, then the directory goes; and all of them together hold
 * at most `runtime.retentionMb` of disk, beyond which the oldest go first (so repeated starts cannot
 * fill the disk within the retention). A directory is ended when its supervisor wrote its end,
 * or when its supervisor is gone and its state has not changed for the whole retention (a
 * supervisor that vanished). A live supervisor's is never.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { directoryUsage } from './game-tree.mjs';
import { isSameProcess } from './proc.js';

/** `runtime.retentionMb`'s default: 10 GiB. */
export const DEFAULT_RETENTION_MB = 10_240;
/** Past this many entries a directory is not walked further and counts as larger than any budget. */
const MAX_ENTRIES = 100_000;
const UNCOUNTABLE_BYTES = 2 ** 50;

export class RetainedSessions {
  /** Ended directories still kept: when each ended and its size (an ended directory no longer grows). */
  private readonly kept = new Map<string, { last: number; bytes: number }>();

  constructor(
    private readonly sessionsDir: string,
    private readonly budgetBytes: number,
  ) {}

  /** A session that just ended: counted, and the oldest directories removed while over the budget. */
  sessionEnded(sessionId: string, at: number): string[] {
    this.count(sessionId, at);
    return this.enforceBudget();
  }

  /** Every directory past the retention, then the oldest while over the budget (also those ended while the service was down). */
  purge(options: { before: number; isLive: (sessionId: string) => boolean }): string[] {
    const purged: string[] = [];
    let entries: string[];
    try {
      entries = readdirSync(this.sessionsDir);
    } catch {
      return purged;
    }
    const present = new Set(entries);
    for (const sessionId of this.kept.keys()) if (!present.has(sessionId)) this.kept.delete(sessionId);
    for (const sessionId of entries) {
      if (options.isLive(sessionId)) continue;
      const last = lastChange(join(this.sessionsDir, sessionId));
      if (last === undefined) continue;
      if (last < options.before) this.remove(sessionId, purged);
      else if (!this.kept.has(sessionId)) this.count(sessionId, last);
    }
    return [...purged, ...this.enforceBudget()];
  }

  private count(sessionId: string, last: number) {
    const { bytes } = directoryUsage(join(this.sessionsDir, sessionId), MAX_ENTRIES);
    this.kept.set(sessionId, { last, bytes: Number.isFinite(bytes) ? bytes : UNCOUNTABLE_BYTES });
  }

  private enforceBudget(): string[] {
    const purged: string[] = [];
    let total = 0;
    for (const { bytes } of this.kept.values()) total += bytes;
    if (total <= this.budgetBytes) return purged;
    // One whose game server made it uncountable goes first: counted as larger than any budget, it
    // would otherwise push out every older session's logs and artifacts, other accounts' included.
    const order = ({ last, bytes }: { last: number; bytes: number }) => (bytes === UNCOUNTABLE_BYTES ? -Infinity : last);
    const evictionOrder = [...this.kept.entries()].sort((a, b) => order(a[1]) - order(b[1]));
    for (const [sessionId, { bytes }] of evictionOrder) {
      if (total <= this.budgetBytes) break;
      this.remove(sessionId, purged);
      total -= bytes;
    }
    return purged;
  }

  private remove(sessionId: string, purged: string[]) {
    // Not removable now (tried again at the next purge): still counted.
    if (!removeTree(join(this.sessionsDir, sessionId))) return;
    this.kept.delete(sessionId);
    purged.push(sessionId);
  }
}

/**
 * Removes a session's directory, however deep its game server nested it: not Node's rmSync,
 * which walks by whole paths and throws ENAMETOOLONG past PATH_MAX (a timer's throw would end
 * the service, at every purge), but rm, which descends relative to each directory (fts). False
 * when it could not (tried again at the next purge).
 */
export function removeTree(dir: string): boolean {
  const removed = spawnSync('/bin/rm', ['-rf', '--one-file-system', '--', dir], { stdio: 'ignore', env: {} });
  return removed.status === 0;
}

/** When the session last changed: its end, or its state file's last write; undefined while its supervisor lives. */
function lastChange(dir: string): number | undefined {
  try {
    const state = JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')) as { phase?: string; at?: number; supervisorPid?: number; supervisorStart?: string };
    if (state.phase === 'ended' && typeof state.at === 'number') return state.at;
    if (state.supervisorPid && state.supervisorStart && isSameProcess(state.supervisorPid, state.supervisorStart)) return undefined;
  } catch {
    // No state yet, or unreadable: fall back to the directory's age.
  }
  try {
    return statSync(join(dir, 'state.json')).mtimeMs;
  } catch {
    try {
      return statSync(dir).mtimeMs;
    } catch {
      return undefined;
    }
  }
}
