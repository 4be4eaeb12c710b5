/** A session as the service keeps it, and the repository that keeps sessions and their event log. */
import type { EndReason as NullableEndReason, SessionStatus } from '../../../generated/types.js';

export type { SessionStatus };
export type EndReason = NonNullable<NullableEndReason>;

/** A session state change as kept in the event log, with the session as it was then. */
export interface StoredEvent {
  id: number;
  status: SessionStatus;
  previous: SessionStatus | null;
  at: number;
  session: SessionRecord;
}

/** Host ports in use, as placement asks about them (a view of the store's own copy may answer). */
export interface PortsInUse {
  has(port: number): boolean;
  /**
   * Optional, for a view kept as ports come and go: the lowest `count` free ports of the range
   * (as placement's walk from the range's start finds them), from what the view knows of it, so
   * a search costs what it finds, not every port in use below (issue 19: a start walked past
   * every live session's ports).
   */
  lowestFree?(range: { from: number; to: number }, count: number): number[] | undefined;
}

export interface PortAllocation {
  name: string;
  type: 'tcp' | 'udp';
  /** The port the image declares. */
  container: number;
  /** The port allocated on the node. */
  host: number;
}

export interface SessionRecord {
  /** Chosen by the caller; unique within its account only. */
  id: string;
  accountId: string;
  /**
   * Unique across accounts, never shown: names the session wherever its account is not part of
   * the name (the runtime's directories, containers and cgroups; the service's timers).
   */
  key: string;
  image: string;
  tag: string;
  location: string;
  nodeId: string;
  host: string;
  created: number;
  ports: PortAllocation[];
  status: SessionStatus;
  labels: Record<string, string>;
  args: string[];
  restart: boolean;
  /** When the ttl runs out (ms), or null. */
  expires: number | null;
  /** Why the session is being ended, while draining or shutting down. */
  pendingEndReason: EndReason | null;
  ended: number | null;
  exitCode: number | null;
  endReason: EndReason | null;
  /** When it first became running (shown as `started`); quota is charged from `created`, its launch. */
  runningSince: number | null;
  players: string[];
}

export interface SessionFilter {
  /** Undefined: every account's sessions (the admin panel). */
  accountId: string | undefined;
  all: boolean;
  location?: string;
  image?: string;
  tag?: string;
  host?: string;
  status?: SessionStatus;
  labels: Record<string, string>;
  notLabels: Record<string, string>;
  playersLessThan?: number;
  playersMoreThan?: number;
  limit?: number;
  /** Continue after this position (newest first: created, then id, then account). */
  after?: ListPosition;
  /** Stop at this position, itself included (a scan window: positionAfter()). */
  until?: ListPosition;
}

/** A session's place in listings; across accounts, ids tie and the account decides. */
export interface ListPosition {
  created: number;
  id: string;
  accountId?: string;
}

export type SessionChanges = Partial<
  Pick<SessionRecord, 'status' | 'pendingEndReason' | 'ended' | 'exitCode' | 'endReason' | 'runningSince'>
>;

/**
 * What an account's sessions hold of their own, as the storage budget prices it
 * (server/domain/storage-budget.ts): the UTF-8 bytes of their labels and args (JSON text) and of
 * their players' ids, and how many players (each record costs more than its id).
 */
export interface StoredSize {
  bytes: number;
  players: number;
}

/** What a retention purge removed. */
export interface PurgedSessions {
  sessions: number;
  /** What it held per account (accounts that lost nothing are absent). */
  freed: Map<string, StoredSize>;
}

/** An account's live sessions' launch times (ms) in aggregate; zeros when it has none. */
export interface LaunchSummary {
  count: number;
  meanMs: number;
  latestMs: number;
}

