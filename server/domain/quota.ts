/**
 * Runtime quota: minutes per account, charged to the second (a begun second counts) from
 * launch to the end of each session (a game server that never becomes running still costs).
 * Ended sessions are charged once, when they end, in the transaction that ends them; live ones
 * count live. Exhaustion is found without scanning sessions on a timer: each account with live
 * sessions has a deadline (remaining time shared by its live sessions), recomputed only when
 * that account's sessions change.
 */
import type { FailureReporter } from './ports/failure-reporter.js';
import type { QuotaStore } from './ports/quota.js';

export interface QuotaPolicy {
  /** Charge run time at all (the sandbox does not). */
  charge: boolean;
  /** Force-terminate live sessions once the quota is used up. */
  terminate: boolean;
  /** How long live sessions may go on after exhaustion before they are terminated. */
  graceMs: number;
  /** How often deadlines are checked (a check reads only the deadline map). */
  tickMs: number;
}

export interface QuotaUsage {
  total: number;
  usedSeconds: number;
  remainingSeconds: number;
}

const chargeableSeconds = (fromMs: number, toMs: number) => Math.max(0, Math.ceil((toMs - fromMs) / 1000));

export class Quota {
  /** When each account's quota runs out at the current number of live sessions. */
  private readonly deadlines = new Map<string, number>();
  /** When each account was found exhausted, while its live sessions have their grace. */
  private readonly exhaustedAt = new Map<string, number>();
  private readonly timer: NodeJS.Timeout;
  private onExhausted: (accountId: string) => void = () => {};
  /** Whether this instance ends exhausted accounts' sessions (with several, only the leader does). */
  private enforcing = true;
  private ticking = false;

  constructor(
    private readonly store: QuotaStore,
    private readonly policy: QuotaPolicy,
    private readonly now: () => number,
    /** A tick that fails (the store) is reported and simply runs again at the next tick. */
    private readonly reporter?: FailureReporter,
  ) {
    this.timer = setInterval(() => this.guardedTick(), policy.tickMs);
    this.timer.unref();
  }

  /** What to do with an account whose grace after exhaustion has run out. */
  whenExhausted(handler: (accountId: string) => void): void {
    this.onExhausted = handler;
  }

  /** `launched`: the account's live sessions' launches, when the caller has just read them. */
  async usage(accountId: string, launched?: readonly number[]): Promise<QuotaUsage> {
    const account = await this.store.account(accountId);
    if (!account) throw new Error(`no account ${accountId}`);
    const now = this.now();
    const live = this.policy.charge
      ? (launched ?? (await this.store.launchedAt(accountId))).reduce((sum, since) => sum + chargeableSeconds(since, now), 0)
      : 0;
    const usedSeconds = account.usedSeconds + live;
    return {
      total: account.quotaMinutes,
      usedSeconds,
      remainingSeconds: Math.max(0, account.quotaMinutes * 60 - usedSeconds),
    };
  }

  async allowsStart(accountId: string): Promise<boolean> {
    if (!this.policy.charge) return true;
    // Far from the limit the bound answers; near it, the exact usage does.
    if (((await this.remainingAtLeast(accountId))?.seconds ?? 0) > 0) return true;
    return (await this.usage(accountId)).remainingSeconds > 0;
  }

  /**
   * A lower bound of the account's remaining seconds and its live sessions' count, from their
   * launches in aggregate (constant time, however many are live; a start checks and recomputes
   * quota): each live session has used (now - launch) / 1000 seconds rounded up, so the sum is
   * under count * (now - mean launch) / 1000 + count (one more second for the double's rounding).
   * Undefined when the store has no aggregate or a launch lies ahead of now (a clock stepped
   * back: sessions are then charged nothing for now, which the bound does not model).
   */
  private async remainingAtLeast(accountId: string): Promise<{ seconds: number; count: number } | undefined> {
    if (!this.store.launchSummary) return undefined;
    const [account, launches] = await Promise.all([this.store.account(accountId), this.store.launchSummary(accountId)]);
    if (!account) throw new Error(`no account ${accountId}`);
    const now = this.now();
    if (launches.latestMs > now) return undefined;
    const liveAtMost = launches.count === 0 ? 0 : (launches.count * (now - launches.meanMs)) / 1000 + launches.count + 1;
    return { seconds: account.quotaMinutes * 60 - account.usedSeconds - liveAtMost, count: launches.count };
  }

