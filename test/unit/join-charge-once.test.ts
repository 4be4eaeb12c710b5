/**
 * A join's players are charged to the storage budget once the store has committed them, never
 * from inside the transaction: PostgreSQL runs a deadlock's or a serialization failure's victim
 * again (server/store/postgres/database.ts), and a charge made inside was made once per run, so a
 * join retried once took its players' bytes twice (the account then refused at half its budget).
 * The store here runs every transaction once, rolls it back, then runs it again, as PostgreSQL
 * does for a victim; a join whose commit never happens is charged nothing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { playerBytes, StorageBudget } from '../../server/domain/storage-budget.js';
import { SimulatedRuntime } from '../../server/runtime/simulated-runtime.js';
import { openDatabase } from '../../server/store/sqlite.js';
import { createSqliteStore } from '../../server/store/sqlite-store.js';
import type { Store } from '../../server/store/store.js';
import { sessionsOver } from '../support/domain-sessions.js';
import { account } from '../support/store-records.js';

let cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

const victim = () => Object.assign(new Error('deadlock detected'), { code: '40P01' });

/** Sessions over a store whose transactions behave as `transactions` says; the budget's charges are read back through allows(). */
async function setUp(transactions: 'retried once' | 'never committed') {
  const store: Store = createSqliteStore(openDatabase(':memory:'));
  await store.accounts.insert(account('acc'));
  const real = store.sessions.transaction;
  let armed = false;
  store.sessions.transaction = async (fn, committed, atOnce) => {
    if (!armed) return real(fn, committed, atOnce);
    // The first run rolls back whole (the victim), as PostgreSQL's does.
    await real(async () => {
      await fn();
      throw victim();
    }).catch(() => {});
    if (transactions === 'never committed') throw victim();
    return real(fn, committed, atOnce);
  };
  const budget = new StorageBudget(1_000_000, async (accountId) => store.sessions.storedSize(accountId));
  const runtime = new SimulatedRuntime({ readyMs: 10_000, stopMs: 10, now: () => Date.now() });
  const sessions = sessionsOver(store, runtime, { storage: budget });
  cleanup.push(async () => {
    await sessions.close();
    await store.close();
  });
  expect(await sessions.start('acc', { id: 's', location: 'local-a', image: 'echo' })).toMatchObject({ ok: true });
  // What the account holds before the join: the session's `{}` and `[]`.
  const used = async () => {
    let low = 0;
    let high = budget.budgetBytes;
    while (low < high) {
      const mid = (low + high + 1) >>> 1;
      if (await budget.allows('acc', mid)) low = mid;
      else high = mid - 1;
    }
    return budget.budgetBytes - low;
  };
  expect(await used()).toBe(4);
  armed = true;
  return { sessions, used };
}

describe('a join’s storage charge', () => {
  const players = ['alice', 'bob', 'carol'];

  it('is made once when the store runs the transaction again', async () => {
    const { sessions, used } = await setUp('retried once');
    expect(await sessions.join('acc', 's', players)).toEqual({ ok: true, players });
    expect(await used()).toBe(4 + playerBytes(players));
  });

  it('is not made when the join never commits', async () => {
    const { sessions, used } = await setUp('never committed');
    await expect(sessions.join('acc', 's', players)).rejects.toThrow(/deadlock/);
    expect(await used()).toBe(4);
  });
});
