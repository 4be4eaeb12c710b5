import { randomBytes, randomUUID } from 'node:crypto';
import type { Handlers } from '../../../generated/handlers.js';
import type { EgressGuard } from '../../events/egress-guard.js';
import { canonicalUrl, type SubscriptionRepository } from '../../events/subscriptions.js';
import type { SecretBox } from '../../security/secret-box.js';
import type { RequestContext } from '../context.js';
import { fail } from '../errors.js';
import { iso } from '../wire/time.js';

const DELIVERY_LOG_LIMIT = 100;

type SubscriptionOperations = 'createSubscription' | 'listSubscriptions' | 'getSubscription' | 'deleteSubscription' | 'listDeliveries';

export interface SubscriptionDependencies {
  subscriptions: SubscriptionRepository;
  /** A new subscription receives the events after this one. */
  latestEventId: () => Promise<number>;
  box: SecretBox;
  now: () => number;
  /** Subscriptions one account may have. */
  perAccount: number;
  /** Where webhooks may go. */
  guard: Pick<EgressGuard, 'check'>;
}

export function subscriptionHandlers({
  subscriptions,
  latestEventId,
  box,
  now,
  perAccount,
  guard,
}: SubscriptionDependencies): Pick<Handlers, SubscriptionOperations> {
  const unknown = (context: RequestContext, id: string) =>
    fail(context, 'RESOURCE_NOT_FOUND', { details: `subscription ${id} is unknown` });
  return {
    async createSubscription({ body }, context) {
      const tooMany = () => fail(context, 'CONFLICT', { details: `the account has ${perAccount} subscriptions, the most allowed; delete one first` });
      // Early, before the url's lookup; the insert checks again, exactly (racing creates).
      if ((await subscriptions.listForAccount(context.principal.accountId)).length >= perAccount) return tooMany();
      const verdict = await guard.check(body.url, context.principal.accountId);
      if (!verdict.ok) return fail(context, 'INVALID_REQUEST', { violations: [{ field: 'body.url', description: verdict.why }] });
      const id = `sub_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
      const secret = `whsec_${randomBytes(24).toString('base64url')}`;
      const created = now();
      // Parsed already by the guard. One subscription per receiver: 25 copies of one url made every
      // session change 25 POSTs to it (a start and stop ~75), signed by this service.
      const url = canonicalUrl(body.url);
      const inserted = await subscriptions.insert(
        { id, accountId: context.principal.accountId, url, created, cursor: await latestEventId(), attempt: 1, due: 0 },
        box.seal(secret, id),
        // As many deleted ones kept (their delivery logs) as live ones allowed.
        { max: perAccount, keepDeleted: perAccount },
      );
      if (inserted === 'full') return tooMany();
      if (inserted === 'duplicate') {
        // Named, so a client that registers at each boot can keep the one it has.
        const same = (await subscriptions.listForAccount(context.principal.accountId)).find((s) => s.url === url);
        return fail(context, 'CONFLICT', { details: `subscription ${same?.id ?? '(just deleted)'} has this url already` });
      }
      return { status: 201, body: { id, url, created: iso(created), secret } };
    },

    async listSubscriptions(_request, context) {
      const list = await subscriptions.listForAccount(context.principal.accountId);
      return { status: 200, body: { subscriptions: list.map((s) => ({ id: s.id, url: s.url, created: iso(s.created) })) } };
    },

    async getSubscription({ params }, context) {
      const found = await subscriptions.find(context.principal.accountId, params.id);
      if (!found) return unknown(context, params.id);
      return { status: 200, body: { id: found.id, url: found.url, created: iso(found.created) } };
    },

    async deleteSubscription({ params }, context) {
      if (!(await subscriptions.find(context.principal.accountId, params.id))) return unknown(context, params.id);
      await subscriptions.delete(params.id, now());
      return { status: 204 };
    },

    async listDeliveries({ params }, context) {
      if (!(await subscriptions.find(context.principal.accountId, params.id))) return unknown(context, params.id);
      const deliveries = (await subscriptions.deliveries(params.id, DELIVERY_LOG_LIMIT)).map((d) => ({
        id: `dlv_${d.id}`,
        event_id: String(d.eventId),
        attempt: d.attempt,
        at: iso(d.at),
        ok: d.ok,
        status_code: d.statusCode,
        error: d.error,
      }));
      return { status: 200, body: { deliveries } };
    },
  };
}
