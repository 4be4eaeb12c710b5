import type { AccessGrants, AccountRecord, AccountRepository } from '../domain/ports/accounts.js';
import type { Db } from './sqlite.js';
import type { Sync } from './async.js';
import { accountFromRow, type AccountRow } from './rows.js';

/** Accounts kept in memory at most (those read most recently stay when it is full). */
const CACHED_ACCOUNTS = 10_000;

/**
 * `reload` forgets the accounts kept in memory: every start and stop reads its account, and
 * this process is the only writer of its database, so a read is answered from memory until the
 * repository writes the account (a charge updates the copy; other writes drop it) or a
 * transaction rolls back (the store calls reload).
 */
export function createAccountRepository(db: Db): Sync<AccountRepository> & { reload(): void } {
  const insert = db.prepare(
    `INSERT INTO accounts (id, name, email, quota_minutes, used_seconds, operator, disabled, created)
     VALUES (@id, @name, @email, @quotaMinutes, @usedSeconds, @operator, @disabled, @created)`,
  );
  const byId = db.prepare('SELECT * FROM accounts WHERE id = ?');
  const byEmail = db.prepare('SELECT * FROM accounts WHERE email = ? COLLATE NOCASE');
  const count = db.prepare('SELECT count(*) FROM accounts').pluck();
  // A scan, but only per metrics scrape: not worth an index written on every charge.
  const mostUsed = db.prepare('SELECT * FROM accounts WHERE used_seconds > 0 ORDER BY used_seconds DESC, id LIMIT ?');
  const addUsed = db.prepare('UPDATE accounts SET used_seconds = used_seconds + ? WHERE id = ?');
  const search = db.prepare(
    `SELECT * FROM accounts
     WHERE (@q IS NULL OR instr(lower(name), @q) > 0 OR instr(lower(coalesce(email, '')), @q) > 0 OR instr(id, @q) > 0)
       AND (@afterCreated IS NULL OR created < @afterCreated OR (created = @afterCreated AND id < @afterId))
     ORDER BY created DESC, id DESC LIMIT @limit`,
  );
  const setMaxSessions = db.prepare('UPDATE accounts SET max_sessions = ? WHERE id = ?');
  const update = db.prepare(
    `UPDATE accounts SET name = coalesce(@name, name), quota_minutes = coalesce(@quotaMinutes, quota_minutes),
       disabled = coalesce(@disabled, disabled) WHERE id = @id`,
  );
  const cached = new Map<string, AccountRecord>();
  return {
    reload: () => cached.clear(),
    addUsedSeconds: (id, seconds) => {
      addUsed.run(seconds, id);
      // Replaced, never changed in place: a caller holding the old record keeps its snapshot.
      const account = cached.get(id);
      if (account) cached.set(id, { ...account, usedSeconds: account.usedSeconds + seconds });
    },
    insert: ({ maxSessions, ...account }) => {
      cached.delete(account.id);
      insert.run({ ...account, operator: account.operator ? 1 : 0, disabled: account.disabled ? 1 : 0 });
      if (maxSessions !== undefined && maxSessions !== null) setMaxSessions.run(maxSessions, account.id);
    },
    findById: (id) => {
      const known = cached.get(id);
      if (known) return known;
      const row = byId.get(id) as AccountRow | undefined;
      if (!row) return undefined;
      if (cached.size >= CACHED_ACCOUNTS) cached.delete(cached.keys().next().value!);
      const account = accountFromRow(row);
      cached.set(id, account);
      return account;
    },
    findByEmail: (email) => {
      const row = byEmail.get(email) as AccountRow | undefined;
      return row && accountFromRow(row);
    },
    count: () => count.get() as number,
    mostUsed: (limit) => (mostUsed.all(limit) as AccountRow[]).map(accountFromRow),
    search: ({ q, limit, after }) =>
      (
        search.all({
          q: q ? q.toLowerCase() : null,
          limit,
          afterCreated: after?.created ?? null,
          afterId: after?.id ?? null,
        }) as AccountRow[]
      ).map(accountFromRow),
    update: (id, changes) => {
      cached.delete(id);
      update.run({
        id,
        name: changes.name ?? null,
        quotaMinutes: changes.quotaMinutes ?? null,
        disabled: changes.disabled === undefined ? null : changes.disabled ? 1 : 0,
      });
      // null is a value here (no cap), so not folded into the coalescing update.
      if (changes.maxSessions !== undefined) setMaxSessions.run(changes.maxSessions, id);
    },
  };
}

export function createAccessGrants(db: Db): Sync<AccessGrants> {
  const granted = db.prepare('SELECT 1 FROM account_grants WHERE account_id = ? AND kind = ? AND name = ?').pluck();
  const list = db.prepare('SELECT kind, name FROM account_grants WHERE account_id = ? ORDER BY name');
  const clear = db.prepare('DELETE FROM account_grants WHERE account_id = ? AND kind = ?');
  const add = db.prepare('INSERT INTO account_grants (account_id, kind, name) VALUES (?, ?, ?)');
  return {
    granted: (accountId, kind, name) => granted.get(accountId, kind, name) !== undefined,
    list: (accountId) => {
      const rows = list.all(accountId) as { kind: string; name: string }[];
      return {
        locations: rows.filter((r) => r.kind === 'location').map((r) => r.name),
        images: rows.filter((r) => r.kind === 'image').map((r) => r.name),
      };
    },
    replace: db.transaction((accountId: string, kind: 'location' | 'image', names: readonly string[]) => {
      clear.run(accountId, kind);
      for (const name of names) add.run(accountId, kind, name);
    }),
  };
}
