/**
 * PostgreSQL's session reads are prepared statements, kept per connection. A column that a newer
 * instance's migration adds to `sessions` while this one runs (a rolling upgrade) must not break
 * them: a prepared `SELECT s.*` would then fail with "cached plan must not change result type"
 * on every call; named columns keep the result type as it was.
 */
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { justPlaced } from '../../server/domain/session-states.js';
import { openPostgresStore } from '../../server/store/postgres/store.js';
import type { Store } from '../../server/store/store.js';
import { clusterTestsMissing } from '../support/cluster/haproxy.js';
import { createDatabase } from '../support/postgres.mjs';

const missing = clusterTestsMissing();
describe.skipIf(missing)(`prepared session reads on PostgreSQL${missing ? ` (skipped: ${missing})` : ''}`, () => {
  let store: Store | undefined;
  afterAll(() => store?.close());

  it('keep answering after another instance adds a column to sessions', async () => {
    const url = await createDatabase('prepared');
    // One connection: the statement prepared by the first reads is the one the later reads use.
    store = await openPostgresStore(url, { poolSize: 1 });
    await store.accounts.insert({ id: 'acc', name: 'Studio', email: 'studio@example.com', quotaMinutes: 100, usedSeconds: 0, operator: false, disabled: false, created: 1 });
    await store.sessions.insert({
      id: 's1', accountId: 'acc', key: 'key-s1', image: 'echo', tag: '1', location: 'local', nodeId: 'n1', host: '127.0.0.1', created: 1000,
      ports: [{ name: 'game', type: 'udp', container: 7777, host: 20000 }], labels: { mode: 'ctf' }, args: [], restart: false, expires: null,
      ...justPlaced(),
    });
    const reads = () => Promise.all([store!.sessions.list({ accountId: 'acc', all: false, labels: {}, notLabels: {}, limit: 100 }), store!.sessions.findOwned('acc', 's1')]);
    const before = await reads();
    expect(before[0].map((s) => s.id)).toEqual(['s1']);

    const other = new pg.Client({ connectionString: url });
    await other.connect();
    try {
      await other.query('ALTER TABLE sessions ADD COLUMN added_by_a_newer_version TEXT');
    } finally {
      await other.end();
    }
    expect(await reads()).toEqual(before);
  });
});
