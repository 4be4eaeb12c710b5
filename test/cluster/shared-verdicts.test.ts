/**
 * Two instances' token caches on one token store, kept coherent by the PostgreSQL bus: a token
 * each has verified (and cached) is refused by the second as soon as the first revokes it, and
 * a reconnect of the bus drops what may have gone stale meanwhile. Without the bus the second
 * instance would accept the revoked token from its cache for ever.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { PostgresCoordination } from '../../server/cluster/postgres.js';
import { shareTokenVerdicts } from '../../server/cluster/share.js';
import { bootstrap } from '../../server/bootstrap.js';
import { Tokens } from '../../server/domain/tokens.js';
import { SecretBox } from '../../server/security/secret-box.js';
import { createTokenVault } from '../../server/security/token-vault.js';
import { openDatabase } from '../../server/store/sqlite.js';
import { createSqliteStore } from '../../server/store/sqlite-store.js';
import { eventually } from '../support/eventually.mjs';
import { clusterTestsMissing } from '../support/cluster/haproxy.js';
import { createDatabase } from '../support/postgres.mjs';

const missing = clusterTestsMissing();
describe.skipIf(missing)(`token verdicts shared between instances${missing ? ` (skipped: ${missing})` : ''}`, () => {
  const started: PostgresCoordination[] = [];
  afterAll(async () => {
    for (const coordination of started) await coordination.close();
  });

  it('refuses on one instance a token revoked through another, once the message arrives', async () => {
    const url = await createDatabase('verdicts');
    // One store, two instances' Tokens (each with its own cache), as on one PostgreSQL.
    const store = createSqliteStore(openDatabase(':memory:'));
    const vault = createTokenVault(SecretBox.fromKey(Buffer.alloc(32, 7)));
    const [a, b] = [0, 1].map(() => new Tokens(store.tokens, vault, { isAccountActive: async () => true }, Date.now)) as [Tokens, Tokens];
    const { accountId } = (await bootstrap(store.accounts, a, { bootstrapToken: `gsh_${'B'.repeat(40)}`, quotaMinutes: 1, now: Date.now() }))!;
    for (const [id, tokens] of [['verdicts-a', a], ['verdicts-b', b]] as const) {
      const coordination = await PostgresCoordination.start({ databaseUrl: url, instanceId: id });
      started.push(coordination);
      shareTokenVerdicts(coordination, tokens, (error) => {
        throw error;
      });
    }
    const minted = await a.mintFor(accountId, { name: 'shared', scopes: ['session:read'] });
    if (!minted.ok) throw new Error('mint failed');
    expect((await b.authenticate(minted.value, ['session:read'])).ok).toBe(true);
    expect(await a.revoke(accountId, minted.record.id)).toBe(true);
    expect(await a.authenticate(minted.value, ['session:read'])).toMatchObject({ ok: false, reason: 'revoked' });
    // These caches have no cap: without the message b would accept it for ever, so the wait can be generous.
    await eventually(() => b.authenticate(minted.value, ['session:read']), { until: (r) => !r.ok, what: 'b refusing the revoked token', timeoutMs: 15_000, intervalMs: 5 });
  });
});
