/**
 * The open-stream sweep's cost (outside check 8, F4): four times a second it asks whether each held
 * stream's token still authenticates, and each ask used to re-read the token's whole issuer chain,
 * so idle streams on the tip of a deep chain cost streams x depth store reads a pass, forever. Now a
 * verdict on a chain is kept until a forget (any token or account write), so an idle pass reads
 * nothing and the pass after a forget reads each token of the held chains once. Counted in store
 * reads, not time. The chain here is built past MAX_DELEGATION_DEPTH on purpose, as one minted
 * before that cap (or by a bypass) would be: the cost must not depend on the cap holding.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TokenRepository } from '../../server/domain/ports/tokens.js';
import { Tokens, type Principal } from '../../server/domain/tokens.js';
import { OpenStreams } from '../../server/http/open-streams.js';
import { SecretBox } from '../../server/security/secret-box.js';
import { createTokenVault } from '../../server/security/token-vault.js';
import { openDatabase } from '../../server/store/sqlite.js';
import { createSqliteStore } from '../../server/store/sqlite-store.js';
import { account } from '../support/store-records.js';

const DEPTH = 60;
const STREAMS = 20;

describe('the open-stream sweep on a deep token chain', () => {
  let streams: OpenStreams | undefined;
  // The sweep's own timer stays still: only the passes this test runs are counted.
  beforeEach(() => vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] }));
  afterEach(() => {
    streams?.endAll();
    vi.useRealTimers();
  });

  it('reads nothing on an idle pass, and each token of the chains once after a forget, however deep and however many streams', async () => {
    const store = createSqliteStore(openDatabase(':memory:'));
    await store.accounts.insert(account('acc'));
    const reads = { tokens: 0, accounts: 0 };
    const counted: TokenRepository = {
      ...store.tokens,
      findById: (id) => {
        reads.tokens++;
        return store.tokens.findById(id);
      },
    };
    const isAccountActive = async (id: string) => {
      reads.accounts++;
      return (await store.accounts.findById(id))?.disabled === false;
    };
    const tokens = new Tokens(counted, createTokenVault(SecretBox.fromKey(Buffer.alloc(32, 3))), { isAccountActive }, () => 1_000);
    const chain: string[] = [];
    for (let i = 0; i < DEPTH; i++) {
      const { record } = await tokens.mint({ accountId: 'acc', issuerId: chain.at(-1) ?? null, name: `t${i}`, scopes: ['session:read'], expiresAt: null });
      chain.push(record.id);
    }
    const unrelated = await tokens.mint({ accountId: 'acc', issuerId: null, name: 'unrelated', scopes: ['session:read'], expiresAt: null });

    streams = new OpenStreams({ events: STREAMS, logs: 8, artifacts: 4 }, (tokenId) => tokens.isLive(tokenId));
    // Each stream on its own token, the chain's last STREAMS: every one DEPTH - STREAMS or more issuers deep.
    const leases = chain.slice(-STREAMS).map((tokenId) => streams!.open('events', { accountId: 'acc', tokenId } as Principal));
    const pass = async () => {
      reads.tokens = 0;
      reads.accounts = 0;
      await streams!.sweep();
      return { ...reads };
    };

    // The first pass reads each token of the chain once (uncached, it was STREAMS walks of ~DEPTH).
    expect(await pass()).toEqual({ tokens: DEPTH, accounts: 1 });
    // Idle: nothing changed, nothing read.
    expect(await pass()).toEqual({ tokens: 0, accounts: 0 });
    expect(await pass()).toEqual({ tokens: 0, accounts: 0 });
    // Any write forgets every verdict: the next pass reads the chain once again, then nothing.
    expect(await tokens.revoke('acc', unrelated.record.id)).toBe(true);
    expect(await pass()).toEqual({ tokens: DEPTH, accounts: 1 });
    expect(await pass()).toEqual({ tokens: 0, accounts: 0 });
    for (const lease of leases) expect('signal' in lease && lease.signal.aborted).toBe(false);

    // Revoking a token in the middle still ends every stream below it at the next pass.
    expect(await tokens.revoke('acc', chain[DEPTH - STREAMS / 2]!)).toBe(true);
    await pass();
    const ended = leases.map((lease) => 'signal' in lease && lease.signal.aborted);
    expect(ended).toEqual(chain.slice(-STREAMS).map((_, i) => i >= STREAMS / 2));
  });
});
