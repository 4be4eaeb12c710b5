/**
 * The SQLite store: today's synchronous repositories behind the async port. One connection, so
 * a transaction is BEGIN IMMEDIATE ... COMMIT on it while a gate holds every other caller back
 * until it ends (their writes would otherwise land inside it, and roll back with it). Calls made
 * from inside the transaction pass the gate (TransactionScope). Outside transactions a call costs
 * one check of the gate and a resolved promise: reads still come from the in-memory read model.
 */
import type { Sync } from './async.js';
import { createAccessGrants, createAccountRepository } from './account-repository.js';
import { createAuditLog, createNodeLocks, createOperatorRepository } from './admin-repository.js';
import { createImageTagRepository } from './image-tag-repository.js';
import { createSessionRepository } from './session-repository.js';
import { probeWrite, type Db } from './sqlite.js';
import type { Store } from './store.js';
import { createSubscriptionRepository } from './subscription-repository.js';
import { createTokenRepository } from './token-repository.js';
import { TransactionScope } from './transaction-scope.js';
import { createWarmServerRepository } from './warm-server-repository.js';

class WriteGate {
  private holder: Promise<void> | undefined;
  private open: (() => void) | undefined;

  get held(): boolean {
    return this.holder !== undefined;
  }

  /** Resolves when the gate is free (it may be taken again by the time the caller runs: check again). */
  free(): Promise<void> | undefined {
    return this.holder;
  }

  async take(): Promise<void> {
    while (this.holder) await this.holder;
    this.holder = new Promise((resolve) => (this.open = resolve));
  }

  release(): void {
    const open = this.open;
    this.holder = undefined;
    this.open = undefined;
    open?.();
  }
}

export function createSqliteStore(db: Db): Store {
  const gate = new WriteGate();
  const scope = new TransactionScope<true>();
  /** The repository's methods, each waiting while another caller's transaction holds the gate. */
  const gated = <T>(repository: Sync<T>): T =>
    Object.fromEntries(
      Object.entries(repository as Record<string, (...args: unknown[]) => unknown>).map(([name, method]) => [
        name,
        async (...args: unknown[]) => {
          while (gate.held && !scope.current()) await gate.free();
          return method(...args);
        },
      ]),
    ) as T;

  const { reload, ...sessions } = createSessionRepository(db);
  const transaction = async <T>(fn: () => Promise<T>): Promise<T> => {
    if (scope.current()) return fn();
    await gate.take();
    try {
      db.exec('BEGIN IMMEDIATE');
      try {
        const result = await scope.run(true, fn);
        db.exec('COMMIT');
        return result;
      } catch (error) {
        if (db.inTransaction) db.exec('ROLLBACK');
        // Rolled back: the read model may hold writes that no longer exist.
        reload();
        throw error;
      }
    } finally {
      gate.release();
    }
  };

  return {
    kind: 'sqlite',
    accounts: gated(createAccountRepository(db)),
    grants: gated(createAccessGrants(db)),
    tokens: gated(createTokenRepository(db)),
    sessions: {
      ...gated<Omit<Store['sessions'], 'transaction' | 'lockForPlacement'>>(sessions),
      transaction,
      // One writer at a time already: nothing more to hold.
      lockForPlacement: async () => {},
    },
    subscriptions: gated(createSubscriptionRepository(db)),
    imageTags: gated(createImageTagRepository(db)),
    operators: gated(createOperatorRepository(db)),
    audit: gated(createAuditLog(db)),
    nodeLocks: gated(createNodeLocks(db)),
    warmServers: gated(createWarmServerRepository(db)),
    probeWrite: async () => {
      while (gate.held && !scope.current()) await gate.free();
      probeWrite(db);
    },
    close: async () => {
      db.close();
    },
  };
}
