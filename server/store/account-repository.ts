import type { AccountRecord, AccountRepository } from '../domain/accounts.js';
import type { Db } from './sqlite.js';

interface AccountRow {
  id: string;
  name: string;
  email: string | null;
  quota_minutes: number;
  used_seconds: number;
  operator: number;
  disabled: number;
  created: number;
}

function toRecord(row: AccountRow): AccountRecord {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    quotaMinutes: row.quota_minutes,
    usedSeconds: row.used_seconds,
    operator: row.operator === 1,
    disabled: row.disabled === 1,
    created: row.created,
  };
}

export function createAccountRepository(db: Db): AccountRepository {
  const insert = db.prepare(
    `INSERT INTO accounts (id, name, email, quota_minutes, used_seconds, operator, disabled, created)
     VALUES (@id, @name, @email, @quotaMinutes, @usedSeconds, @operator, @disabled, @created)`,
  );
  const byId = db.prepare('SELECT * FROM accounts WHERE id = ?');
  const count = db.prepare('SELECT count(*) FROM accounts').pluck();
  const addUsed = db.prepare('UPDATE accounts SET used_seconds = used_seconds + ? WHERE id = ?');
  return {
    addUsedSeconds: (id, seconds) => {
      addUsed.run(seconds, id);
    },
    insert: (account) => {
      insert.run({ ...account, operator: account.operator ? 1 : 0, disabled: account.disabled ? 1 : 0 });
    },
    findById: (id) => {
      const row = byId.get(id) as AccountRow | undefined;
      return row && toRecord(row);
    },
    count: () => count.get() as number,
  };
}
