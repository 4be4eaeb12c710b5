/**
 * The SQLite store: today's synchronous repositories behind the async port. One connection, and
 * group commit on it (group-commit.ts): the writes of one event-loop turn share one COMMIT, and
 * each caller is answered after it. A store transaction is a savepoint in that batch, while a
 * gate holds every other caller back until it ends (their writes would otherwise land inside it,
 * and roll back with it). Calls made from inside the transaction pass the gate
 * (TransactionScope). Reads still come from the in-memory read model and wait for no commit.
 */
import type { Sync } from './async.js';
import { createAccessGrants, createAccountRepository } from './account-repository.js';
import { createAuditLog, createNodeLocks, createOperatorRepository } from './admin-repository.js';
import { createImageTagRepository } from './image-tag-repository.js';
import { createSessionRepository } from './session-repository.js';
import { GroupCommit, type CommitHooks, type ReadsSettledLater } from './group-commit.js';
import { probeWrite, type Db } from './sqlite.js';
import type { Store } from './store.js';
import { createSubscriptionRepository } from './subscription-repository.js';
import { createTokenRepository } from './token-repository.js';
import { TransactionScope } from './transaction-scope.js';
import { createWarmServerRepository } from './warm-server-repository.js';

/** The session repository's methods that only read (most from the read model). */
const SESSION_READS = [
  'exists', 'find', 'findOwned', 'findEverywhere', 'list', 'positionAfter', 'live', 'launchedAt', 'launchSummary', 'accountsWithLiveSessions', 'liveSessionsOn',
  'liveCountsByNode', 'portsInUse', 'liveSessionsOfPlayers', 'eventsAfter', 'latestEventId', 'oldestEventId', 'oldestHoldable', 'storedSize',
] as const;

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

/** What every store on one connection shares (tests open several): its gate, transaction scope and commits. */
interface Connection {
  gate: WriteGate;
  /** `true` inside a store transaction; a ReadsSettledLater inside readsSettledAtEnd(). */
  scope: TransactionScope<true | ReadsSettledLater>;
  commits: GroupCommit;
  /** The read models to rebuild after a rollback. */
  reloads: Set<() => void>;
}
const connections = new WeakMap<Db, Connection>();

/** The connection's shared state; `hooks` instrument its commits when it is the first store on it. */
function connectionOf(db: Db, hooks: CommitHooks): Connection {
  let connection = connections.get(db);
  if (!connection) {
    const gate = new WriteGate();
    const reloads = new Set<() => void>();
    const reloadAll = () => reloads.forEach((reload) => reload());
    connection = { gate, scope: new TransactionScope<true | ReadsSettledLater>(), commits: new GroupCommit(db, () => gate.held, reloadAll, hooks), reloads };
    connections.set(db, connection);
  }
  return connection;
}

/** Runs fn on the connection with no transaction open (a backup): see GroupCommit.betweenBatches. */
export function betweenBatches<T>(db: Db, fn: () => T): Promise<T> {
  return connectionOf(db, {}).commits.betweenBatches(fn);
}

