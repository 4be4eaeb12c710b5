/**
 * With several instances, one delivers an account's webhooks at a time: the holder of the
 * account's lease (`webhooks:<account>`). Every instance asks for the lease of every account
 * with subscriptions, so one of them holds each; when the holder dies its leases expire and
 * another instance takes them, and carries on from the subscriptions' cursors in the store.
 */
import type { Claim, Coordination, LeaseFence } from './coordination.js';

const REFRESH_MS = 2000;

export class WebhookLeases {
  private readonly claims = new Map<string, Claim>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly coordination: Coordination,
    private readonly accountsWithSubscriptions: () => string[] | Promise<string[]>,
    /** The lease of the account was gained: deliver what is waiting. */
    private readonly gained: (accountId: string) => void,
    private readonly onError: (error: unknown) => void,
  ) {
    this.timer = setInterval(() => void this.refresh(), REFRESH_MS);
    this.timer.unref();
    void this.refresh();
  }

  /** Whether this instance delivers the account's webhooks now; asks for its lease when not yet. */
  holds(accountId: string): boolean {
    const claim = this.claims.get(accountId);
    if (claim) return claim.held;
    this.want(accountId);
    return false;
  }

  /** Whether this instance still holds the account's lease in the generation it gained, asked of the database. */
  async confirm(accountId: string): Promise<boolean> {
    return (await this.claims.get(accountId)?.confirm()) ?? false;
  }

  /** The account's lease in the generation held now, for the delivery's fenced writes. */
  fence(accountId: string): LeaseFence | undefined {
    return this.claims.get(accountId)?.fence();
  }

  /**
   * Ask for the leases of accounts that have subscriptions, give up those of accounts that have
   * none, and look again at the accounts held (an announcement that arrived before its event was
   * readable, or was lost with a dying instance, costs a round's delay, never an event).
   */
  async refresh(): Promise<void> {
    try {
      const wanted = new Set(await this.accountsWithSubscriptions());
      for (const accountId of wanted) this.want(accountId);
      for (const [accountId, claim] of this.claims) {
        if (wanted.has(accountId)) {
          if (claim.held) this.gained(accountId);
          continue;
        }
        this.claims.delete(accountId);
        await claim.release();
      }
    } catch (error) {
      this.onError(error);
    }
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    const claims = [...this.claims.values()];
    this.claims.clear();
    for (const claim of claims) await claim.release();
  }

  private want(accountId: string): void {
    if (this.claims.has(accountId)) return;
    this.claims.set(accountId, this.coordination.lease(`webhooks:${accountId}`, { gained: () => this.gained(accountId), lost: () => {} }));
  }
}
