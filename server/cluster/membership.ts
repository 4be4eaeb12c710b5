/**
 * An instance joining the others on one PostgreSQL: what it shares over the bus (token
 * verdicts, session events), what it does only while leading (quota enforcement, retention and
 * pruning), and which accounts' webhooks it delivers (those whose lease it holds). Alone (the
 * local coordination) nothing changes: it leads everything and delivers everything.
 */
import type { Claim, Coordination, LeaseFence } from './coordination.js';
import { shareSessionEvents, shareTokenVerdicts } from './share.js';
import { WebhookLeases } from './webhook-leases.js';

export const ROLES = { quota: 'quota-enforcer', retention: 'retention' } as const;
/**
 * How often open streams read the log regardless of announcements: an announcement can arrive
 * before its event is readable, or die with the instance that was to send it.
 */
const SWEEP_MS = 1000;

export interface MemberParts {
  tokens: { onForget(listener: () => void): void; forgetVerifiedElsewhere(): void };
  sessions: { onChange(listener: (change: { session: { accountId: string } }) => void): () => void };
  quota: { enforce(on: boolean): unknown; recompute(accountId: string): unknown };
  webhooks: { notify(accountId: string): void };
  accountsWithSubscriptions: () => string[] | Promise<string[]>;
  /** Another instance's events, or a resync: open event streams read the log. */
  events: { poke(accountId: string): void; pokeAll(): void };
  onError: (error: unknown) => void;
}

export interface Membership {
  /** Whether this instance runs retention and event pruning now. */
  prunes(): boolean;
  /** Whether this instance delivers the account's webhooks now. */
  delivers(accountId: string): boolean;
  /** Whether it still holds the account's webhook lease, in the generation it gained (asked of the database before each POST). */
  confirmsDelivery(accountId: string): Promise<boolean>;
  /** The account's webhook lease as held now: the delivery's writes land only while it still is (after a long POST, say). */
  deliveryFence(accountId: string): LeaseFence | undefined;
  close(): Promise<void>;
}

export function joinCluster(coordination: Coordination, parts: MemberParts): Membership {
  shareTokenVerdicts(coordination, parts.tokens, parts.onError);
  let quotaClaim: Claim | undefined;
  const enforce = (on: boolean) => void Promise.resolve(parts.quota.enforce(on)).catch(parts.onError);
  shareSessionEvents(
    coordination,
    parts.sessions,
    {
      account(accountId) {
        parts.events.poke(accountId);
        parts.webhooks.notify(accountId);
        // The enforcer keeps the deadlines of every account, whichever instance changed it.
        if (quotaClaim?.held) void Promise.resolve(parts.quota.recompute(accountId)).catch(parts.onError);
      },
      everything() {
        parts.events.pokeAll();
        if (quotaClaim?.held) enforce(true);
      },
    },
    parts.onError,
  );
  // Until elected, another instance enforces.
  enforce(false);
  quotaClaim = coordination.lead(ROLES.quota, { gained: () => enforce(true), lost: () => enforce(false) });
  const retention = coordination.lead(ROLES.retention, { gained: () => {}, lost: () => {} });
  const leases = new WebhookLeases(coordination, parts.accountsWithSubscriptions, (accountId) => parts.webhooks.notify(accountId), parts.onError);
  const sweep = setInterval(() => parts.events.pokeAll(), SWEEP_MS);
  sweep.unref();
  return {
    prunes: () => retention.held,
    delivers: (accountId) => leases.holds(accountId),
    confirmsDelivery: (accountId) => leases.confirm(accountId),
    deliveryFence: (accountId) => leases.fence(accountId),
    async close() {
      clearInterval(sweep);
      await leases.close();
      await quotaClaim?.release();
      await retention.release();
    },
  };
}
