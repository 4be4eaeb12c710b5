/**
 * What an account's sessions may store of their own: the labels and args of its retained
 * sessions (live, and ended within the retention) and the players joined to them count against
 * a budget, so nobody fills the database with maximum-size sessions (about 130 KB of labels and
 * args each, copied into events) or with players (1,024 per session, kept as long as their
 * session is retained, and listed with it by every `GET /session?all=true`). Kept as a running
 * total per account, measured once from the store and forgotten after each retention purge.
 */

/** Bytes of labels, args and players per account (STORAGE_BUDGET_MIB). */
export const DEFAULT_STORAGE_BUDGET_BYTES = 64 * 1024 * 1024;

/**
 * What a joined player costs beyond its id's bytes: its record repeats the account and the
 * session and keeps when it joined, and two indexes hold it again, so a store row costs well over
 * 100 bytes even for a one-character id. Without this, short ids would let an account keep tens
 * of millions of rows within its budget. The stores count it too (storedBytes), by this number.
 */
export const PLAYER_RECORD_BYTES = 64;

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

  constructor(
    readonly budgetBytes: number,
    /** The account's stored bytes as the store counts them. */
    private readonly measure: (accountId: string) => Promise<number>,
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

  /** After a purge: measure again when next asked. */
  forget(): void {
    this.used.clear();
  }

  private async usedBy(accountId: string): Promise<number> {
    let used = this.used.get(accountId);
    if (used === undefined) this.used.set(accountId, (used = await this.measure(accountId)));
    return used;
  }
}
