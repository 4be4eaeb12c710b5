/** A webhook dispatcher as the tests use it: loopback receivers allowed, a short backoff, every account active. */
import { EgressGuard } from '../../server/events/egress-guard.js';
import { WebhookDispatcher, type WebhookOptions } from '../../server/events/webhooks.js';

export function testDispatcher(options: Pick<WebhookOptions, 'subscriptions' | 'box' | 'events'> & Partial<WebhookOptions>): WebhookDispatcher {
  return new WebhookDispatcher({
    body: () => '{}',
    now: Date.now,
    backoffMs: 100,
    onError: () => {},
    guard: new EgressGuard(['127.0.0.0/8']),
    isAccountActive: async () => true,
    ...options,
  });
}
