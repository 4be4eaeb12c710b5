/**
 * The token verdict cache's age cap: with several instances, a revocation reaches the others as
 * a bus message, which can be lost. Two instances' Tokens on one store with no bus between them
 * (every message lost): the second keeps its cached verdict until the cap, then asks the store.
 */
import { describe, expect, it } from 'vitest';
import { bootstrap } from '../../server/bootstrap.js';
import { Tokens } from '../../server/domain/tokens.js';
import { SecretBox } from '../../server/security/secret-box.js';
import { createTokenVault } from '../../server/security/token-vault.js';
import { openDatabase } from '../../server/store/sqlite.js';
import { createSqliteStore } from '../../server/store/sqlite-store.js';

const CAP_MS = 3000;

describe('the token verdict cache with a max age', () => {
  let clock = Date.parse('2026-11-22T10:00:00.000Z');
  const store = createSqliteStore(openDatabase(':memory:'));
  const vault = createTokenVault(SecretBox.fromKey(Buffer.alloc(32, 7)));
  const instance = () => new Tokens(store.tokens, vault, { isAccountActive: async () => true }, () => clock, { verdictMaxAgeMs: CAP_MS });
  const [a, b] = [instance(), instance()];

  it('refuses a token revoked elsewhere once its cached verdict is older than the cap, though no forget arrived', async () => {
    const { accountId } = (await bootstrap(store.accounts, a, { bootstrapToken: `gsh_${'C'.repeat(40)}`, quotaMinutes: 1, now: clock }))!;
    const minted = await a.mintFor(accountId, { name: 'cached', scopes: ['session:read'] });
    if (!minted.ok) throw new Error('mint failed');
    expect((await b.authenticate(minted.value, ['session:read'])).ok).toBe(true);
    expect(await a.revoke(accountId, minted.record.id)).toBe(true);

    // B's verdict is cached and nobody told B: within the cap it still stands (the cache is in use) ...
    clock += CAP_MS - 1;
    expect((await b.authenticate(minted.value, ['session:read'])).ok).toBe(true);
    // ... and at the cap it is read again from the store.
    clock += 1;
    expect(await b.authenticate(minted.value, ['session:read'])).toMatchObject({ ok: false, reason: 'revoked' });
  });
});
