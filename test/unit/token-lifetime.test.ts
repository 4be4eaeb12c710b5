import { describe, expect, it } from 'vitest';
import { bootstrap } from '../../server/bootstrap.js';
import { Tokens } from '../../server/domain/tokens.js';
import { SecretBox } from '../../server/security/secret-box.js';
import { createTokenVault } from '../../server/security/token-vault.js';
import { openDatabase } from '../../server/store/sqlite.js';
import { createSqliteStore } from '../../server/store/sqlite-store.js';

describe('a token lifetime', () => {
  // A clock that moves on every reading, as a busy machine's does between two calls.
  let clock = Date.parse('2026-11-22T10:00:00.000Z');
  const store = createSqliteStore(openDatabase(':memory:'));
  const tokens = new Tokens(store.tokens, createTokenVault(SecretBox.fromKey(Buffer.alloc(32, 7))), { isAccountActive: async () => true }, () => clock++);

  it("is counted from the token's own creation instant, for an operator's token and a derived one", async () => {
    const { accountId } = (await bootstrap(store.accounts, tokens, { bootstrapToken: `gsh_${'A'.repeat(40)}`, quotaMinutes: 1, now: clock }))!;
    const minted = await tokens.mintFor(accountId, { name: 'ops', scopes: ['session:read'], expiresAfter: '1h' });
    if (!minted.ok) throw new Error('mintFor failed');
    expect(minted.record.expiresAt! - minted.record.created).toBe(3_600_000);

    const issuer = await tokens.authenticate(minted.value, []);
    if (!issuer.ok) throw new Error('authenticate failed');
    const derived = await tokens.create(issuer.principal, { name: 'derived', scopes: ['session:read'], expiresAfter: '30m' });
    if (!derived.ok) throw new Error('create failed');
    expect(derived.record.expiresAt! - derived.record.created).toBe(1_800_000);
  });
});
