/**
 * Webhook deliveries are fenced by the lease's generation: an instance that still believes it
 * holds an account's lease (paused past its expiry, its next renewal not yet due) while another
 * instance has taken it over does not POST; it asks the database first. And a POST that
 * outlasts the lease (another instance took it over meanwhile) writes nothing afterwards: on
 * PostgreSQL the delivery's record, the cursor's advance and the retry land only while the lease
 * is held in the generation the delivery began under. (That a stale holder's retry cannot land
 * on a cursor that moved on is in the store contract test.)
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PostgresCoordination } from '../../server/cluster/postgres.js';
import { WebhookLeases } from '../../server/cluster/webhook-leases.js';
import type { StoredEvent } from '../../server/domain/ports/sessions.js';
import type { SubscriptionRepository } from '../../server/events/subscriptions.js';
import type { WebhookDispatcher } from '../../server/events/webhooks.js';
import { SecretBox } from '../../server/security/secret-box.js';
import { openDatabase } from '../../server/store/sqlite.js';
import { createSqliteStore } from '../../server/store/sqlite-store.js';
import { openPostgresStore } from '../../server/store/postgres/store.js';
import { eventually } from '../support/eventually.mjs';
import { testDispatcher } from '../support/webhooks.js';
import { clusterTestsMissing } from '../support/cluster/haproxy.js';
import { useDatabase } from '../support/use-database.js';

const eventNumber = (id: number) => ({ id, status: 'running', previous: 'created', at: 0, session: {} }) as unknown as StoredEvent;

const missing = clusterTestsMissing();
describe.skipIf(missing)(`webhook fencing${missing ? ` (skipped: ${missing})` : ''}`, () => {
  const postgres = useDatabase('webhook_fencing');
  const cleanups: (() => unknown)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  /**
   * An instance delivering the account's webhooks under its lease (events 1 to `latest`), its
   * leases renewed only every 20 s: between rounds, `held` is what it last saw. `confirmations`
   * counts its lease checks (one before each POST).
   */
  async function deliveringUnderLease(
    instanceId: string,
    accountId: string,
    parts: { subscriptions: SubscriptionRepository; box: SecretBox; latest: () => number },
  ): Promise<{ dispatcher: WebhookDispatcher; holds: (accountId: string) => boolean; confirmations: () => number }> {
    const coordination = await PostgresCoordination.start({ databaseUrl: postgres.url, instanceId, leases: { leaseMs: 60_000, renewEveryMs: 20_000 } });
    cleanups.push(() => coordination.close());
    let dispatcher: WebhookDispatcher | undefined;
    const leases = new WebhookLeases(coordination, () => [accountId], (account) => dispatcher?.notify(account), () => {});
    cleanups.push(() => leases.close());
    let confirmations = 0;
    dispatcher = testDispatcher({
      subscriptions: parts.subscriptions,
      events: { eventsAfter: async (_account, cursor) => (cursor < parts.latest() ? [eventNumber(cursor + 1)] : []) },
      box: parts.box,
      mayDeliver: (account) => leases.holds(account),
      confirmLease: (account) => (confirmations++, leases.confirm(account)),
      leaseFence: (account) => leases.fence(account),
    });
    const started = dispatcher;
    cleanups.push(() => started.close());
    return { dispatcher: started, holds: (account) => leases.holds(account), confirmations: () => confirmations };
  }

  it('keeps an instance whose lease was taken over from posting, though it still believes it holds it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fencing-'));
    const db = openDatabase(join(dir, 'service.db'));
    db.pragma('foreign_keys = OFF');
    cleanups.push(() => (db.close(), rmSync(dir, { recursive: true, force: true })));
    const box = SecretBox.fromKey(randomBytes(32));
    const { subscriptions } = createSqliteStore(db);

    const posted: string[] = [];
    const server = createServer((request, response) => {
      posted.push(String(request.headers['webhook-id']));
      request.resume();
      response.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => server.close());
    const hook = `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`;
    await subscriptions.insert({ id: 'sub', accountId: 'acc', url: hook, created: 0, cursor: 0, attempt: 1, due: 0 }, box.seal('whsec_test', 'sub'), { max: 25, keepDeleted: 25 });

    let latest = 1;
    const holder = await deliveringUnderLease('stale', 'acc', { subscriptions, box, latest: () => latest });

    await eventually(() => posted.length === 1, { what: 'the first event delivered by the lease holder' });
    expect(posted).toEqual(['sub:1']);

    // Another instance takes the lease over (as it would once this one, paused, let it expire).
    await postgres.admin.query(
      "UPDATE cluster_leases SET holder = 'other', fence = fence + 1, expires_at = clock_timestamp() + interval '1 minute' WHERE name = 'webhooks:acc'",
    );
    expect(holder.holds('acc')).toBe(true);
    latest = 2;
    const before = holder.confirmations();
    holder.dispatcher.notify('acc');
    await eventually(() => holder.confirmations() > before, { what: 'the stale holder considering event 2' });
    // Settled: the delivery it considered was dropped, not merely late.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(posted).toEqual(['sub:1']);
    expect((await subscriptions.find('acc', 'sub'))?.cursor).toBe(1);
  });

  it('writes nothing after a POST that outlasted the lease: no delivery record, no advance, no retry', async () => {
    const store = await openPostgresStore(postgres.url);
    cleanups.push(() => store.close());
    const box = SecretBox.fromKey(randomBytes(32));
    const { subscriptions } = store;
    await store.accounts.insert({ id: 'slow', name: 'slow', email: null, quotaMinutes: 60, usedSeconds: 0, operator: false, disabled: false, created: 0 });

    // Holds every POST until told: the one answered 200 would advance, the one answered 500 would retry.
    const held = new Map<string, ServerResponse>();
    const server = createServer((request, response) => {
      held.set(String(request.headers['webhook-id']), response);
      request.resume();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => (server.closeAllConnections(), server.close()));
    const hook = `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`;
    for (const id of ['answered-ok', 'answered-500']) {
      await subscriptions.insert({ id, accountId: 'slow', url: `${hook}?${id}`, created: 0, cursor: 0, attempt: 1, due: 0 }, box.seal('whsec_test', id), { max: 25, keepDeleted: 25 });
    }

    const holder = await deliveringUnderLease('slow-poster', 'slow', { subscriptions, box, latest: () => 1 });
    await eventually(() => held.size === 2, { what: 'both POSTs under way' });

    // While they hang, another instance takes the lease over; then the receiver answers.
    await postgres.admin.query("UPDATE cluster_leases SET holder = 'other', fence = fence + 1 WHERE name = 'webhooks:slow'");
    const before = holder.confirmations();
    held.get('answered-ok:1')!.end();
    held.get('answered-500:1')!.writeHead(500).end();
    // Each delivery done (its writes made or fenced off), the dispatcher looks at its subscription again.
    await eventually(() => holder.confirmations() >= before + 2, { what: 'both deliveries finished' });

    for (const id of ['answered-ok', 'answered-500']) {
      expect(await subscriptions.find('slow', id)).toMatchObject({ cursor: 0, attempt: 1, due: 0 });
      expect(await subscriptions.deliveries(id, 10)).toEqual([]);
    }
  });
});