export interface SessionRepository {
  /**
   * Run fn in one write transaction (placement reads usage and writes the session atomically):
   * every store call made from inside fn, through any repository, is part of it; it commits when
   * fn resolves and rolls back when fn throws. fn must only touch the store (no runtime, no
   * network): SQLite holds its single writer for as long as fn runs, and PostgreSQL runs fn again
   * when it rolled back a deadlock's or a serialization conflict's victim.
   *
   * `committed(result)`, when given, runs once the transaction has committed, before the promise
   * resolves: its writes then survive a crash of this process (PostgreSQL: they are durable;
   * SQLite: the COMMIT wrote the WAL, and the fsync that makes it survive a power loss runs
   * beside `committed`; the promise resolves after that fsync). What may not precede the commit
   * but need not wait for the fsync goes there (a warm server's handoff). It must not throw, and
   * only an outermost transaction has it. SQLite may hold a commit back until the fsync under way
   * ends (more writes then share it), delaying `committed`; `atOnce(result)` true commits without
   * waiting (a handoff on the 201's path).
   */
  transaction<T>(fn: () => Promise<T>, committed?: (result: T) => void, atOnce?: (result: T) => boolean): Promise<T>;
  /**
   * Runs fn, whose store reads answer at once instead of waiting for other callers' writes they
   * may have seen to be durable (SQLite's group commit: one further fsync for every such read); the
   * promise resolves once those writes are, and rejects if one is lost. For work that answers only
   * after a write of its own, in a transaction that checks again what decides it (a start's
   * admission, a stop): that write's fsync covers the reads before it. PostgreSQL reads only
   * committed data: fn runs as it is.
   */
  readsSettledAtEnd<T>(fn: () => Promise<T>): Promise<T>;
  /**
   * In a transaction, before placement counts: hold the account and the named nodes and host
   * addresses until it commits, so that racing starts, in this process or any other on the same
   * database, place one after the other (PostgreSQL: row and advisory locks; SQLite: its
   * transactions already run one at a time).
   */
  lockForPlacement(accountId: string, nodesAndHosts: readonly string[]): Promise<void>;
  /**
   * In a transaction, before reading a session to change its state: hold its row until commit, so
   * that two instances changing one session at once (a stop through one while the holder records
   * `running`) change it one after the other, each from the state the other left (PostgreSQL: a row
   * lock; SQLite: its transactions already run one at a time).
   */
  lockForChange(key: string): Promise<void>;
  /** Whether the account has a session with this id, live or ended. */
  exists(accountId: string, id: string): Promise<boolean>;
  liveSessionsOn(nodeId: string): Promise<number>;
  liveCountsByNode(): Promise<Map<string, number>>;
  /**
   * Host ports held by live sessions on this host address, whatever node id they were placed on.
   * Read inside the placing transaction, and valid only there (SQLite answers with a view).
   */
  portsInUse(host: string): Promise<PortsInUse>;
  /** A new session with its ports; of the fields a later change sets, only `runningSince` (a warm claim's runs from its insert). */
  insert(record: SessionRecord): Promise<void>;
  /** By the session's key. */
  find(key: string): Promise<SessionRecord | undefined>;
  /** By the account's own id for it. */
  findOwned(accountId: string, id: string): Promise<SessionRecord | undefined>;
  /** Every account's session with this id (the admin panel, which names sessions across accounts). */
  findEverywhere(id: string): Promise<SessionRecord[]>;
  list(filter: SessionFilter): Promise<SessionRecord[]>;
  /**
   * The position of the account's `count`-th session (live or ended, in list order) after `after`,
   * or undefined when fewer follow: the end of a scan window (`until`), found on the index alone.
   */
  positionAfter(accountId: string, after: ListPosition | undefined, count: number): Promise<ListPosition | undefined>;
  live(): Promise<SessionRecord[]>;
  /** The keys of the node's live sessions (a supervision sweep's cheap first look: server/domain/sessions.ts). */
  liveKeysOn(nodeId: string): Promise<string[]>;
  /** Apply changes; when `ended` is set the session's ports are released. */
  update(key: string, changes: SessionChanges): Promise<void>;
  /** Join players to the session; returns those not joined before (what the storage budget is charged). */
  join(key: string, players: readonly string[], at: number): Promise<string[]>;
  /** Players leave the session; returns those that were in it (what the storage budget gets back). */
  leave(key: string, players: readonly string[]): Promise<string[]>;
  /** Append a state change to the event log; returns its id. */
  appendEvent(session: SessionRecord, previous: SessionStatus | null, at: number): Promise<number>;
  /** The account's events after `afterId`, oldest first, at most `limit`. */
  eventsAfter(accountId: string, afterId: number, limit: number): Promise<StoredEvent[]>;
  /**
   * The id of the latest event written (0 before the first), even if it was pruned since
   * (PostgreSQL: the latest kept, readable one; retention keeps the newest).
   */
  latestEventId(): Promise<number>;
  /**
   * The replay window's start, or undefined when no event is kept: every event from it on is
   * still kept (SQLite: the oldest; PostgreSQL, where a rolled-back append leaves its id unused:
   * just after the highest pruned).
   */
  oldestEventId(): Promise<number | undefined>;
  /**
   * Drop events beyond the replay window (the newest `count`, none older than `sinceMs`), but
   * none of an account's after its floor (what its webhook subscriptions have yet to deliver).
   * Floors are per account: one idle subscription holds back its own account's events only.
   * With `bytes`, none older than the newest events whose copies of their sessions (labels and
   * players included) add up to `bytes`, but for those the floors hold (oldestHoldable bounds them).
   */
  pruneEvents(window: { count: number; sinceMs: number; bytes?: number; floors?: ReadonlyMap<string, number> }): Promise<void>;
  /**
   * Per account with events, the oldest of its events that subscriptions may hold back: within
   * its newest `count` and `bytes` of them (past its newest id when even that one is larger).
   */
  oldestHoldable(limits: { count: number; bytes: number }): Promise<Map<string, number>>;
  /** What the account's sessions on record hold of their own: the storage budget's measure. */
  storedSize(accountId: string): Promise<StoredSize>;
  /**
   * Forget sessions that ended before `endedBefore` (their records, ports, players); returns how
   * many, and what they held of each account's storedSize (the storage budget gets it back
   * without measuring the account again).
   */
  purgeEnded(endedBefore: number): Promise<PurgedSessions>;
  /** When each of the account's live sessions was launched (quota is charged from there). */
  launchedAt(accountId: string): Promise<number[]>;
  /** The same launches in aggregate, read without going over each (a start's quota check). */
  launchSummary(accountId: string): Promise<LaunchSummary>;
  accountsWithLiveSessions(): Promise<string[]>;
  /** The account's live session each player is in (its key). */
  liveSessionsOfPlayers(accountId: string, players: readonly string[]): Promise<Map<string, string>>;
}
