/**
 * Retention of ended sessions' directories: their logs and artifacts stay readable
 * `runtime.retentionHours` after the end, then the directory goes; and all of them together hold
 * at most `runtime.retentionMb` of disk and `runtime.retentionFiles` entries (inodes: empty files
 * cost no bytes), so repeated starts cannot fill the disk or its inodes within the retention.
 * Past a budget, the account retaining the most of what is over (bytes or entries) loses its
 * oldest directory first, and so on: one account's large sessions push out its own, not other
 * accounts' logs (an uncountable directory goes before any). A directory is ended when its
 * supervisor wrote its end, or when its supervisor is gone and its state has not changed for the
 * whole retention (a supervisor that vanished). A live supervisor's is never. Directories are
 * walked on a worker thread and removed by a child process, one operation at a time, never on
 * the event loop.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DirectoryUsageWalker } from './directory-usage.js';
import { directoryUsage } from './game-tree.mjs';
import { isSameProcess } from './proc.js';

/** `runtime.retentionMb`'s default: 10 GiB. */
export const DEFAULT_RETENTION_MB = 10_240;
/** `runtime.retentionFiles`'s default: a million files and directories (of an ext4 disk's millions of inodes). */
export const DEFAULT_RETENTION_FILES = 1_000_000;
/** Past this many entries a directory is not walked further and counts as larger than any budget. */
const MAX_ENTRIES = 100_000;
/** A directory this small is walked here (about a millisecond); a larger one on the worker thread. */
const QUICK_ENTRIES = 1000;
const UNCOUNTABLE_BYTES = 2 ** 50;

interface Usage {
  bytes: number;
  /** Files and directories (inodes). */
  entries: number;
}

interface Kept extends Usage {
  /** When it ended. */
  last: number;
  /** Its session's account ('' when its state does not say: recorded before accounts were). */
  account: string;
}

export class RetainedSessions {
  /** Ended directories still kept (an ended directory no longer grows). */
  private readonly kept = new Map<string, Kept>();
  private readonly walker = new DirectoryUsageWalker();
  /** The operation under way: the next waits for it (a walk or removal in flight is never counted twice). */
  private busy: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly sessionsDir: string,
    private readonly budgetBytes: number,
    private readonly budgetEntries = DEFAULT_RETENTION_FILES,
  ) {}

  /** A session that just ended: counted, and directories removed while over a budget. */
  sessionEnded(sessionId: string, at: number, accountId: string | null | undefined): Promise<string[]> {
    return this.inTurn(async () => {
      await this.count(sessionId, at, accountId ?? '');
      return this.enforceBudget();
    });
  }

  /** Every directory past the retention, then more while over a budget (also those ended while the service was down). */
  purge(options: { before: number; isLive: (sessionId: string) => boolean }): Promise<string[]> {
    return this.inTurn(() => this.purgeNow(options));
  }

  close(): Promise<void> {
    return this.walker.close();
  }

  private inTurn<T>(operation: () => Promise<T>): Promise<T> {
    const result = this.busy.then(operation);
    this.busy = result.catch(() => {});
    return result;
  }

  private async purgeNow(options: { before: number; isLive: (sessionId: string) => boolean }): Promise<string[]> {
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
      if (change.at < options.before) await this.remove(sessionId, purged);
      else if (!this.kept.has(sessionId)) await this.count(sessionId, change.at, change.account);
    }
    return [...purged, ...(await this.enforceBudget())];
  }

  private async count(sessionId: string, last: number, account: string) {
    const dir = join(this.sessionsDir, sessionId);
    const quick = directoryUsage(dir, QUICK_ENTRIES);
    const { bytes, entries } = Number.isFinite(quick.entries) ? quick : await this.walker.usage(dir, MAX_ENTRIES);
    this.kept.set(sessionId, {
      last,
      bytes: Number.isFinite(bytes) ? bytes : UNCOUNTABLE_BYTES,
      entries: Number.isFinite(entries) ? entries : MAX_ENTRIES,
      account,
    });
  }

  /** Which budget is exceeded (bytes first when both are), or undefined when neither is. */
  private exceeded(total: Usage): keyof Usage | undefined {
    if (total.bytes > this.budgetBytes) return 'bytes';
    if (total.entries > this.budgetEntries) return 'entries';
    return undefined;
  }

  private async enforceBudget(): Promise<string[]> {
    const purged: string[] = [];
    const total: Usage = { bytes: 0, entries: 0 };
    for (const { bytes, entries } of this.kept.values()) {
      total.bytes += bytes;
      total.entries += entries;
    }
    // Those that could not be removed now (tried again at the next purge).
    const stuck = new Set<string>();
    for (let measure = this.exceeded(total); measure !== undefined; measure = this.exceeded(total)) {
      const next = this.nextToEvict(stuck, measure);
      if (next === undefined) break;
      const { bytes, entries } = this.kept.get(next)!;
      if (!(await this.remove(next, purged))) {
        stuck.add(next);
        continue;
      }
      total.bytes -= bytes;
      total.entries -= entries;
    }
    return purged;
  }

  /**
   * An uncountable directory first (counted as larger than any budget, it would otherwise push out
   * everything else); then the oldest of the account retaining the most of `measure`.
   */
  private nextToEvict(stuck: ReadonlySet<string>, measure: keyof Usage): string | undefined {
    const byAccount = new Map<string, { usage: number; oldest?: [string, Kept] }>();
    let uncountable: [string, Kept] | undefined;
    for (const entry of this.kept) {
      const [sessionId, kept] = entry;
      const account = byAccount.get(kept.account) ?? { usage: 0 };
      byAccount.set(kept.account, account);
      account.usage += kept[measure];
      if (stuck.has(sessionId)) continue;
      if (kept.bytes === UNCOUNTABLE_BYTES && (!uncountable || kept.last < uncountable[1].last)) uncountable = entry;
      if (!account.oldest || kept.last < account.oldest[1].last) account.oldest = entry;
    }
    if (uncountable) return uncountable[0];
    let heaviest: { usage: number; oldest?: [string, Kept] } | undefined;
    for (const account of byAccount.values()) {
      if (account.oldest && (!heaviest || account.usage > heaviest.usage)) heaviest = account;
    }
    return heaviest?.oldest?.[0];
  }

  /** False when it could not be removed now (tried again at the next purge): still counted. */
  private async remove(sessionId: string, purged: string[]): Promise<boolean> {
    if (!(await removeTreeInBackground(join(this.sessionsDir, sessionId)))) return false;
    this.kept.delete(sessionId);
    purged.push(sessionId);
    return true;
  }
}

const RM = '/bin/rm';
const rmArgs = (dir: string) => ['-rf', '--one-file-system', '--', dir];

/**
 * Removes a session's directory, however deep its game server nested it: not Node's rmSync,
 * which walks by whole paths and throws ENAMETOOLONG past PATH_MAX (a timer's throw would end
 * the service, at every purge), but rm, which descends relative to each directory (fts). False
 * when it could not (tried again at the next purge).
 */
export function removeTree(dir: string): boolean {
  return spawnSync(RM, rmArgs(dir), { stdio: 'ignore', env: {} }).status === 0;
}

/** removeTree without waiting for it: the service's event loop goes on while rm works (100,000 files take it a second). */
export function removeTreeInBackground(dir: string): Promise<boolean> {
  return new Promise((resolve) => {
    const rm = spawn(RM, rmArgs(dir), { stdio: 'ignore', env: {} });
    rm.on('error', () => resolve(false));
    rm.on('close', (status) => resolve(status === 0));
  });
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
