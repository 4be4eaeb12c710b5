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
  insert(account: AccountRecord): Promise<void>;
  findById(id: string): Promise<AccountRecord | undefined>;
  count(): Promise<number>;
  /** The accounts charged the most run time, most first. */
  mostUsed(limit: number): Promise<AccountRecord[]>;
  addUsedSeconds(id: string, seconds: number): Promise<void>;
  findByEmail(email: string): Promise<AccountRecord | undefined>;
  /** Newest first; `q` matches part of the name, email or id, any case; `after` is the previous page's last. */
  search(options: { q?: string; limit: number; after?: { created: number; id: string } }): Promise<AccountRecord[]>;
  update(id: string, changes: Partial<Pick<AccountRecord, 'name' | 'quotaMinutes' | 'disabled' | 'maxSessions'>>): Promise<void>;
}

/** Private locations and images granted to an account, besides the fleet file's lists. */
export interface AccessGrants {
  granted(accountId: string, kind: 'location' | 'image', name: string): Promise<boolean>;
  list(accountId: string): Promise<{ locations: string[]; images: string[] }>;
  replace(accountId: string, kind: 'location' | 'image', names: readonly string[]): Promise<void>;
}
