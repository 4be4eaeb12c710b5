/**
 * Coordination between the instances of one deployment: the port. Two implementations: local
 * (one process: an in-memory bus, always the leader, every lease held) and PostgreSQL
 * (`LISTEN/NOTIFY`, advisory-lock leadership, expiring leases in a table). The domain asks the
 * port, never the database, so a single instance on SQLite runs the same code with the local one.
 */

/** Told when a claim (leadership of a role, or a lease) is gained and when it is lost. */
export interface ClaimEvents {
  gained(): void;
  /** No longer held (the holder's connection or renewals failed, or it was released): stop the work now. */
  lost(): void;
}

export interface Claim {
  /** Held right now, as far as this instance can know (a lost claim says so before another may take it). */
  readonly held: boolean;
  /**
   * Still held, asked of the database now: for a lease, this instance is its holder in the same
   * generation it gained (nobody took it over meanwhile, however briefly) and it has not expired.
   * Work that must not be done twice (a webhook POST) asks this first; `held` may be a round late.
   */
  confirm(): Promise<boolean>;
  /** Give the claim up for others to take (lost() is called first when it was held). */
  release(): Promise<void>;
  /**
   * The lease as held now, for writes the database fences by it (they land only while it is
   * still held in this generation); undefined when not held, or where nothing can take it over
   * (one process, leadership).
   */
  fence(): LeaseFence | undefined;
}

/** A lease in one generation: its row in `cluster_leases` names this holder and this fence. */
export interface LeaseFence {
  name: string;
  holder: string;
  generation: number;
}

export type BusListener = (message: string, origin: string) => void;

export interface Coordination {
  /** This instance, as other instances and lease rows see it. */
  readonly instanceId: string;
  /**
   * Send a message to every instance, this one included (listeners get the sender's id as
   * `origin`). At most once: a reconnecting instance may miss some, and is told by onResync().
   */
  publish(topic: string, message: string): Promise<void>;
  subscribe(topic: string, listener: BusListener): () => void;
  /**
   * Messages may have been missed (the bus was away and is back): whoever caches what messages
   * keep fresh flushes the cache or re-reads the store.
   */
  onResync(listener: () => void): () => void;
  /** Take part in electing one leader of `role` among the instances; held while this instance leads. */
  lead(role: string, events: ClaimEvents): Claim;
  /**
   * Hold the lease `name` while this instance lives: renewed in the background, taken over by
   * another instance within the lease time once this one dies or stops renewing.
   */
  lease(name: string, events: ClaimEvents): Claim;
  close(): Promise<void>;
}

/** Topics of the bus, one place for the names. */
export const TOPICS = {
  /** A token or account changed: cached verdicts are stale. */
  tokens: 'tokens',
  /** A node was locked or unlocked. */
  nodeLocks: 'node-locks',
  /** New events in the event log (message: the latest id). */
  events: 'events',
  /** A stop for a session's supervisor, or a node's holder told of a session handed to it (server/cluster/node-supervision.ts). */
  supervision: 'supervision',
} as const;

/** Largest message the PostgreSQL bus carries (NOTIFY's payload limit, with room for the envelope). */
export const MAX_MESSAGE_BYTES = 7000;
