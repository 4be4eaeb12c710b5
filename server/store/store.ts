/**
 * The store port as the service wires it: every repository the domain uses, over one database.
 * Two adapters: SQLite (sqlite-store.ts, the embedded default: one process, one file in the data
 * directory) and PostgreSQL (postgres/store.ts, DATABASE_URL: any number of instances on one
 * database). Both pass the same contract suite (test/store/).
 */
import type { AccessGrants, AccountRepository } from '../domain/ports/accounts.js';
import type { AuditLog } from '../domain/ports/audit.js';
import type { ImageTagStore, NodeLocks } from '../domain/ports/catalog.js';
import type { OperatorRepository } from '../domain/ports/operators.js';
import type { SessionRepository } from '../domain/ports/sessions.js';
import type { TokenRepository } from '../domain/ports/tokens.js';
import type { WarmServerRepository } from '../domain/ports/warm-servers.js';
import type { SubscriptionRepository } from '../events/subscriptions.js';

export interface Store {
  readonly kind: 'sqlite' | 'postgres';
  accounts: AccountRepository;
  grants: AccessGrants;
  tokens: TokenRepository;
  /** Its transaction() is the store's: every repository's calls made inside it are part of it. */
  sessions: SessionRepository;
  subscriptions: SubscriptionRepository;
  imageTags: ImageTagStore;
  operators: OperatorRepository;
  audit: AuditLog;
  nodeLocks: NodeLocks;
  /** Warm pools' game servers (their claim joins the sessions' transaction). */
  warmServers: WarmServerRepository;
  /**
   * PostgreSQL: the database's clock (ms since the epoch), the one time every instance can agree
   * on; the service's clock starts from it (server/clock.ts). SQLite, in this process, has none.
   */
  clockMs?(): Promise<number>;
  /** The smallest real write; throws when the store cannot take writes (readiness, degraded mode). */
  probeWrite(): Promise<void>;
  /**
   * PostgreSQL: told when the database stops answering (a ping unanswered for seconds) or a
   * statement overran its deadline; the service reports the store degraded (/readyz) until a
   * probe write succeeds. SQLite, in this process, has no such fault.
   */
  onUnresponsive?(listener: (error: Error) => void): void;
  close(): Promise<void>;
}
