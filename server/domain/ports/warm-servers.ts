/**
 * Warm servers: game servers started ahead of need for a pool (location, image, tag), ready but
 * unallocated. They hold a slot and ports on their node like a session, and belong to no account
 * until a start claims one; the claim turns it into that start's session (same key, same ports).
 */
import type { PortAllocation } from './sessions.js';

/** One pool: a (location, image, tag). */
export interface PoolKey {
  location: string;
  image: string;
  tag: string;
}

export interface WarmServer extends PoolKey {
  /** The runtime's name for it; the session that claims it keeps it as its key. */
  key: string;
  nodeId: string;
  host: string;
  ports: PortAllocation[];
  /** `starting` until its runtime reports it running; only `ready` ones are claimed. */
  status: 'starting' | 'ready';
  created: number;
  /** What it was launched with (warmLaunchOf()): a run whose pool or tag says otherwise retires it. */
  launch: string;
}

export interface WarmServerRepository {
  insert(server: WarmServer): Promise<void>;
  /**
   * Inside a store transaction: take the pool's oldest ready warm server on one of `nodeIds`
   * (and, when `keys` is given, one of those) and delete it, so that no other claim, in this
   * process or another on the same database, can take it too (PostgreSQL: `FOR UPDATE SKIP
   * LOCKED`, so racing claims take different ones).
   */
  claim(pool: PoolKey, nodeIds: readonly string[], keys?: readonly string[]): Promise<WarmServer | undefined>;
  /** Starting -> ready; false when it is gone (claimed or retired meanwhile). */
  markReady(key: string): Promise<boolean>;
  /** Forget it; false when it was gone already (claimed meanwhile: then it is a session's). */
  remove(key: string): Promise<boolean>;
  /** Every warm server, in no particular order. */
  all(): Promise<WarmServer[]>;
  /** How many warm servers the pool has, starting or ready. */
  countOf(pool: PoolKey): Promise<number>;
  /** How many warm servers hold a slot on the node (placement counts them with its sessions). */
  countOn(nodeId: string): Promise<number>;
  /** Host ports warm servers hold on this host address. */
  portsInUse(host: string): Promise<Set<number>>;
  /** Pool sizes set in the admin panel, which override the fleet file's `warm`. */
  sizes(): Promise<(PoolKey & { warm: number })[]>;
  setSize(pool: PoolKey, warm: number, at: number): Promise<void>;
}
