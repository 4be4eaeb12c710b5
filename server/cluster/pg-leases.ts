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
RETURNING name, fence`;

/** Ours, in the generation we gained, and not expired (a fencing check before work done once). */
const CONFIRM = `SELECT 1 FROM cluster_leases WHERE name = $1 AND holder = $2 AND fence = $3 AND expires_at > clock_timestamp()`;

interface Wanted extends ClaimState {
  /** Monotonic time the last successful renewal was sent: the lease runs at least until then + ttl. */
  renewedAt: number;
  /** The lease's generation (`fence`) when it was gained: another holder in between changes it. */
  generation: number;
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
    /** Renewals only: nothing else queues in front of them. */
    private readonly pool: pg.Pool,
    /** Confirmations (one before each webhook POST): many, so never on the renewals' connection. */
    private readonly confirmPool: pg.Pool,
    private readonly holder: string,
    private readonly timings: LeaseTimings,
    private readonly onError: (error: unknown) => void,
  ) {
    this.timer = setInterval(() => void this.round(), timings.renewEveryMs);
    this.timer.unref();
  }

  claim(name: string, events: ClaimEvents): Claim {
    const state: Wanted = { events, held: false, renewedAt: 0, generation: 0 };
    const claim = registerClaim(
      this.wanted,
      name,
      state,
      () => this.giveBack([name]),
      async () => {
        const result = await this.confirmPool.query(CONFIRM, [name, this.holder, state.generation]).catch((error: unknown) => (this.onError(error), undefined));
        return (result?.rowCount ?? 0) > 0;
      },
      () => ({ name, holder: this.holder, generation: state.generation }),
    );
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
      const result = await this.pool.query<{ name: string; fence: string }>(TAKE_OR_RENEW, [names, this.holder, this.timings.leaseMs]);
      const held = new Map(result.rows.map((row) => [row.name, Number(row.fence)]));
      for (const name of names) {
        const entry = this.wanted.get(name);
        if (!entry) continue;
        const generation = held.get(name);
        if (generation !== undefined) {
          entry.renewedAt = sentAt;
          // Taken over and back since the last round (we never saw it lost): a new generation, told as lost then gained.
          if (entry.held && entry.generation !== generation) setHeld(entry, false);
          entry.generation = generation;
        }
        setHeld(entry, generation !== undefined);
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
