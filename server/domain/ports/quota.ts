import type { LaunchSummary } from './sessions.js';

/** What quota reads and charges in the store. */
export interface QuotaStore {
  /** Quota and seconds charged for ended sessions. */
  account(accountId: string): Promise<{ quotaMinutes: number; usedSeconds: number } | undefined>;
  addUsedSeconds(accountId: string, seconds: number): Promise<void>;
  /** When each of the account's live sessions was launched. */
  launchedAt(accountId: string): Promise<number[]>;
  /**
   * The same launches in aggregate (count, mean, latest), when the store knows them without going
   * over each: a start then checks quota in constant time while it is far from the limit.
   */
  launchSummary?(accountId: string): Promise<LaunchSummary>;
  /** Accounts with live sessions (for the deadlines after a restart). */
  accountsWithLiveSessions(): Promise<string[]>;
}
