/**
 * Leadership by PostgreSQL session-level advisory locks on the dedicated connection: the
 * instance holding a role's lock leads it. The lock dies with the connection, so when the
 * leader dies (or its connection drops) another instance takes the role on its next try.
 */
import { registerClaim, setHeld, type ClaimState } from './claims.js';
import type { Claim, ClaimEvents } from './coordination.js';
import type { DedicatedConnection } from './pg-connection.js';

/** Advisory lock keys are (class, object): one class for this service's roles. */
const LOCK_CLASS = 0x5e55;

type Role = ClaimState;

export class AdvisoryLeadership {
  private readonly roles = new Map<string, Role>();
  private readonly timer: NodeJS.Timeout;
  private trying = false;

  constructor(
    private readonly connection: DedicatedConnection,
    tryEveryMs: number,
  ) {
    this.timer = setInterval(() => void this.tryAll(), tryEveryMs);
    this.timer.unref();
  }

  claim(role: string, events: ClaimEvents): Claim {
    const claim = registerClaim(this.roles, role, { events, held: false }, async () => {
      await this.connection.query('SELECT pg_advisory_unlock($1, hashtext($2))', [LOCK_CLASS, role]);
    });
    void this.tryAll();
    return claim;
  }

  /** The connection dropped: every lock went with it. */
  dropped(): void {
    for (const role of this.roles.values()) setHeld(role, false);
  }

  /** Try to take every role not held (after a reconnect too). */
  async tryAll(): Promise<void> {
    if (this.trying || !this.connection.connected) return;
    this.trying = true;
    try {
      // A leader with nothing to try still checks that its connection (and so its locks) is alive.
      if ([...this.roles.values()].every((role) => role.held)) {
        await this.connection.query('SELECT 1');
        return;
      }
      for (const [name, role] of this.roles) {
        if (role.held) continue;
        const result = await this.connection.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked', [LOCK_CLASS, name]);
        if (!result?.rows[0]?.locked) continue;
        if (this.roles.get(name) !== role) {
          // Released while we asked: give the lock straight back.
          await this.connection.query('SELECT pg_advisory_unlock($1, hashtext($2))', [LOCK_CLASS, name]);
          continue;
        }
        setHeld(role, true);
      }
    } finally {
      this.trying = false;
    }
  }

  close(): void {
    clearInterval(this.timer);
    this.dropped();
    this.roles.clear();
  }
}