  /** Charge an ended session; call inside the transaction that ends it. */
  async chargeEnded(accountId: string, launched: number, ended: number): Promise<void> {
    if (!this.policy.charge) return;
    await this.store.addUsedSeconds(accountId, chargeableSeconds(launched, ended));
  }

  /** Recompute an account's deadline after its live sessions changed. */
  async recompute(accountId: string): Promise<void> {
    try {
      await this.recomputeNow(accountId);
    } catch (error) {
      // A read that failed (the store away) leaves a deadline due now: the next tick looks again,
      // rather than the account having none, its sessions never ended for their quota.
      this.deadlines.set(accountId, this.now());
      throw error;
    }
  }

  private async recomputeNow(accountId: string): Promise<void> {
    if (!this.policy.charge) return;
    const bound = await this.remainingAtLeast(accountId);
    if (bound?.count === 0) {
      this.deadlines.delete(accountId);
      return;
    }
    // Far from the limit: a deadline from the bound, a little early (at most about a second), when
    // the tick reads the exact usage and recomputes, by then near the limit and exactly.
    if (bound && bound.seconds > bound.count) {
      this.deadlines.set(accountId, this.now() + (bound.seconds * 1000) / bound.count);
      return;
    }
    const launched = await this.store.launchedAt(accountId);
    if (launched.length === 0) {
      this.deadlines.delete(accountId);
      return;
    }
    const { remainingSeconds } = await this.usage(accountId, launched);
    this.deadlines.set(accountId, this.now() + (remainingSeconds * 1000) / launched.length);
  }

  /** After a restart: deadlines for every account with live sessions. */
  async recomputeAll(): Promise<void> {
    for (const accountId of await this.store.accountsWithLiveSessions()) await this.recompute(accountId);
  }

  /**
   * Become (or stop being) the instance that ends exhausted accounts' sessions. On becoming it,
   * the deadlines are computed afresh from the store: other instances' changes are in it.
   */
  async enforce(on: boolean): Promise<void> {
    this.enforcing = on;
    this.exhaustedAt.clear();
    if (on) await this.recomputeAll();
  }

  close(): void {
    clearInterval(this.timer);
  }

  private async guardedTick(): Promise<void> {
    // One tick at a time: a slow store must not stack them up.
    if (this.ticking) return;
    this.ticking = true;
    try {
      await this.tick();
      this.reporter?.recovered('quota');
    } catch (error) {
      if (!this.reporter) throw error;
      this.reporter.failed('quota', error);
    } finally {
      this.ticking = false;
    }
  }

  private async tick(): Promise<void> {
    if (!this.enforcing) return;
    const now = this.now();
    for (const [accountId, deadline] of this.deadlines) {
      if (deadline > now) continue;
      this.deadlines.delete(accountId);
      // A deadline is an estimate from the last change; confirm before acting on it.
      if ((await this.usage(accountId)).remainingSeconds > 0) {
        await this.recompute(accountId);
        continue;
      }
      if (this.policy.terminate && !this.exhaustedAt.has(accountId)) this.exhaustedAt.set(accountId, now);
    }
    for (const [accountId, at] of this.exhaustedAt) {
      if (now - at < this.policy.graceMs) continue;
      this.exhaustedAt.delete(accountId);
      this.onExhausted(accountId);
      // Should any session outlive the ending (it failed), the next tick finds it again.
      await this.recompute(accountId);
    }
  }
}
