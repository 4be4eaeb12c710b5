/** Accounts and their runtime quota, in minutes. */

export interface AccountRecord {
  id: string;
  name: string;
  email: string | null;
  quotaMinutes: number;
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
}

export interface AccountView {
  id: string;
  name: string;
  quota: { total: number; used: number; remaining: number };
}

export function accountView(account: AccountRecord): AccountView {
  const used = account.usedSeconds / 60;
  return {
    id: account.id,
    name: account.name,
    quota: { total: account.quotaMinutes, used, remaining: Math.max(0, account.quotaMinutes - used) },
  };
}
