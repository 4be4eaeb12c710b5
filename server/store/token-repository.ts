import type { TokenCap, TokenRecord, TokenRepository } from '../domain/ports/tokens.js';
import type { Db } from './sqlite.js';
import type { Sync } from './async.js';
import { DELETE_ENDED, ENDED_OF_ACCOUNT_PAST_KEPT, TOKEN_COLUMNS, TOKEN_COUNTS_OF_ACCOUNT, tokenFromRow, type TokenRow } from './rows.js';

export function createTokenRepository(db: Db): Sync<TokenRepository> {
  const insert = db.prepare(
    `INSERT INTO tokens (id, account_id, issuer_id, name, scopes, hash, sealed, hint, created, expires_at)
     VALUES (@id, @accountId, @issuerId, @name, @scopes, @hash, @sealed, @hint, @created, @expiresAt)`,
  );
  const counts = db.prepare(TOKEN_COUNTS_OF_ACCOUNT('@accountId', '@now'));
  const trimEnded = db.prepare(`DELETE FROM tokens WHERE id IN (${ENDED_OF_ACCOUNT_PAST_KEPT('@accountId', '@now', '@ended', '@keepEnded')})`);
  const purgeEnded = db.prepare(DELETE_ENDED('@endedBy'));
  const byId = db.prepare(`SELECT ${TOKEN_COLUMNS} FROM tokens WHERE id = ?`);
  const byHash = db.prepare(`SELECT ${TOKEN_COLUMNS} FROM tokens WHERE hash = ?`);
  const active = db.prepare(
    `SELECT ${TOKEN_COLUMNS} FROM tokens WHERE account_id = ? AND revoked_at IS NULL ORDER BY created DESC, id`,
  );
  const revoke = db.prepare(
    `WITH RECURSIVE tree(id) AS (SELECT ? UNION SELECT t.id FROM tokens t JOIN tree ON t.issuer_id = tree.id)
     UPDATE tokens SET revoked_at = ? WHERE id IN (SELECT id FROM tree) AND revoked_at IS NULL`,
  );
  const setDisabled = db.prepare('UPDATE tokens SET disabled = ? WHERE id = ?');
  const sealed = db.prepare('SELECT sealed FROM tokens WHERE id = ?').pluck();
  const lastUsed = db.prepare('UPDATE tokens SET last_used = ? WHERE id = ? AND (last_used IS NULL OR last_used < ?)');

  return {
    insert(record, secret) {
      insert.run({ ...record, scopes: record.scopes.join(' '), hash: secret.hash, sealed: secret.sealed });
    },
    // One connection, and this function runs whole (synchronously): nothing can insert between its count and its insert.
    insertWithin: db.transaction((record: TokenRecord, secret: { hash: Buffer; sealed: Buffer }, cap: TokenCap) => {
      const of = { accountId: record.accountId, now: cap.now };
      const held = counts.get(of) as { live: number; ended: number };
      if (held.live >= cap.max) return false;
      insert.run({ ...record, scopes: record.scopes.join(' '), hash: secret.hash, sealed: secret.sealed });
      // Most mints find the account within its bound: then no walk of its chains.
      if (held.ended > cap.keepEnded) trimEnded.run({ ...of, ended: held.ended, keepEnded: cap.keepEnded });
      return true;
    }),
    purgeEnded: (endedBy) => {
      purgeEnded.run({ endedBy });
    },
    findById: (id) => {
      const row = byId.get(id) as TokenRow | undefined;
      return row && tokenFromRow(row);
    },
    findByHash: (hash) => {
      const row = byHash.get(hash) as TokenRow | undefined;
      return row && { ...tokenFromRow(row), hash: row.hash };
    },
    listActive: (accountId) => (active.all(accountId) as TokenRow[]).map(tokenFromRow),
    revokeWithDescendants: (id, at) => {
      revoke.run(id, at);
    },
    setDisabled: (id, disabled) => {
      setDisabled.run(disabled ? 1 : 0, id);
    },
    sealed: (id) => sealed.get(id) as Buffer | undefined,
    recordLastUsed: db.transaction((uses: ReadonlyMap<string, number>) => {
      for (const [id, at] of uses) lastUsed.run(at, id, at);
    }),
  };
}
