/** PostgreSQL side of webhook subscriptions and image tags (see ../subscription-repository.ts, ../image-tag-repository.ts). */
import type { LeaseFence } from '../../cluster/coordination.js';
import type { ImageTagStore } from '../../domain/ports/catalog.js';
import type { SubscriptionInsert, SubscriptionRepository } from '../../events/subscriptions.js';
import { DELIVERY_COLUMNS, deliveryFromRow, subscriptionFromRow, type DeliveryRow, type SubscriptionRow } from '../rows.js';
import { TRIM_SQL } from '../image-tag-repository.js';
import { value, type PgDb, type Sql } from './sql.js';

/**
 * `AND` the lease is still held in the writer's generation (appending its three values), so a
 * stale holder's write lands nowhere; nothing without a fence. The lease table is the
 * coordination's (server/cluster/pg-leases.ts), in the same database.
 */
function leaseStillHeld(fence: LeaseFence | undefined, values: unknown[]): string {
  if (!fence) return '';
  values.push(fence.name, fence.holder, fence.generation);
  const n = values.length;
  return ` AND EXISTS (SELECT 1 FROM cluster_leases WHERE name = $${n - 2} AND holder = $${n - 1} AND fence = $${n})`;
}

export function createPgSubscriptionRepository({ sql, transaction, unhurried }: PgDb): SubscriptionRepository {
  const deletedPastKept = `SELECT id FROM subscriptions WHERE account_id = $1 AND deleted IS NOT NULL ORDER BY deleted DESC, id OFFSET $2`;
  return {
    insert: (r, sealed, cap) =>
      transaction(async (): Promise<SubscriptionInsert> => {
        // Held to the commit, across instances: the account's next insert counts after this one's.
        await sql.run("SELECT pg_advisory_xact_lock(hashtextextended('subscriptions:' || $1, 0))", [r.accountId]);
        const held = (await value<number>(sql, 'SELECT count(*) FROM subscriptions WHERE account_id = $1 AND deleted IS NULL', [r.accountId]))!;
        const same = await value<number>(sql, 'SELECT 1 FROM subscriptions WHERE account_id = $1 AND deleted IS NULL AND url = $2', [r.accountId, r.url]);
        if (same !== undefined) return 'duplicate';
        if (held >= cap.max) return 'full';
        await sql.run('INSERT INTO subscriptions (id, account_id, url, sealed, created, cursor, attempt, due) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)', [
          r.id,
          r.accountId,
          r.url,
          sealed,
          r.created,
          r.cursor,
          r.attempt,
          r.due,
        ]);
        await sql.run(`DELETE FROM webhook_deliveries WHERE subscription_id IN (${deletedPastKept})`, [r.accountId, cap.keepDeleted]);
        await sql.run(`DELETE FROM subscriptions WHERE id IN (${deletedPastKept})`, [r.accountId, cap.keepDeleted]);
        return 'inserted';
      }),
    find: async (accountId, id) => {
      const [row] = await sql.rows<SubscriptionRow>('SELECT * FROM subscriptions WHERE id = $1 AND account_id = $2 AND deleted IS NULL', [id, accountId]);
      return row && subscriptionFromRow(row);
    },
    listForAccount: async (accountId) =>
      (await sql.rows<SubscriptionRow>('SELECT * FROM subscriptions WHERE account_id = $1 AND deleted IS NULL ORDER BY created DESC, id', [accountId])).map(subscriptionFromRow),
    activeForAccount: async (accountId) =>
      (await sql.rows<SubscriptionRow>('SELECT * FROM subscriptions WHERE account_id = $1 AND deleted IS NULL', [accountId])).map((row) => ({
        ...subscriptionFromRow(row),
        sealed: row.sealed,
      })),
    accountsWithSubscriptions: async () =>
      (await sql.rows<{ account_id: string }>('SELECT DISTINCT account_id FROM subscriptions WHERE deleted IS NULL')).map((r) => r.account_id),
    delete: async (id, at) => {
      await sql.run('UPDATE subscriptions SET deleted = $1 WHERE id = $2', [at, id]);
    },
    advance: async (id, cursor, due, fence) => {
      // Forward only (see the SQLite repository).
      const values = [cursor, due, id];
      await sql.run(`UPDATE subscriptions SET cursor = $1, attempt = 1, due = $2 WHERE id = $3 AND cursor < $1${leaseStillHeld(fence, values)}`, values);
    },
    retryLater: async (id, { cursor, attempt, due }, fence) => {
      const values = [attempt, due, id, cursor];
      await sql.run(`UPDATE subscriptions SET attempt = $1, due = $2 WHERE id = $3 AND cursor = $4${leaseStillHeld(fence, values)}`, values);
    },
    recordDelivery: async (id, d, keep, fence) => {
      const values = [id, d.eventId, d.attempt, d.at, d.ok ? 1 : 0, d.statusCode, d.error];
      // Typed: a SELECT's parameters are not typed by the INSERT's columns as VALUES' are.
      // Nothing for a subscription purged meanwhile (see the SQLite repository).
      const recorded = await sql.run(
        `INSERT INTO webhook_deliveries (subscription_id, event_id, attempt, at, ok, status_code, error)
         SELECT $1::text, $2::bigint, $3::integer, $4::bigint, $5::smallint, $6::integer, $7::text
         WHERE EXISTS (SELECT 1 FROM subscriptions WHERE id = $1::text)${leaseStillHeld(fence, values)}`,
        values,
      );
      // Apart (no transaction's round trips per attempt): a trim a fault skipped is made by the
      // next record. The first record past `keep` and older go (see the SQLite repository).
      if (recorded === 1) {
        await sql.run(
          `DELETE FROM webhook_deliveries WHERE subscription_id = $1 AND id <= (
             SELECT id FROM webhook_deliveries WHERE subscription_id = $1 ORDER BY id DESC LIMIT 1 OFFSET $2)`,
          [id, keep],
        );
      }
    },
    deliveries: async (id, limit) =>
      (
        await sql.rows<DeliveryRow>(
          `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE subscription_id = $1 ORDER BY id DESC LIMIT $2`,
          [id, limit],
        )
      ).map(deliveryFromRow),
    // Retention: a backlog may take long (the maintenance deadline).
    pruneDeliveries: (before) =>
      unhurried(async () => {
        await sql.run('DELETE FROM webhook_deliveries WHERE at < $1', [before]);
        await sql.run('DELETE FROM webhook_deliveries WHERE subscription_id IN (SELECT id FROM subscriptions WHERE deleted < $1)', [before]);
        await sql.run('DELETE FROM subscriptions WHERE deleted < $1', [before]);
      }),
    lowestCursors: async () =>
      new Map(
        (await sql.rows<{ account_id: string; cursor: number }>(
          'SELECT account_id, min(cursor) AS cursor FROM subscriptions WHERE deleted IS NULL GROUP BY account_id',
        )).map((row) => [row.account_id, row.cursor]),
      ),
  };
}

export function createPgImageTagRepository(sql: Sql): ImageTagStore {
  return {
    all: () => sql.rows('SELECT account_id AS "accountId", image, tag, registered FROM image_tags ORDER BY image, registered'),
    has: async (accountId, image, tag) =>
      (await sql.rows('SELECT 1 FROM image_tags WHERE account_id = $1 AND image = $2 AND tag = $3', [accountId, image, tag])).length > 0,
    register: async (accountId, image, tag, at, keep) => {
      await sql.run('INSERT INTO image_tags (account_id, image, tag, registered) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING', [accountId, image, tag, at]);
      // Apart: a trim a fault skipped is made by the next push.
      await sql.run(TRIM_SQL, [accountId, image, keep]);
    },
  };
}
