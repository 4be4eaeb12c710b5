/**
 * Retention of ended sessions' directories: their logs and artifacts stay readable
 * `runtime.retentionHours` after the end, then the directory goes; and all of them together hold
 * at most `runtime.retentionMb` of disk (so repeated starts cannot fill the disk within the
 * retention). Past the budget, the account retaining the most bytes loses its oldest directory
 * first, and so on: one account's large sessions push out its own, not other accounts' logs
 * (an uncountable directory goes before any). A directory is ended when its supervisor wrote its end,
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

interface Kept {
  /** When it ended. */
  last: number;
  bytes: number;
  /** Its session's account ('' when its state does not say: recorded before accounts were). */
  account: string;
}

export class RetainedSessions {
  /** Ended directories still kept (an ended directory no longer grows). */
  private readonly kept = new Map<string, Kept>();

  constructor(
    private readonly sessionsDir: string,
    private readonly budgetBytes: number,
  ) {}

  /** A session that just ended: counted, and directories removed while over the budget. */
  sessionEnded(sessionId: string, at: number, accountId: string | null | undefined): string[] {
    this.count(sessionId, at, accountId ?? '');
    return this.enforceBudget();
  }

  /** Every directory past the retention, then more while over the budget (also those ended while the service was down). */
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
      const change = lastChange(join(this.sessionsDir, sessionId));
      if (change === undefined) continue;
      if (change.at < options.before) this.remove(sessionId, purged);
      else if (!this.kept.has(sessionId)) this.count(sessionId, change.at, change.account);
    }
    return [...purged, ...this.enforceBudget()];
  }

  private count(sessionId: string, last: number, account: string) {
    const { bytes } = directoryUsage(join(this.sessionsDir, sessionId), MAX_ENTRIES);
    this.kept.set(sessionId, { last, bytes: Number.isFinite(bytes) ? bytes : UNCOUNTABLE_BYTES, account });
  }

  private enforceBudget(): string[] {
    const purged: string[] = [];
    let total = 0;
    for (const { bytes } of this.kept.values()) total += bytes;
    // Those that could not be removed now (tried again at the next purge).
    const stuck = new Set<string>();
    while (total > this.budgetBytes) {
      const next = this.nextToEvict(stuck);
      if (next === undefined) break;
      const bytes = this.kept.get(next)!.bytes;
      if (this.remove(next, purged)) total -= bytes;
      else stuck.add(next);
    }
    return purged;
  }

  /**
   * An uncountable directory first (counted as larger than any budget, it would otherwise push out
   * everything else); then the oldest of the account retaining the most bytes.
   */
  private nextToEvict(stuck: ReadonlySet<string>): string | undefined {
    const byAccount = new Map<string, { bytes: number; oldest?: [string, Kept] }>();
    let uncountable: [string, Kept] | undefined;
    for (const entry of this.kept) {
      const [sessionId, kept] = entry;
      const account = byAccount.get(kept.account) ?? { bytes: 0 };
      byAccount.set(kept.account, account);
      account.bytes += kept.bytes;
      if (stuck.has(sessionId)) continue;
      if (kept.bytes === UNCOUNTABLE_BYTES && (!uncountable || kept.last < uncountable[1].last)) uncountable = entry;
      if (!account.oldest || kept.last < account.oldest[1].last) account.oldest = entry;
    }
    if (uncountable) return uncountable[0];
    let heaviest: { bytes: number; oldest?: [string, Kept] } | undefined;
    for (const account of byAccount.values()) {
      if (account.oldest && (!heaviest || account.bytes > heaviest.bytes)) heaviest = account;
    }
    return heaviest?.oldest?.[0];
  }

  /** False when it could not be removed now (tried again at the next purge): still counted. */
  private remove(sessionId: string, purged: string[]): boolean {
    if (!removeTree(join(this.sessionsDir, sessionId))) return false;
    this.kept.delete(sessionId);
    purged.push(sessionId);
    return true;
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

/**
 * When the session last changed (its end, or its state file's last write) and its account;
 * undefined while its supervisor lives.
 */
function lastChange(dir: string): { at: number; account: string } | undefined {
  let account = '';
  try {
    const state = JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')) as {
      phase?: string;
      at?: number;
      supervisorPid?: number;
      supervisorStart?: string;
      accountId?: string | null;
    };
    if (typeof state.accountId === 'string') account = state.accountId;
    if (state.phase === 'ended' && typeof state.at === 'number') return { at: state.at, account };
    if (state.supervisorPid && state.supervisorStart && isSameProcess(state.supervisorPid, state.supervisorStart)) return undefined;
  } catch {
    // No state yet, or unreadable: fall back to the directory's age.
  }
  const mtime = (path: string) => {
    try {
      return statSync(path).mtimeMs;
    } catch {
      return undefined;
    }
  };
  const at = mtime(join(dir, 'state.json')) ?? mtime(dir);
  return at === undefined ? undefined : { at, account };
}
