/**
 * PostgreSQL's event log takes appends from many transactions, and a reader tailing it after the
 * last id it read (SSE, webhooks) must never step over an event that commits after it read a
 * larger id. Appends hold the log's lock to their commit, so ids are handed out in commit order
 * (server/store/postgres/sessions.ts); a plain sequence fails the first case.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { openPostgresStore } from '../../server/store/postgres/store.js';
import type { Store } from '../../server/store/store.js';
import { clusterTestsMissing } from '../support/cluster/haproxy.js';
import { lockWaitOr } from '../support/pg-lock-wait.js';
import { createDatabase } from '../support/postgres.mjs';
import { session } from '../support/store-records.js';

/** A promise with its resolve at hand. */
function signal() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** A tailing reader: what it delivered, in order, each read after the last id it delivered. */
function tail(store: Store) {
  const delivered: number[] = [];
  return {
    delivered,
    async read() {
      for (let batch = await store.sessions.eventsAfter('acc', delivered.at(-1) ?? 0, 100); batch.length > 0; ) {
        delivered.push(...batch.map((e) => e.id));
        batch = await store.sessions.eventsAfter('acc', delivered.at(-1)!, 100);
      }
    },
  };
}

const missing = clusterTestsMissing();
describe.skipIf(missing)(`the PostgreSQL event log under concurrent appends${missing ? ` (skipped: ${missing})` : ''}`, () => {
  const stores: Store[] = [];
  afterAll(async () => {
    for (const store of stores) await store.close();
  });
  const open = async (name: string) => {
    const url = await createDatabase(name);
    const store = await openPostgresStore(url, { poolSize: 12 });
    stores.push(store);
    return { store, url };
  };
  const append = (store: Store, at: number) => store.sessions.appendEvent(session('s'), null, at);

  it('never lets a reader pass an event that commits after a later-numbered one was read', async () => {
    const { store, url } = await open('event-order');
    const reader = tail(store);
    const committed: number[] = [];
    // `early` appends and stays open; `late` appends meanwhile and would commit first.
    const earlyAppended = signal();
    const release = signal();
    const early = store.sessions.transaction(async () => {
      committed.push(await append(store, 1));
      earlyAppended.resolve();
      await release.promise;
    });
    await earlyAppended.promise;
    const late = store.sessions.transaction(async () => {
      committed.push(await append(store, 2));
    });
    // `late` waits for the log (seen in pg_stat_activity), or, without the lock, commits past `early`.
    await lockWaitOr(url, late);
    await reader.read();
    release.resolve();
    await Promise.all([early, late]);
    await reader.read();
    expect(reader.delivered).toEqual([...committed].sort((a, b) => a - b));
  });

  it('delivers every committed event once, in increasing order, to a reader tailing many writers', async () => {
    const { store } = await open('event-tail');
    const reader = tail(store);
    const committed: number[] = [];
    let writing = true;
    const reading = (async () => {
      while (writing) await reader.read();
    })();
    const writer = async (w: number) => {
      for (let t = 0; t < 25; t++) {
        const ids = await store.sessions.transaction(async () => {
          const mine = [await append(store, w)];
          // Some transactions stay open a little while others commit.
          if ((t + w) % 3 === 0) await new Promise((resolve) => setTimeout(resolve, 1 + ((t * w) % 5)));
          if (t % 2 === 0) mine.push(await append(store, w));
          return mine;
        });
        committed.push(...ids);
      }
    };
    await Promise.all(Array.from({ length: 8 }, (_, w) => writer(w)));
    writing = false;
    await reading;
    await reader.read();
    expect(reader.delivered).toEqual([...committed].sort((a, b) => a - b));
  });
});
