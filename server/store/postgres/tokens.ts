/** PostgreSQL side of tokens (see ../token-repository.ts for SQLite). */
import type { TokenRepository } from '../../domain/ports/tokens.js';
import { DELETE_ENDED, ENDED_OF_ACCOUNT_PAST_KEPT, TOKEN_COLUMNS, TOKEN_COUNTS_OF_ACCOUNT, tokenFromRow, type TokenRow } from '../rows.js';
import { value, type PgDb } from './sql.js';

export function createPgTokenRepository({ sql, transaction, unhurried }: PgDb): TokenRepository {
  const one = async (column: 'id' | 'hash', key: unknown) => {
    const [row] = await sql.rows<TokenRow>(`SELECT ${TOKEN_COLUMNS} FROM tokens WHERE ${column} = $1`, [key]);
    return row;
  };
  const insert: TokenRepository['insert'] = async (r, secret) => {
    await sql.run(
      `INSERT INTO tokens (id, account_id, issuer_id, name, scopes, hash, sealed, hint, created, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [r.id, r.accountId, r.issuerId, r.name, r.scopes.join(' '), secret.hash, secret.sealed, r.hint, r.created, r.expiresAt],
    );
  };
  return {
    insert,
    insertWithin: (r, secret, cap) =>
      transaction(async () => {
        // Held to the commit, across instances: the account's next insertWithin counts after this one's insert.
        // (A lock on the account row would also queue behind its placements; this one queues only token inserts.)
        await sql.run("SELECT pg_advisory_xact_lock(hashtextextended('tokens:' || $1, 0))", [r.accountId]);
        const [held] = await sql.rows<{ live: string | number; ended: string | number }>(TOKEN_COUNTS_OF_ACCOUNT('$1', '$2'), [r.accountId, cap.now]);
        if (Number(held!.live) >= cap.max) return false;
        await insert(r, secret);
        // Most mints find the account within its bound: then no walk of its chains.
        if (Number(held!.ended) > cap.keepEnded) {
          await sql.run(`DELETE FROM tokens WHERE id IN (${ENDED_OF_ACCOUNT_PAST_KEPT('$1', '$2', '$3::bigint', '$4::bigint')})`, [
            r.accountId,
            cap.now,
            Number(held!.ended),
            cap.keepEnded,
          ]);
        }
        return true;
      }),
    // Retention: a backlog may take long (the maintenance deadline).
    purgeEnded: (endedBy) =>
      unhurried(async () => {
        await sql.run(DELETE_ENDED('$1'), [endedBy]);
      }),
    findById: async (id) => {
      const row = await one('id', id);
      return row && tokenFromRow(row);
    },
    findByHash: async (hash) => {
      const row = await one('hash', hash);
      return row && { ...tokenFromRow(row), hash: row.hash };
    },
    listActive: async (accountId) =>
      (await sql.rows<TokenRow>(`SELECT ${TOKEN_COLUMNS} FROM tokens WHERE account_id = $1 AND revoked_at IS NULL ORDER BY created DESC, id`, [accountId])).map(tokenFromRow),
    revokeWithDescendants: async (id, at) => {
      await sql.run(
        `WITH RECURSIVE tree(id) AS (SELECT $1::text UNION SELECT t.id FROM tokens t JOIN tree ON t.issuer_id = tree.id)
         UPDATE tokens SET revoked_at = $2 WHERE id IN (SELECT id FROM tree) AND revoked_at IS NULL`,
        [id, at],
      );
    },
    setDisabled: async (id, disabled) => {
      await sql.run('UPDATE tokens SET disabled = $1 WHERE id = $2', [disabled ? 1 : 0, id]);
    },
    sealed: (id) => value<Buffer>(sql, 'SELECT sealed FROM tokens WHERE id = $1', [id]),
    recordLastUsed: async (uses) => {
      if (uses.size === 0) return;
      // One statement for the whole batch (atomic on its own).
      await sql.run(
        `UPDATE tokens t SET last_used = u.at FROM unnest($1::text[], $2::bigint[]) AS u(id, at)
         WHERE t.id = u.id AND (t.last_used IS NULL OR t.last_used < u.at)`,
        [[...uses.keys()], [...uses.values()]],
      );
    },
  };
}
