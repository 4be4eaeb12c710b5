/**
 * Lease renewals have a connection of their own: with the coordination's pool saturated (every
 * connection busy publishing or counting starts, more queued behind them), a held lease is
 * still renewed, never given up nor left to expire.
 */
import { describe, expect, it } from 'vitest';
import { PostgresCoordination } from '../../server/cluster/postgres.js';
import { eventually } from '../support/eventually.mjs';
import { clusterTestsMissing } from '../support/cluster/haproxy.js';
import { useDatabase } from '../support/use-database.js';

const LEASE_MS = 1500;
/** How long the pool stays saturated: several lease times. */
const BUSY_SECONDS = 4;

const missing = clusterTestsMissing();
describe.skipIf(missing)(`lease renewals${missing ? ` (skipped: ${missing})` : ''}`, () => {
  const db = useDatabase('lease_connection');

  it('go on while every connection of the coordination pool is busy', async () => {
    const coordination = await PostgresCoordination.start({ databaseUrl: db.url, instanceId: 'busy', leases: { leaseMs: LEASE_MS, renewEveryMs: LEASE_MS / 5 } });
    try {
      const log: string[] = [];
      const claim = coordination.lease('node:busy', { gained: () => log.push('gained'), lost: () => log.push('lost') });
      await eventually(() => claim.held, { what: 'the lease held' });
      // The pool's 4 connections sleep, and 4 more queries wait for one.
      const busy = Array.from({ length: 8 }, () => coordination.pool.query('SELECT pg_sleep($1)', [BUSY_SECONDS]));
      await eventually(
        async () => Number((await db.admin.query<{ n: string }>("SELECT count(*) AS n FROM pg_stat_activity WHERE query LIKE 'SELECT pg_sleep%' AND state = 'active'")).rows[0]!.n),
        { until: (n) => n === 4, what: 'the pool saturated' },
      );
      await Promise.all(busy);
      expect(log).toEqual(['gained']);
      expect(claim.held).toBe(true);
      const { rows } = await db.admin.query<{ holder: string; live: boolean }>(
        "SELECT holder, expires_at > clock_timestamp() AS live FROM cluster_leases WHERE name = 'node:busy'",
      );
      expect(rows).toEqual([{ holder: 'busy', live: true }]);
      expect(await claim.confirm()).toBe(true);
    } finally {
      await coordination.close();
    }
  });
});
