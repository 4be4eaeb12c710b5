/** Where accounts and their grants are kept. */

export interface AccountRecord {
  id: string;
  name: string;
  email: string | null;
  quotaMinutes: number;
  /** The most live sessions it may have at once; null (or absent) for no cap. */
  maxSessions?: number | null;
  /** Run time charged so far, in whole seconds. */
  usedSeconds: number;
  operator: boolean;
  disabled: boolean;
  created: number;
}

export interface AccountRepository {
  insert(account: AccountRecord): void;
  findById(id: string): AccountRecord | undefined;
  count(): number;
  /** The accounts charged the most run time, most first. */
  mostUsed(limit: number): AccountRecord[];
  addUsedSeconds(id: string, seconds: number): void;
  findByEmail(email: string): AccountRecord | undefined;
  /** Newest first; `q` matches part of the name, email or id, any case; `after` is the previous page's last. */
  search(options: { q?: string; limit: number; after?: { created: number; id: string } }): AccountRecord[];
  update(id: string, changes: Partial<Pick<AccountRecord, 'name' | 'quotaMinutes' | 'disabled' | 'maxSessions'>>): void;
}

/** Private locations and images granted to an account, besides the fleet file's lists. */
export interface AccessGrants {
  granted(accountId: string, kind: 'location' | 'image', name: string): boolean;
  list(accountId: string): { locations: string[]; images: string[] };
  replace(accountId: string, kind: 'location' | 'image', names: readonly string[]): void;
}
