/**
 * The storage budget's running totals: measured once per account, then charged and given back
 * (joins, leaves, the retention purge) without measuring again, since measuring an account full
 * of players reads hundreds of thousands of rows; a measure that a purge overtook is not kept.
 */
import { describe, expect, it } from 'vitest';
import type { StoredSize } from '../../server/domain/ports/sessions.js';
import { PLAYER_RECORD_BYTES, playerBytes, StorageBudget } from '../../server/domain/storage-budget.js';

describe('the storage budget', () => {
  it('counts each player as its id\'s UTF-8 bytes and its record', () => {
    expect(playerBytes(['a', 'é'])).toBe(1 + 2 + 2 * PLAYER_RECORD_BYTES);
  });

  it('measures an account once, then keeps charges, leaves and purges in its running total', async () => {
    let measures = 0;
    // 900 bytes: 772 of labels, args and ids, and two players' records.
    const budget = new StorageBudget(1000, async () => (measures++, { bytes: 900 - 2 * PLAYER_RECORD_BYTES, players: 2 }));
    expect(await budget.allows('acc', 100)).toBe(true);
    expect(await budget.allows('acc', 101)).toBe(false);
    budget.charge('acc', 100);
    expect(await budget.allows('acc', 1)).toBe(false);
    budget.release('acc', 50);
    expect(await budget.allows('acc', 50)).toBe(true);
    budget.purged(new Map([['acc', { bytes: 600 - PLAYER_RECORD_BYTES, players: 1 }], ['unmeasured', { bytes: 10, players: 0 }]]));
    expect(await budget.allows('acc', 650)).toBe(true);
    expect(await budget.allows('acc', 651)).toBe(false);
    expect(measures).toBe(1);
  });

  it('does not keep a measure that a purge overtook', async () => {
    let finish: (bytes: number) => void = () => {};
    let measures = 0;
    const budget = new StorageBudget(1000, () => (measures++, new Promise<StoredSize>((resolve) => (finish = (bytes) => resolve({ bytes, players: 0 })))));
    const asking = budget.allows('acc', 500);
    // The purge lands while the measure reads; what it read may include what was purged.
    budget.purged(new Map([['acc', { bytes: 800, players: 0 }]]));
    finish(900);
    expect(await asking).toBe(false);
    const again = budget.allows('acc', 500);
    finish(100);
    expect(await again).toBe(true);
    expect(measures).toBe(2);
  });

  it('holds what racing reservations ask, and gives back what was not stored', async () => {
    const budget = new StorageBudget(1000, async () => ({ bytes: 0, players: 0 }));
    const [a, b, c] = await Promise.all([budget.reserve('acc', 400), budget.reserve('acc', 400), budget.reserve('acc', 400)]);
    expect([a, b, c].filter(Boolean)).toHaveLength(2);
    a!.stored(400);
    b!.cancel();
    b!.cancel();
    expect(await budget.allows('acc', 600)).toBe(true);
    expect(await budget.allows('acc', 601)).toBe(false);
  });

  it('measures again when a charge lands while it reads (the store may or may not hold it)', async () => {
    let measures = 0;
    let release: () => void = () => {};
    // The first read begins before the session below is stored and ends after: it does not see it.
    const budget = new StorageBudget(1000, async () => {
      measures++;
      if (measures === 1) await new Promise<void>((resolve) => (release = resolve));
      return { bytes: measures === 1 ? 0 : 700, players: 0 };
    });
    const asking = budget.allows('acc', 400);
    budget.charge('acc', 700);
    release();
    expect(await asking).toBe(false);
    expect(measures).toBe(2);
  });
});
