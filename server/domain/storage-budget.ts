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
    private readonly measure: (accountId: string) => number,
  ) {}

  allows(accountId: string, bytes: number): boolean {
    return this.usedBy(accountId) + bytes <= this.budgetBytes;
  }

  charge(accountId: string, bytes: number): void {
    this.used.set(accountId, this.usedBy(accountId) + bytes);
  }

  /** After a purge: measure again when next asked. */
  forget(): void {
    this.used.clear();
  }

  private usedBy(accountId: string): number {
    let used = this.used.get(accountId);
    if (used === undefined) this.used.set(accountId, (used = this.measure(accountId)));
    return used;
  }
}
