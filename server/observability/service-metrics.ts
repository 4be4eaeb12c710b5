/**
 * The counts that come from the service's own events rather than from HTTP: start-to-running
 * (from state changes), runtime events by type, webhook delivery results and lag. Attached at
 * wiring time through the listeners and ports those parts already have.
 */
import type { StoredEvent } from '../domain/ports/sessions.js';
import type { Sessions } from '../domain/sessions.js';
import type { SubscriptionRepository } from '../events/subscriptions.js';
import type { Runtime } from '../domain/ports/runtime.js';
import { deliveryResult, type Metrics } from './metrics.js';

export function countSessionEvents(metrics: Metrics, sessions: Pick<Sessions, 'onChange'>, runtime: Pick<Runtime, 'onEvent'>): void {
  sessions.onChange(({ session, previous, at }) => {
    // The first `running` only: a restart's is not a start.
    if (previous === 'created' && session.status === 'running') {
      metrics.startToRunning.observe({ location: session.location }, Math.max(0, at - session.created) / 1000);
    }
  });
  runtime.onEvent((event) => metrics.runtimeEvents.inc({ type: event.type }));
}

/** The subscription store, counting each delivery attempt as it is recorded. */
export function countDeliveries(metrics: Metrics, subscriptions: SubscriptionRepository): SubscriptionRepository {
  return {
    ...subscriptions,
    async recordDelivery(subscriptionId, delivery, keep, fence) {
      metrics.webhookDeliveries.inc({ result: deliveryResult(delivery.ok, delivery.statusCode) });
      await subscriptions.recordDelivery(subscriptionId, delivery, keep, fence);
    },
  };
}

/** Observes how late a delivery attempt is (called as its body is made, just before it is sent). */
export function deliveryLag(metrics: Metrics, now: () => number): (event: StoredEvent) => void {
  return (event) => metrics.webhookLag.observe(Math.max(0, now() - event.at) / 1000);
}
