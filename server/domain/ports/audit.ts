/** The audit log of the admin panel: every account and token change, and every token reveal. */

export type AuditAction =
  | 'user_created'
  | 'user_updated'
  | 'user_disabled'
  | 'user_enabled'
  | 'token_created'
  | 'token_revealed'
  | 'token_disabled'
  | 'token_enabled'
  | 'token_deleted';

export interface AuditEntry {
  id: number;
  accountId: string;
  at: number;
  /** The operator's email. */
  actor: string;
  action: AuditAction;
  tokenId: string | null;
  details: string;
}

export interface AuditLog {
  /** Adds the entry and forgets the account's entries past the newest `keep`. */
  record(entry: Omit<AuditEntry, 'id'>, keep: number): Promise<void>;
  /** The account's newest entries first. */
  list(accountId: string, limit: number): Promise<AuditEntry[]>;
}