export function createSqliteStore(db: Db, hooks: CommitHooks = {}): Store {
  const { gate, scope, commits, reloads } = connectionOf(db, hooks);
  const { reload: reloadSessions, ...sessions } = createSessionRepository(db);
  const { reload: reloadAccounts, ...accounts } = createAccountRepository(db);
  const { reload: reloadWarmServers, ...warmServers } = createWarmServerRepository(db);
  // What a rolled-back transaction may have left in the repositories' copies in memory.
  const reload = () => {
    reloadSessions();
    reloadAccounts();
    reloadWarmServers();
  };
  reloads.add(reload);
  /**
   * The repository's methods, each waiting while another caller's transaction holds the gate.
   * Those named in `reads` only read (never list one that writes: its write would be answered
   * before its fsync); the others may write, and join the open batch.
   */
  const gated = <T>(repository: Sync<T>, reads: readonly (keyof T & string)[] = []): T =>
    Object.fromEntries(
      Object.entries(repository as Record<string, (...args: unknown[]) => unknown>).map(([name, method]) => {
        const reading = (reads as readonly string[]).includes(name);
        const run = (fn: () => unknown) => (reading ? commits.read(fn, scope.current() as ReadsSettledLater | undefined) : commits.write(fn));
        const waitForGate = async (args: unknown[]) => {
          while (gate.held) await gate.free();
          return run(() => method(...args));
        };
        return [
          name,
          // Not an async function: most calls find the gate free (or are inside its holder's transaction).
          (...args: unknown[]) => {
            if (scope.current() === true) {
              try {
                return Promise.resolve(method(...args));
              } catch (error) {
                return Promise.reject(error);
              }
            }
            return gate.held ? waitForGate(args) : run(() => method(...args));
          },
        ];
      }),
    ) as T;

  const savepoint = db.prepare('SAVEPOINT store_transaction');
  const releaseSavepoint = db.prepare('RELEASE store_transaction');
  const rollbackToSavepoint = db.prepare('ROLLBACK TO store_transaction');
  const transaction = async <T>(fn: () => Promise<T>, committed?: (result: T) => void, atOnce?: (result: T) => boolean): Promise<T> => {
    if (scope.current() === true) return committed ? Promise.reject(new Error('a nested transaction has no commit of its own')) : fn();
    await gate.take();
    let durable: Promise<void>;
    let result: T;
    try {
      commits.join();
      savepoint.run();
      try {
        result = await scope.run(true, fn);
        releaseSavepoint.run();
        durable = commits.durable(committed && (() => committed(result)), atOnce?.(result));
      } catch (error) {
        if (db.inTransaction) {
          rollbackToSavepoint.run();
          releaseSavepoint.run();
        } else commits.failedInside(error);
        // Rolled back: the read model may hold writes that no longer exist.
        reload();
        throw error;
      }
    } finally {
      gate.release();
      commits.released();
    }
    await durable;
    return result;
  };

  return {
    kind: 'sqlite',
    accounts: gated<Store['accounts']>(accounts, ['findById', 'findByEmail', 'count', 'mostUsed', 'search']),
    grants: gated(createAccessGrants(db), ['granted', 'list']),
    tokens: gated(createTokenRepository(db)),
    sessions: {
      ...gated<Omit<Store['sessions'], 'transaction' | 'readsSettledAtEnd' | 'lockForPlacement' | 'lockForChange'>>(sessions, SESSION_READS),
      transaction,
      readsSettledAtEnd: async (fn) => {
        if (scope.current()) return fn();
        const later: ReadsSettledLater = {};
        const result = await scope.run(later, fn);
        await later.pending;
        return result;
      },
      // One writer at a time already: nothing more to hold.
      lockForPlacement: async () => {},
      lockForChange: async () => {},
    },
    subscriptions: gated<Store['subscriptions']>(createSubscriptionRepository(db), [
      'find', 'listForAccount', 'activeForAccount', 'accountsWithSubscriptions', 'deliveries', 'lowestCursors',
    ]),
    imageTags: gated(createImageTagRepository(db), ['all', 'has']),
    operators: gated(createOperatorRepository(db)),
    audit: gated(createAuditLog(db)),
    nodeLocks: gated(createNodeLocks(db), ['lockOf', 'drainOf']),
    warmServers: gated<Store['warmServers']>(warmServers, ['all', 'countOf', 'countOn', 'portsInUse', 'sizes']),
    probeWrite: async () => {
      while (gate.held && scope.current() !== true) await gate.free();
      commits.join();
      try {
        probeWrite(db);
      } catch (error) {
        commits.failedInside(error);
        throw error;
      }
      await commits.durable();
    },
    close: async () => {
      reloads.delete(reload);
      await commits.close();
      db.close();
    },
  };
}
