/**
 * An instance on PostgreSQL caps how long it trusts a cached token verdict: a token revoked in
 * the database by another instance whose forget message never arrived (here: written straight
 * to the table, so no message is sent at all) is refused once the cap has passed on this
 * instance's clock. Without the cap it would be accepted from the cache until some unrelated
 * token write.
 */
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { clusterTestsMissing } from '../support/cluster/haproxy.js';
import { createDatabase } from '../support/postgres.mjs';
import { startService, type RunningService } from '../support/service.js';

const missing = clusterTestsMissing();
describe.skipIf(missing)(`the token verdict cap with several instances${missing ? ` (skipped: ${missing})` : ''}`, () => {
  let running: RunningService | undefined;
  afterAll(() => running?.close());

  it('refuses a token revoked behind its back once the cached verdict is a few seconds old', async () => {
    const databaseUrl = await createDatabase('verdictcap');
    // The service's clock stands still unless the test moves it.
    let clock = Date.now();
    running = await startService({ databaseUrl }, { now: () => clock });
    const get = () => fetch(`${running!.url}/session`, { headers: { authorization: `Bearer ${running!.token}` } }).then((r) => r.status);
    expect(await get()).toBe(200);

    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      await db.query('UPDATE tokens SET revoked_at = $1', [clock]);
    } finally {
      await db.end();
    }
    // Cached, and no message came: still accepted for now ...
    expect(await get()).toBe(200);
    // ... but not beyond the cap.
    clock += 3000;
    expect(await get()).toBe(401);
  });
});
