/** Accounts and their runtime quota, in minutes. */
import type { AccountRecord } from './ports/accounts.js';

export interface AccountView {
  id: string;
  name: string;
  quota: { total: number; used: number; remaining: number };
  max_sessions: number | null;
}

/** The account with its quota in minutes (fractions for seconds), from its usage in seconds. */
export function accountView(account: AccountRecord, usage: { usedSeconds: number; remainingSeconds: number }): AccountView {
  return {
    id: account.id,
    name: account.name,
    quota: { total: account.quotaMinutes, used: usage.usedSeconds / 60, remaining: usage.remainingSeconds / 60 },
    max_sessions: account.maxSessions ?? null,
  };
}
