/** PostgreSQL side of accounts and their access grants (see ../account-repository.ts for SQLite). */
import type { AccessGrants, AccountRepository } from '../../domain/ports/accounts.js';
import { accountFromRow, type AccountRow } from '../rows.js';
import { value, type PgDb, type Sql } from './sql.js';

export function createPgAccountRepository(sql: Sql): AccountRepository {
  const one = async (text: string, values: unknown[]) => {
    const [row] = await sql.rows<AccountRow>(text, values);
    return row && accountFromRow(row);
  };
  return {
    insert: async (a) => {
      await sql.run(
        `INSERT INTO accounts (id, name, email, quota_minutes, used_seconds, operator, disabled, created, max_sessions)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [a.id, a.name, a.email, a.quotaMinutes, a.usedSeconds, a.operator ? 1 : 0, a.disabled ? 1 : 0, a.created, a.maxSessions ?? null],
      );
    },
    findById: (id) => one('SELECT * FROM accounts WHERE id = $1', [id]),
    findByEmail: (email) => one('SELECT * FROM accounts WHERE lower(email) = lower($1)', [email]),
    count: async () => (await value<number>(sql, 'SELECT count(*) FROM accounts')) ?? 0,
    mostUsed: async (limit) =>
      (await sql.rows<AccountRow>('SELECT * FROM accounts WHERE used_seconds > 0 ORDER BY used_seconds DESC, id LIMIT $1', [limit])).map(accountFromRow),
    addUsedSeconds: async (id, seconds) => {
      await sql.run('UPDATE accounts SET used_seconds = used_seconds + $1 WHERE id = $2', [seconds, id]);
    },
    search: async ({ q, limit, after }) =>
      (
        await sql.rows<AccountRow>(
          `SELECT * FROM accounts
           WHERE ($1::text IS NULL OR strpos(lower(name), $1) > 0 OR strpos(lower(coalesce(email, '')), $1) > 0 OR strpos(id, $1) > 0)
             AND ($2::bigint IS NULL OR created < $2 OR (created = $2 AND id < $3))
           ORDER BY created DESC, id DESC LIMIT $4`,
          [q ? q.toLowerCase() : null, after?.created ?? null, after?.id ?? null, limit],
        )
      ).map(accountFromRow),
    update: async (id, changes) => {
      await sql.run(
        `UPDATE accounts SET name = coalesce($2, name), quota_minutes = coalesce($3, quota_minutes),
           disabled = coalesce($4, disabled),
           max_sessions = CASE WHEN $5 THEN $6 ELSE max_sessions END
         WHERE id = $1`,
        [
          id,
          changes.name ?? null,
          changes.quotaMinutes ?? null,
          changes.disabled === undefined ? null : changes.disabled ? 1 : 0,
          // null is a value here (no cap): set only when named.
          changes.maxSessions !== undefined,
          changes.maxSessions ?? null,
        ],
      );
    },
  };
}

export function createPgAccessGrants({ sql, transaction }: PgDb): AccessGrants {
  return {
    granted: async (accountId, kind, name) =>
      (await sql.rows('SELECT 1 FROM account_grants WHERE account_id = $1 AND kind = $2 AND name = $3', [accountId, kind, name])).length > 0,
    list: async (accountId) => {
      const rows = await sql.rows<{ kind: string; name: string }>('SELECT kind, name FROM account_grants WHERE account_id = $1 ORDER BY name', [accountId]);
      return {
        locations: rows.filter((r) => r.kind === 'location').map((r) => r.name),
        images: rows.filter((r) => r.kind === 'image').map((r) => r.name),
      };
    },
    replace: (accountId, kind, names) =>
      transaction(async () => {
        await sql.run('DELETE FROM account_grants WHERE account_id = $1 AND kind = $2', [accountId, kind]);
        await sql.run('INSERT INTO account_grants (account_id, kind, name) SELECT $1, $2, unnest($3::text[])', [accountId, kind, [...names]]);
      }),
  };
}
