/** What the catalog keeps beside the fleet file: tags pushed to the registry, node locks set in the panel. */

export interface ImageTagStore {
  has(accountId: string, image: string, tag: string): boolean;
  register(accountId: string, image: string, tag: string, at: number): void;
  /** Every registered tag, for the admin panel. */
  all(): { accountId: string; image: string; tag: string; registered: number }[];
}

/** Node locks set in the admin panel; undefined when the fleet file's value stands. */
export interface NodeLocks {
  lockOf(nodeId: string): boolean | undefined;
  set(nodeId: string, locked: boolean, at: number): void;
}
