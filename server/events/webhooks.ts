/**
 * Delivers session events to webhook subscriptions. Each subscription has a cursor in the
 * account's event log (durable: events are written with the state change), so every event is
 * delivered in order, at least once, across restarts. A failed delivery is retried with
 * exponential backoff; after the last attempt the event is given up and the cursor moves on.
 * Each POST is signed: `Webhook-Signature: t=<unix s>,v1=<hex HMAC-SHA256("<t>.<body>")>`.
 */
import { createHmac } from 'node:crypto';
import type { LeaseFence } from '../cluster/coordination.js';
import type { SessionRepository, StoredEvent } from '../domain/ports/sessions.js';
import type { SecretBox } from '../security/secret-box.js';
import type { EgressGuard } from './egress-guard.js';
import type { SubscriptionRecord, SubscriptionRepository } from './subscriptions.js';
import { isHostFault } from '../host-fault.js';
import { postWebhook } from './webhook-post.js';

export const MAX_ATTEMPTS = 8;
/**
 * Delivery records kept per subscription, newest first (besides the retention's age prune):
 * trimmed as each is recorded, as the audit log is, so the bound is exact on every instance and
 * costs one short index walk per attempt, next to the POST it records.
 */
export const DELIVERIES_KEPT = 1_000;
const TIMEOUT_MS = 10_000;

export function signature(secret: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', secret).update(`${timestampSeconds}.${body}`).digest('hex');
  return `t=${timestampSeconds},v1=${mac}`;
}

export interface WebhookOptions {
  subscriptions: SubscriptionRepository;
  events: Pick<SessionRepository, 'eventsAfter'>;
  box: SecretBox;
  /** The delivery body of an event. */
  body: (event: StoredEvent) => string;
  now: () => number;
  /** The first retry waits this long; each next one twice as long. */
  backoffMs: number;
  onError: (error: unknown) => void;
  /** A delivery was recorded (after failures: the store takes writes again). */
  onRecorded?: () => void;
  /** Where deliveries may connect. */
  guard: EgressGuard;
  /** A disabled account's subscriptions pause. */
  isAccountActive: (accountId: string) => Promise<boolean>;
  /** With several instances, whether this one delivers the account's webhooks now (it holds the account's lease). */
  mayDeliver?: (accountId: string) => boolean;
  /**
   * With several instances, asked of the database right before each POST: whether this instance
   * still holds the account's lease in the generation it gained. An instance paused past its
   * lease (while another took over and delivered) still believes it holds it; it must not POST.
   */
  confirmLease?: (accountId: string) => Promise<boolean>;
  /** With several instances, the account's lease as held now: the delivery's writes land only while it still is. */
  leaseFence?: (accountId: string) => LeaseFence | undefined;
}

/** How often paused (disabled) accounts are asked whether they are enabled again. */
const PAUSED_CHECK_MS = 2000;

/**
 * Wakes only for accounts with something to deliver: a new event (notify()), a retry falling
 * due (one timer per waiting subscription), a delivery finishing (there may be more behind
 * it). Idle subscriptions, however many, cost nothing. A disabled account's subscriptions are
 * paused (nothing is delivered, nothing is lost: their cursors stay) until it is enabled again.
 */
export class WebhookDispatcher {
  private readonly inFlight = new Set<string>();
  /** Accounts whose subscriptions may have events to deliver. */
  private readonly pending = new Set<string>();
  private readonly paused = new Set<string>();
  /** Retry timers, by subscription id. */
  private readonly retries = new Map<string, NodeJS.Timeout>();
  private readonly pausedCheck: NodeJS.Timeout;
  private scheduled = false;
  private closed = false;
  /**
   * A read of the store failed (reported through onError, which marks the dispatcher failing):
   * cleared, and told through onRecorded, by the next pass whose reads work. Only a delivery's
   * record told it before, so with nothing to deliver the dispatcher stayed failing, and /readyz
   * down, for good after a database outage (outside check).
   */
  private readFault = false;

  constructor(private readonly options: WebhookOptions) {
    this.wakeUndelivered();
    this.pausedCheck = setInterval(() => void this.resumeEnabled(), PAUSED_CHECK_MS);
    this.pausedCheck.unref();
  }

  /** After a start: whatever was left undelivered; asked again after a backoff while the store cannot say. */
  private wakeUndelivered(): void {
    this.options.subscriptions.accountsWithSubscriptions().then(
      (accounts) => {
        this.readsWorked();
        accounts.forEach((accountId) => this.notify(accountId));
      },
      (error: unknown) => {
        this.failedToRead(error);
        if (!this.closed) setTimeout(() => this.wakeUndelivered(), this.options.backoffMs).unref();
      },
    );
  }

