import type { DeliveryRecord, SubscriptionCap, SubscriptionInsert, SubscriptionRecord, SubscriptionRepository } from '../events/subscriptions.js';
import type { Db } from './sqlite.js';
import type { Sync } from './async.js';
import { DELIVERY_COLUMNS, deliveryFromRow, subscriptionFromRow, type DeliveryRow, type SubscriptionRow } from './rows.js';

/**
 * Per connection, the accounts that may have a subscription: those with one when the first store
 * opened it, and every account a subscription was inserted for since (never shrunk: a deletion
 * may yet roll back). An account outside it has none, so the dispatcher's look after each of its
 * session changes (issue 19: every start and stop) costs no query.
 */
const subscribers = new WeakMap<Db, Set<string>>();

export function createSubscriptionRepository(db: Db): Sync<SubscriptionRepository> {
  // One statement on the one connection: nothing can insert between its checks and its insert.
  const insert = db.prepare(
    `INSERT INTO subscriptions (id, account_id, url, sealed, created, cursor, attempt, due)
     SELECT @id, @accountId, @url, @sealed, @created, @cursor, @attempt, @due
     WHERE (SELECT count(*) FROM subscriptions WHERE account_id = @accountId AND deleted IS NULL) < @max
       AND NOT EXISTS (SELECT 1 FROM subscriptions WHERE account_id = @accountId AND deleted IS NULL AND url = @url)`,
  );
  // Why an insert did not land (read in its transaction, so the same rows it saw).
  const sameUrl = db.prepare('SELECT 1 FROM subscriptions WHERE account_id = ? AND deleted IS NULL AND url = ?').pluck();
  const DELETED_PAST_KEPT = `SELECT id FROM subscriptions WHERE account_id = @accountId AND deleted IS NOT NULL
     ORDER BY deleted DESC, id LIMIT -1 OFFSET @keepDeleted`;
  const trimDeletedDeliveries = db.prepare(`DELETE FROM webhook_deliveries WHERE subscription_id IN (${DELETED_PAST_KEPT})`);
  const trimDeleted = db.prepare(`DELETE FROM subscriptions WHERE id IN (${DELETED_PAST_KEPT})`);
  const purgeDeletedDeliveries = db.prepare(
    'DELETE FROM webhook_deliveries WHERE subscription_id IN (SELECT id FROM subscriptions WHERE deleted < ?)',
  );
  const purgeDeleted = db.prepare('DELETE FROM subscriptions WHERE deleted < ?');
  const find = db.prepare('SELECT * FROM subscriptions WHERE id = ? AND account_id = ? AND deleted IS NULL');
  const list = db.prepare('SELECT * FROM subscriptions WHERE account_id = ? AND deleted IS NULL ORDER BY created DESC, id');
  const activeForAccount = db.prepare('SELECT * FROM subscriptions WHERE account_id = ? AND deleted IS NULL');
  const accounts = db.prepare('SELECT DISTINCT account_id FROM subscriptions WHERE deleted IS NULL').pluck();
  const remove = db.prepare('UPDATE subscriptions SET deleted = ? WHERE id = ?');
  // Forward only: with several instances, a delivery finished late by one that lost the
  // account's lease must not move the cursor (and its retries) back behind the new holder's.
  const advance = db.prepare('UPDATE subscriptions SET cursor = ?, attempt = 1, due = ? WHERE id = ? AND cursor < ?');
  const retry = db.prepare('UPDATE subscriptions SET attempt = ?, due = ? WHERE id = ? AND cursor = ?');
  // A delivery that finishes after its subscription was purged records nothing (no orphan, no foreign-key error).
  const record = db.prepare(
    `INSERT INTO webhook_deliveries (subscription_id, event_id, attempt, at, ok, status_code, error)
     SELECT @id, @eventId, @attempt, @at, @ok, @statusCode, @error WHERE EXISTS (SELECT 1 FROM subscriptions WHERE id = @id)`,
  );
  // The cut is the first record past `keep` (webhook_deliveries_by_subscription walks to it); only it and older go.
  const trimDeliveries = db.prepare(
    `DELETE FROM webhook_deliveries WHERE subscription_id = @id AND id <= (
       SELECT id FROM webhook_deliveries WHERE subscription_id = @id ORDER BY id DESC LIMIT 1 OFFSET @keep)`,
  );
  const deliveries = db.prepare(
    `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE subscription_id = ? ORDER BY id DESC LIMIT ?`,
  );
  const pruneDeliveries = db.prepare('DELETE FROM webhook_deliveries WHERE at < ?');
  let mayHave = subscribers.get(db);
  if (!mayHave) subscribers.set(db, (mayHave = new Set(accounts.all() as string[])));
  const lowestCursors = db.prepare('SELECT account_id, min(cursor) AS cursor FROM subscriptions WHERE deleted IS NULL GROUP BY account_id');

  return {
    insert: db.transaction((r: SubscriptionRecord, sealed: Buffer, cap: SubscriptionCap): SubscriptionInsert => {
      mayHave.add(r.accountId);
      if (insert.run({ ...r, sealed, max: cap.max }).changes !== 1) return sameUrl.get(r.accountId, r.url) ? 'duplicate' : 'full';
      trimDeletedDeliveries.run({ accountId: r.accountId, keepDeleted: cap.keepDeleted });
      trimDeleted.run({ accountId: r.accountId, keepDeleted: cap.keepDeleted });
      return 'inserted';
    }),
    find: (accountId, id) => {
      const row = find.get(id, accountId) as SubscriptionRow | undefined;
      return row && subscriptionFromRow(row);
    },
    listForAccount: (accountId) => (list.all(accountId) as SubscriptionRow[]).map(subscriptionFromRow),
    activeForAccount: (accountId) =>
      !mayHave.has(accountId) ? [] : (activeForAccount.all(accountId) as SubscriptionRow[]).map((row) => ({ ...subscriptionFromRow(row), sealed: row.sealed })),
    accountsWithSubscriptions: () => accounts.all() as string[],
    delete: (id, at) => {
      remove.run(at, id);
    },
    advance: (id, cursor, due) => {
      advance.run(cursor, due, id, cursor);
    },
    retryLater: (id, { cursor, attempt, due }) => {
      retry.run(attempt, due, id, cursor);
    },
    recordDelivery: db.transaction((id: string, d: Omit<DeliveryRecord, 'id'>, keep: number) => {
      if (record.run({ id, eventId: d.eventId, attempt: d.attempt, at: d.at, ok: d.ok ? 1 : 0, statusCode: d.statusCode, error: d.error }).changes === 1) {
        trimDeliveries.run({ id, keep });
      }
    }),
    deliveries: (id, limit) => (deliveries.all(id, limit) as DeliveryRow[]).map(deliveryFromRow),
    pruneDeliveries: db.transaction((before: number) => {
      pruneDeliveries.run(before);
      purgeDeletedDeliveries.run(before);
      purgeDeleted.run(before);
    }),
    lowestCursors: () =>
      new Map((lowestCursors.all() as { account_id: string; cursor: number }[]).map((row) => [row.account_id, row.cursor])),
  };
}
