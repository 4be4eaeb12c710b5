/**
 * What an account's sessions may store of their own: the labels and args of its retained
 * sessions (live, and ended within the retention) and the players joined to them count against
 * a budget, so nobody fills the database with maximum-size sessions (about 130 KB of labels and
 * args each, copied into events) or with players (1,024 per session, kept as long as their
 * session is retained, and listed with it by every `GET /session?all=true`). Kept as a running
 * total per account, measured once from the store, then charged and given back as sessions are
 * stored, players join and leave, and the retention purges: measuring an account whose players
 * fill its budget reads some 350,000 rows (0.1-0.4 s of SQLite, on the event loop).
 */

import type { StoredSize } from './ports/sessions.js';

/** Bytes of labels, args and players per account (STORAGE_BUDGET_MIB). */
export const DEFAULT_STORAGE_BUDGET_BYTES = 64 * 1024 * 1024;

/**
 * What a joined player costs beyond its id's bytes: its record repeats the account and the
 * session and keeps when it joined, and two indexes hold it again: a SQLite row takes 233 bytes
 * with a 4-character id (664 with a 128-character one). Without this, short ids would let an
 * account keep tens of millions of rows within its budget.
 */
export const PLAYER_RECORD_BYTES = 64;

/** What the store's measure (labels, args and player ids in bytes, and players) counts against the budget. */
export function budgetBytes(size: StoredSize): number {
  return size.bytes + size.players * PLAYER_RECORD_BYTES;
}

export function storedBytes(labels: Record<string, string> | undefined, args: readonly string[] | undefined): number {
  return Buffer.byteLength(JSON.stringify(labels ?? {})) + Buffer.byteLength(JSON.stringify(args ?? []));
}

/** What joined players count against the budget: each its id's UTF-8 bytes and PLAYER_RECORD_BYTES. */
export function playerBytes(players: Iterable<string>): number {
  let bytes = 0;
  for (const player of players) bytes += Buffer.byteLength(player) + PLAYER_RECORD_BYTES;
  return bytes;
}

export class StorageBudget {
  private readonly used = new Map<string, number>();
  /** Bumped by each purge and forget: a measure that was reading meanwhile may predate it, and is not kept. */
  private epoch = 0;
  /** Between purgeStarts() and purged(): a measure then may or may not see the purge, so none is kept. */
  private purging = false;

  constructor(
    readonly budgetBytes: number,
    /** What the account's sessions hold, as the store measures it. */
    private readonly measure: (accountId: string) => Promise<StoredSize>,
  ) {}

  async allows(accountId: string, bytes: number): Promise<boolean> {
    return (await this.usedBy(accountId)) + bytes <= this.budgetBytes;
  }

  /** After a session was stored or players joined; an account not measured yet is measured (with it) when next asked. */
  charge(accountId: string, bytes: number): void {
    const used = this.used.get(accountId);
    if (used !== undefined) this.used.set(accountId, used + bytes);
  }

  /**
   * After players left a live session (their records are deleted at once, not at the purge): a
   * game whose players come and go keeps its budget, not the sum of every join it ever had.
   */
  release(accountId: string, bytes: number): void {
    const used = this.used.get(accountId);
    if (used !== undefined) this.used.set(accountId, Math.max(0, used - bytes));
  }

  /** Before a retention purge: measures taken until purged() are not kept (they might count its rows, or not). */
  purgeStarts(): void {
    this.epoch++;
    this.purging = true;
  }

  /** After a retention purge: what it removed of each account no longer counts. */
  purged(freed: ReadonlyMap<string, StoredSize>): void {
    this.epoch++;
    this.purging = false;
    for (const [accountId, size] of freed) this.release(accountId, budgetBytes(size));
  }

  /** When what was purged is not known (another instance purges, a purge failed): measure again when next asked. */
  forget(): void {
    this.epoch++;
    this.purging = false;
    this.used.clear();
  }

  private async usedBy(accountId: string): Promise<number> {
    const known = this.used.get(accountId);
    if (known !== undefined) return known;
    const epoch = this.epoch;
    const measured = budgetBytes(await this.measure(accountId));
    // Another caller's measure may have landed first (and been charged since): keep that one.
    const landed = this.used.get(accountId);
    if (landed !== undefined) return landed;
    if (epoch === this.epoch && !this.purging) this.used.set(accountId, measured);
    return measured;
  }
}
