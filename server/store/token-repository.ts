import type { Scope } from '../../generated/types.js';
import type { TokenRecord, TokenRepository } from '../domain/ports/tokens.js';
import type { Db } from './sqlite.js';
import type { Sync } from './async.js';

export interface TokenRow {
  id: string;
  account_id: string;
  issuer_id: string | null;
  name: string;
  scopes: string;
  hash: Buffer;
  hint: string;
  created: number;
  expires_at: number | null;
  disabled: number;
  revoked_at: number | null;
  last_used: number | null;
}

export const COLUMNS = 'id, account_id, issuer_id, name, scopes, hash, hint, created, expires_at, disabled, revoked_at, last_used';

export function toRecord(row: TokenRow): TokenRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    issuerId: row.issuer_id,
    name: row.name,
    scopes: row.scopes === '' ? [] : (row.scopes.split(' ') as Scope[]),
    hint: row.hint,
    created: row.created,
    expiresAt: row.expires_at,
    disabled: row.disabled === 1,
    revokedAt: row.revoked_at,
    lastUsed: row.last_used,
  };
}

export function createTokenRepository(db: Db): Sync<TokenRepository> {
  const insert = db.prepare(
    `INSERT INTO tokens (id, account_id, issuer_id, name, scopes, hash, sealed, hint, created, expires_at)
     VALUES (@id, @accountId, @issuerId, @name, @scopes, @hash, @sealed, @hint, @created, @expiresAt)`,
  );
  const byId = db.prepare(`SELECT ${COLUMNS} FROM tokens WHERE id = ?`);
  const byHash = db.prepare(`SELECT ${COLUMNS} FROM tokens WHERE hash = ?`);
  const active = db.prepare(
    `SELECT ${COLUMNS} FROM tokens WHERE account_id = ? AND revoked_at IS NULL ORDER BY created DESC, id`,
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
    findById: (id) => {
      const row = byId.get(id) as TokenRow | undefined;
      return row && toRecord(row);
    },
    findByHash: (hash) => {
      const row = byHash.get(hash) as TokenRow | undefined;
      return row && { ...toRecord(row), hash: row.hash };
    },
    listActive: (accountId) => (active.all(accountId) as TokenRow[]).map(toRecord),
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
