/**
 * What an account's sessions may store of their own: the labels and args of its retained
 * sessions (live, and ended within the retention) count against a budget, so nobody fills the
 * database with maximum-size sessions (about 130 KB of labels and args each, copied into
 * events). Kept as a running total per account, measured once from the store and forgotten
 * after each retention purge.
 */

/** Bytes of labels and args per account (STORAGE_BUDGET_MIB). */
export const DEFAULT_STORAGE_BUDGET_BYTES = 64 * 1024 * 1024;

export function storedBytes(labels: Record<string, string> | undefined, args: readonly string[] | undefined): number {
  return Buffer.byteLength(JSON.stringify(labels ?? {})) + Buffer.byteLength(JSON.stringify(args ?? []));
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

  /** After a session was stored; an account not measured yet is measured (with it) when next asked. */
  charge(accountId: string, bytes: number): void {
    const used = this.used.get(accountId);
    if (used !== undefined) this.used.set(accountId, used + bytes);
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
