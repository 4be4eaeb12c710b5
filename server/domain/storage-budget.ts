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

/** Bytes held for a start or a join under way: settled once it is stored (or not). */
export interface Reservation {
  /** What was stored (usually what was held): counted as used from now on, the hold given back. */
  stored(bytes: number): void;
  /** Nothing was stored: all of it given back. */
  cancel(): void;
}

export class StorageBudget {
  private readonly used = new Map<string, number>();
  /**
   * Per account, bytes held by starts and joins under way (reserve()): counted with what is used,
   * so racing starts cannot each pass the check before any is charged (outside check 9: 30 racing
   * starts stored 2.6 times the budget).
   */
  private readonly held = new Map<string, number>();
  /** Per account, charges made since the last measure began: a measure that overlapped one is taken again. */
  private readonly charges = new Map<string, number>();
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
    return (await this.usedBy(accountId)) + (this.held.get(accountId) ?? 0) + bytes <= this.budgetBytes;
  }

  /**
   * Holds `bytes` of the account's budget for a start or a join under way, when they fit beside
   * what is used and what others hold: checked and held at once (no await between), so racing
   * callers are exact. Undefined when they do not fit. The caller settles it exactly once.
   */
  async reserve(accountId: string, bytes: number): Promise<Reservation | undefined> {
    const used = await this.usedBy(accountId);
    const held = this.held.get(accountId) ?? 0;
    if (used + held + bytes > this.budgetBytes) return undefined;
    this.held.set(accountId, held + bytes);
    let settled = false;
    const giveBack = () => {
      if (settled) return false;
      settled = true;
      const left = (this.held.get(accountId) ?? 0) - bytes;
      if (left > 0) this.held.set(accountId, left);
      else this.held.delete(accountId);
      return true;
    };
    return {
      stored: (stored) => {
        if (giveBack()) this.charge(accountId, stored);
      },
      cancel: () => void giveBack(),
    };
  }

  /** After a session was stored or players joined; an account not measured yet is measured (with it) when next asked. */
  charge(accountId: string, bytes: number): void {
    const used = this.used.get(accountId);
    // Counted only while the account is not measured: a measure under way compares them.
    if (used === undefined) this.charges.set(accountId, (this.charges.get(accountId) ?? 0) + 1);
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
    // Measures under way are not kept (the epoch moved): their counts of charges serve nothing.
    this.charges.clear();
  }

  private async usedBy(accountId: string): Promise<number> {
    const known = this.used.get(accountId);
    if (known !== undefined) return known;
    const epoch = this.epoch;
    // A charge made while the store is read may be in the measure or not (and is not in `used`
    // yet, which has no entry): such a measure is taken again, a few times at most.
    let measured = 0;
    let settled = false;
    for (let attempt = 0; attempt < 3 && !settled; attempt++) {
      const charges = this.charges.get(accountId) ?? 0;
      measured = budgetBytes(await this.measure(accountId));
      settled = (this.charges.get(accountId) ?? 0) === charges;
    }
    // Another caller's measure may have landed first (and been charged since): keep that one.
    const landed = this.used.get(accountId);
    if (landed !== undefined) return landed;
    // One that charges kept overlapping is used once, not kept (the next ask measures again).
    if (settled && epoch === this.epoch && !this.purging) {
      this.used.set(accountId, measured);
      this.charges.delete(accountId);
    }
    return measured;
  }
}