  /** The account has new events (called on every session change, and when a subscription is created). */
  notify(accountId: string): void {
    this.pending.add(accountId);
    if (this.scheduled || this.closed) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      // Closed meanwhile (a shutdown): the store may already be gone.
      if (!this.closed) void this.run();
    });
  }

  close(): void {
    this.closed = true;
    clearInterval(this.pausedCheck);
    for (const timer of this.retries.values()) clearTimeout(timer);
    this.retries.clear();
  }

  private async run(): Promise<void> {
    const accounts = [...this.pending];
    this.pending.clear();
    let readAll = true;
    for (const accountId of accounts) {
      // Another instance delivers this account's webhooks (it is told again when the lease is gained).
      if (this.options.mayDeliver && !this.options.mayDeliver(accountId)) continue;
      try {
        if (!(await this.options.isAccountActive(accountId))) {
          this.paused.add(accountId);
          continue;
        }
        for (const subscription of await this.options.subscriptions.activeForAccount(accountId)) void this.consider(subscription);
      } catch (error) {
        // The store could not be read (a fault): the account is looked at again after a backoff,
        // not forgotten until its next event.
        readAll = false;
        this.failedToRead(error);
        setTimeout(() => this.notify(accountId), this.options.backoffMs).unref();
      }
    }
    if (readAll) this.readsWorked();
  }

  private failedToRead(error: unknown): void {
    this.readFault = true;
    this.options.onError(error);
  }

  private readsWorked(): void {
    if (!this.readFault) return;
    this.readFault = false;
    this.options.onRecorded?.();
  }

  private async resumeEnabled(): Promise<void> {
    let readAll = true;
    for (const accountId of this.paused) {
      // A store fault leaves the account paused: the next check asks again.
      const active = await this.isActiveOrFault(accountId);
      if (active === undefined) readAll = false;
      if (!active) continue;
      this.paused.delete(accountId);
      this.notify(accountId);
    }
    if (readAll) this.readsWorked();
  }

  /** Undefined when the store could not say. */
  private async isActiveOrFault(accountId: string): Promise<boolean | undefined> {
    try {
      return await this.options.isAccountActive(accountId);
    } catch (error) {
      this.failedToRead(error);
      return undefined;
    }
  }

  private async consider(read: SubscriptionRecord & { sealed: Buffer }): Promise<void> {
    if (this.inFlight.has(read.id) || this.retries.has(read.id)) return;
    // In flight from here: a second wake-up meanwhile must not deliver the same event twice.
    this.inFlight.add(read.id);
    // One subscription's trouble (a secret that does not open, a bad row) is its own, never the
    // state change's that woke the dispatcher.
    try {
      // Read again: `read` may be from before a delivery of this subscription that has finished
      // since (its cursor stale), and would deliver that event a second time.
      const found = await this.options.subscriptions.find(read.accountId, read.id);
      if (!found) return;
      const subscription = { ...found, sealed: read.sealed };
      const untilDue = subscription.due - this.options.now();
      // A due time further out than the longest backoff was set before the clock stepped back:
      // it is due now (otherwise a step back would stall deliveries until the clock caught up).
      const wait = untilDue > this.options.backoffMs * 2 ** (MAX_ATTEMPTS - 1) ? 0 : untilDue;
      if (wait > 0) {
        this.wakeLater(subscription, wait);
        return;
      }
      const [event] = await this.options.events.eventsAfter(subscription.accountId, subscription.cursor, 1);
      if (!event) return;
      // Fenced: another instance holds the lease now (it delivers from the cursor in the store).
      // The POST may outlast the lease: what is written after it is fenced by the generation too.
      const fence = this.options.leaseFence?.(subscription.accountId);
      if (this.options.confirmLease && !(await this.options.confirmLease(subscription.accountId))) return;
      const secret = this.options.box.open(subscription.sealed, subscription.id);
      try {
        await this.deliver(subscription, secret, event, fence);
      } catch (error) {
        this.options.onError(error);
        // The store refused the outcome (a full disk): the same event goes again, but after a
        // backoff, never at once (that would POST to the receiver in a loop until space is back).
        this.wakeLater(subscription, this.options.backoffMs);
        return;
      }
      this.options.onRecorded?.();
      // There may be more events waiting behind this one.
      this.notify(subscription.accountId);
    } catch (error) {
      this.options.onError(error);
    } finally {
      this.inFlight.delete(read.id);
    }
  }

  private wakeLater(subscription: SubscriptionRecord, ms: number): void {
    if (this.closed) return;
    const timer = setTimeout(() => {
      this.retries.delete(subscription.id);
      this.notify(subscription.accountId);
    }, ms);
    timer.unref();
    this.retries.set(subscription.id, timer);
  }

  private async deliver(subscription: SubscriptionRecord, secret: string, event: StoredEvent, fence: LeaseFence | undefined): Promise<void> {
    const body = this.options.body(event);
    const at = this.options.now();
    let statusCode: number | null = null;
    let error: string | null = null;
    try {
      const headers = {
        'Content-Type': 'application/json',
        'Webhook-Signature': signature(secret, Math.floor(at / 1000), body),
        'Webhook-Id': `${subscription.id}:${event.id}`,
      };
      statusCode = await postWebhook(subscription.url, headers, body, { guard: this.options.guard, accountId: subscription.accountId, deadlineMs: TIMEOUT_MS });
    } catch (failure) {
      // This host's own fault (out of file descriptors or memory) says nothing of the receiver: it
      // spends no attempt (a few minutes of it gave the event up, never sent); consider() waits a backoff.
      if (isHostFault(failure)) throw failure;
      error = failure instanceof Error ? failure.message : String(failure);
    }
    const ok = statusCode !== null && statusCode >= 200 && statusCode < 300;
    const { subscriptions, now, backoffMs } = this.options;
    const delivery = { eventId: event.id, attempt: subscription.attempt, at, ok, statusCode, error };
    await subscriptions.recordDelivery(subscription.id, delivery, DELIVERIES_KEPT, fence);
    if (ok || subscription.attempt >= MAX_ATTEMPTS) {
      await subscriptions.advance(subscription.id, event.id, now(), fence);
    } else {
      const due = now() + backoffMs * 2 ** (subscription.attempt - 1);
      await subscriptions.retryLater(subscription.id, { cursor: subscription.cursor, attempt: subscription.attempt + 1, due }, fence);
    }
  }
}
