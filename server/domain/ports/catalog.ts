/** What the catalog keeps beside the fleet file: tags pushed to the registry, node locks set in the panel. */

export interface ImageTagStore {
  has(accountId: string, image: string, tag: string): Promise<boolean>;
  /** Register a tag (a known one keeps its first registration); of the account's tags of the image, the `keep` newest stay. */
  register(accountId: string, image: string, tag: string, at: number, keep: number): Promise<void>;
  /** Every registered tag, for the admin panel. */
  all(): Promise<{ accountId: string; image: string; tag: string; registered: number }[]>;
}

/** Node locks set in the admin panel; undefined when the fleet file's value stands. */
export interface NodeLocks {
  lockOf(nodeId: string): Promise<boolean | undefined>;
  set(nodeId: string, locked: boolean, at: number): Promise<void>;
  /** Whether the node is set to drain (no new sessions; live ones run to their end). */
  drainOf(nodeId: string): Promise<boolean>;
  setDrain(nodeId: string, draining: boolean, at: number): Promise<void>;
}
