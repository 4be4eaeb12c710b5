/**
 * A store transaction only touches the database (the port's rule), so when PostgreSQL rolls one
 * back as a deadlock's victim (40P01) the store runs it again instead of failing the request.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { openPostgresStore } from '../../server/store/postgres/store.js';
import type { Store } from '../../server/store/store.js';
import { clusterTestsMissing } from '../support/cluster/haproxy.js';
import { createDatabase } from '../support/postgres.mjs';
import { account } from '../support/store-records.js';

const missing = clusterTestsMissing();
describe.skipIf(missing)(`PostgreSQL store transactions${missing ? ` (skipped: ${missing})` : ''}`, () => {
  let store: Store | undefined;
  afterAll(() => store?.close());

  it('run again, whole, when PostgreSQL breaks a deadlock by rolling one back', async () => {
    store = await openPostgresStore(await createDatabase('retry'), { poolSize: 4 });
    const { accounts, sessions } = store;
    await accounts.insert(account('a'));
    await accounts.insert(account('b'));
    // Each charges both accounts, in opposite orders, each waiting until the other holds its first row.
    let held = 0;
    let bothHold!: () => void;
    const bothHolding = new Promise<void>((resolve) => (bothHold = resolve));
    const runs = { ab: 0, ba: 0 };
    const charge = (first: string, second: string, name: keyof typeof runs) =>
      sessions.transaction(async () => {
        runs[name]++;
        await accounts.addUsedSeconds(first, 60);
        if (++held === 2) bothHold();
        await bothHolding;
        await accounts.addUsedSeconds(second, 60);
      });
    await Promise.all([charge('a', 'b', 'ab'), charge('b', 'a', 'ba')]);
    // One of them was the victim and ran twice; neither charge is lost nor counted twice.
    expect(runs.ab + runs.ba).toBe(3);
    expect((await accounts.findById('a'))?.usedSeconds).toBe(120);
    expect((await accounts.findById('b'))?.usedSeconds).toBe(120);
  });
});
