/**
 * Delivers session events to webhook subscriptions. Each subscription has a cursor in the
 * account's event log (durable: events are written with the state change), so every event is
 * delivered in order, at least once, across restarts. A failed delivery is retried with
 * exponential backoff; after the last attempt the event is given up and the cursor moves on.
 * Each POST is signed: `Webhook-Signature: t=<unix s>,v1=<hex HMAC-SHA256("<t>.<body>")>`.
 */
import { createHmac } from 'node:crypto';
import type { SessionRepository, StoredEvent } from '../domain/session-record.js';
import type { SecretBox } from '../security/secret-box.js';
import type { SubscriptionRecord, SubscriptionRepository } from './subscriptions.js';

export const MAX_ATTEMPTS = 8;
const TIMEOUT_MS = 10_000;
const POLL_MS = 250;

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
}

export class WebhookDispatcher {
  private readonly inFlight = new Set<string>();
  private readonly timer: NodeJS.Timeout;
  private closed = false;

  constructor(private readonly options: WebhookOptions) {
    this.timer = setInterval(() => this.kick(), POLL_MS);
    this.timer.unref();
  }

  /** Look for due deliveries now (called on every session change). */
  kick(): void {
    // A delivery that finishes after close() must not read the closed store.
    if (this.closed) return;
    const now = this.options.now();
    // A due time further out than the longest backoff was set before the clock stepped back:
    // it is due now (otherwise a step back would stall deliveries until the clock caught up).
    const longestWait = this.options.backoffMs * 2 ** (MAX_ATTEMPTS - 1);
    for (const subscription of this.options.subscriptions.active()) {
      const due = subscription.due - now > longestWait ? now : subscription.due;
      if (due > now || this.inFlight.has(subscription.id)) continue;
      // One subscription's trouble (a secret that does not open, a bad row) is its own, never the
      // state change's that kicked the dispatcher.
      try {
        const [event] = this.options.events.eventsAfter(subscription.accountId, subscription.cursor, 1);
        if (!event) continue;
        const secret = this.options.box.open(subscription.sealed, subscription.id);
        this.inFlight.add(subscription.id);
        void this.deliver(subscription, secret, event)
          .then(() => this.options.onRecorded?.(), (error: unknown) => this.options.onError(error))
          .finally(() => {
            this.inFlight.delete(subscription.id);
            // There may be more events waiting behind this one.
            setImmediate(() => this.kick());
          });
      } catch (error) {
        this.options.onError(error);
      }
    }
  }

  close(): void {
    this.closed = true;
    clearInterval(this.timer);
  }

  private async deliver(subscription: SubscriptionRecord, secret: string, event: StoredEvent): Promise<void> {
    const body = this.options.body(event);
    const at = this.options.now();
    let statusCode: number | null = null;
    let error: string | null = null;
    try {
      const response = await fetch(subscription.url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'Webhook-Signature': signature(secret, Math.floor(at / 1000), body),
          'Webhook-Id': `${subscription.id}:${event.id}`,
        },
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      statusCode = response.status;
      await response.body?.cancel();
    } catch (failure) {
      error = failure instanceof Error ? failure.message : String(failure);
    }
    const ok = statusCode !== null && statusCode >= 200 && statusCode < 300;
    const { subscriptions, now, backoffMs } = this.options;
    subscriptions.recordDelivery(subscription.id, { eventId: event.id, attempt: subscription.attempt, at, ok, statusCode, error });
    if (ok || subscription.attempt >= MAX_ATTEMPTS) {
      subscriptions.advance(subscription.id, event.id, now());
    } else {
      subscriptions.retryLater(subscription.id, subscription.attempt + 1, now() + backoffMs * 2 ** (subscription.attempt - 1));
    }
  }
}
