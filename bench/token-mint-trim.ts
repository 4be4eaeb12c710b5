/**
 * What a mint's trim of its account's ended tokens costs (TokenRepository.insertWithin: the cap's
 * count, the insert and the trim), through the store as the service opens it, on an account at
 * the ended-token bound: 400 live tokens and 500 ended ones (revoked, each issued by the live root
 * token, as tokens minted with an account's own token are). Two loops, each timed per mint:
 *   mint           mints only: the ended count stays at the bound (nothing to trim);
 *   mint+revoke    each minted token is revoked before the next mint (revocation not timed):
 *                  every mint finds one ended token past the bound and trims it.
 * SQLite always, its statements alone (synchronous NORMAL, as group-commit.ts sets it: no fsync
 * in the time); PostgreSQL too when SESSION_HOST_POSTGRES_URL is set (a fresh database, through
 * the store: round trips included). `node --import tsx bench/token-mint-trim.ts` (prints µs per
 * mint, median of the rounds; the machine's load moves it, so compare runs taken together).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TokenRepository } from '../server/domain/ports/tokens.js';
import { createAccountRepository } from '../server/store/account-repository.js';
import { openStore } from '../server/store/open-store.js';
import { openDatabase } from '../server/store/sqlite.js';
import { createTokenRepository } from '../server/store/token-repository.js';
import { createDatabase } from '../test/support/postgres.mjs';
import { account } from '../test/support/store-records.js';

const LIVE = 400;
const ENDED = 500;
const MINTS = 90;
const ROUNDS = 7;

let created = 1;
const token = (id: string, issuerId: string | null) => ({
  id, accountId: 'acc', issuerId, name: id, scopes: ['session:read' as const], hint: 'abcd', created: created++, expiresAt: null, disabled: false, revokedAt: null, lastUsed: null,
});
const secret = (id: string) => ({ hash: Buffer.from(`h-${id}`), sealed: Buffer.from(`s-${id}`.padEnd(80, 'x')) });
const cap = () => ({ max: 500, now: created, keepEnded: ENDED });

type Tokens = Pick<TokenRepository, 'insert' | 'insertWithin' | 'revokeWithDescendants'>;

async function measure(kind: string, open: (dataDir: string) => Promise<{ tokens: Tokens; close(): Promise<void> }>) {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-token-trim-'));
  const store = await open(dataDir);
  try {
    await store.tokens.insert(token('root', null), secret('root'));
    for (let i = 0; i < LIVE - 1; i++) await store.tokens.insert(token(`live${i}`, 'root'), secret(`live${i}`));
    for (let i = 0; i < ENDED; i++) {
      await store.tokens.insert(token(`ended${i}`, 'root'), secret(`ended${i}`));
      await store.tokens.revokeWithDescendants(`ended${i}`, created++);
    }
    let n = 0;
    const results: Record<string, number[]> = { mint: [], 'mint+revoke': [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const loop of ['mint', 'mint+revoke'] as const) {
        let spent = 0;
        const minted: string[] = [];
        for (let i = 0; i < MINTS; i++) {
          const id = `m${n++}`;
          const started = process.hrtime.bigint();
          if (!(await store.tokens.insertWithin(token(id, 'root'), secret(id), cap()))) throw new Error('refused: the bench account is at its live cap');
          spent += Number(process.hrtime.bigint() - started);
          if (loop === 'mint+revoke') await store.tokens.revokeWithDescendants(id, created++);
          else minted.push(id);
        }
        // Back to LIVE live tokens: the ones minted are revoked and purged (untimed).
        for (const id of minted) await store.tokens.revokeWithDescendants(id, created++);
        await trimTo(store);
        results[loop]!.push(spent / MINTS / 1000);
      }
    }
    for (const [loop, values] of Object.entries(results)) {
      values.sort((a, b) => a - b);
      console.log(`${kind.padEnd(10)} ${loop.padEnd(12)} ${values[Math.floor(values.length / 2)]!.toFixed(0)} µs per mint (rounds: ${values.map((v) => v.toFixed(0)).join(' ')})`);
    }
  } finally {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** One untimed mint that trims the account back to ENDED ended tokens, then that token revoked too (one more ended, trimmed by the next). */
async function trimTo(store: { tokens: Tokens }) {
  const id = `t${created}`;
  await store.tokens.insertWithin(token(id, 'root'), secret(id), cap());
  await store.tokens.revokeWithDescendants(id, created++);
}

await measure('sqlite', async (dataDir) => {
  const db = openDatabase(join(dataDir, 'service.db'));
  db.pragma('synchronous = NORMAL');
  db.pragma('temp_store = MEMORY');
  createAccountRepository(db).insert(account('acc'));
  const sync = createTokenRepository(db);
  return {
    tokens: {
      insert: async (...args) => sync.insert(...args),
      insertWithin: async (...args) => sync.insertWithin(...args),
      revokeWithDescendants: async (...args) => sync.revokeWithDescendants(...args),
    },
    close: async () => {
      db.close();
    },
  };
});
if (process.env.SESSION_HOST_POSTGRES_URL) {
  const databaseUrl = await createDatabase('bench-token-trim');
  await measure('postgresql', async (dataDir) => {
    const { store } = await openStore({ dataDir, databaseUrl });
    await store.accounts.insert(account('acc'));
    return { tokens: store.tokens, close: () => store.close() };
  });
}
