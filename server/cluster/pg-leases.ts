/**
 * Expiring leases in a table: a row per lease with its holder and an expiry in the database's
 * clock (so instances' clocks need not agree). An instance takes every lease it wants that is
 * free or expired, and renews those it holds, in one statement per round (names sorted, so two
 * instances lock rows in the same order). A holder that dies stops renewing and its leases are
 * taken over once they expire. A holder that cannot reach the database gives its leases up
 * (lost()) before they can expire, so two instances never both believe they hold one.
 */
import type pg from 'pg';
import { registerClaim, setHeld, type ClaimState } from './claims.js';
import type { Claim, ClaimEvents } from './coordination.js';

export const LEASES_TABLE = `CREATE TABLE IF NOT EXISTS cluster_leases (
  name text PRIMARY KEY,
  holder text NOT NULL,
  expires_at timestamptz NOT NULL,
  -- Incremented each time the lease changes hands.
  fence bigint NOT NULL DEFAULT 1
)`;

const TAKE_OR_RENEW = `
INSERT INTO cluster_leases AS l (name, holder, expires_at)
SELECT name, $2, clock_timestamp() + $3 * interval '1 millisecond' FROM unnest($1::text[]) AS name
ON CONFLICT (name) DO UPDATE
  SET holder = excluded.holder,
      expires_at = excluded.expires_at,
      fence = l.fence + CASE WHEN l.holder = excluded.holder THEN 0 ELSE 1 END
  WHERE l.holder = excluded.holder OR l.expires_at < clock_timestamp()
RETURNING name`;

interface Wanted extends ClaimState {
  /** Monotonic time the last successful renewal was sent: the lease runs at least until then + ttl. */
  renewedAt: number;
}

export interface LeaseTimings {
  /** How long a lease lasts without renewal. */
  leaseMs: number;
  /** How often leases are renewed and free ones tried (a fifth of leaseMs, say; under a third). */
  renewEveryMs: number;
}

export class TableLeases {
  private readonly wanted = new Map<string, Wanted>();
  private readonly timer: NodeJS.Timeout;
  private inFlight = false;

  constructor(
    private readonly pool: pg.Pool,
    private readonly holder: string,
    private readonly timings: LeaseTimings,
    private readonly onError: (error: unknown) => void,
  ) {
    this.timer = setInterval(() => void this.round(), timings.renewEveryMs);
    this.timer.unref();
  }

  claim(name: string, events: ClaimEvents): Claim {
    const claim = registerClaim(this.wanted, name, { events, held: false, renewedAt: 0 }, () => this.giveBack([name]));
    void this.round();
    return claim;
  }

  /** Renew what is held, try what is free. */
  async round(): Promise<void> {
    this.giveUpStale();
    if (this.inFlight || this.wanted.size === 0) return;
    this.inFlight = true;
    const sentAt = performance.now();
    const names = [...this.wanted.keys()].sort();
    try {
      const result = await this.pool.query<{ name: string }>(TAKE_OR_RENEW, [names, this.holder, this.timings.leaseMs]);
      const held = new Set(result.rows.map((row) => row.name));
      for (const name of names) {
        const entry = this.wanted.get(name);
        if (!entry) continue;
        if (held.has(name)) entry.renewedAt = sentAt;
        setHeld(entry, held.has(name));
      }
    } catch (error) {
      this.onError(error);
    } finally {
      this.inFlight = false;
    }
  }

  /** Stop, and hand back what is held so others need not wait for the expiry. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    const held = [...this.wanted].filter(([, entry]) => entry.held).map(([name]) => name);
    for (const entry of this.wanted.values()) setHeld(entry, false);
    this.wanted.clear();
    if (held.length > 0) await this.giveBack(held);
  }

  /** Expire our leases now, so others need not wait. */
  private async giveBack(names: string[]): Promise<void> {
    await this.pool
      .query(`UPDATE cluster_leases SET expires_at = '-infinity' WHERE holder = $1 AND name = ANY($2::text[])`, [this.holder, names])
      .catch(this.onError);
  }

  /**
   * Leases not renewed for most of their time may soon be someone else's: stop using them. This
   * runs once a round, so it may run a round late: the margin is two rounds.
   */
  private giveUpStale(): void {
    const deadline = performance.now() - (this.timings.leaseMs - 2 * this.timings.renewEveryMs);
    for (const entry of this.wanted.values()) {
      if (entry.renewedAt < deadline) setHeld(entry, false);
    }
  }
}
