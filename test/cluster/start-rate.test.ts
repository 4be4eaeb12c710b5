/** The start-rate limit is one limit however many instances share a PostgreSQL database. */
import { afterAll, describe, expect, it } from 'vitest';
import { PostgresCoordination } from '../../server/cluster/postgres.js';
import { createStartRateLimiter } from '../../server/limits/start-rate.js';
import { clusterTestsMissing } from '../support/cluster/haproxy.js';
import { createDatabase } from '../support/postgres.mjs';

const missing = clusterTestsMissing();
describe.skipIf(missing)(`shared start rate${missing ? ` (skipped: ${missing})` : ''}`, () => {
  const started: PostgresCoordination[] = [];
  afterAll(async () => {
    for (const coordination of started) await coordination.close();
  });

  it('counts starts through every instance against one budget', async () => {
    const url = await createDatabase('start_rate');
    const config = { perSecond: 2, burst: 1, burstWindowSeconds: 60 };
    const limiters: ReturnType<typeof createStartRateLimiter>[] = [];
    for (const id of ['a', 'b', 'c']) {
      const coordination = await PostgresCoordination.start({ databaseUrl: url, instanceId: id });
      started.push(coordination);
      limiters.push(createStartRateLimiter(config, coordination.pool));
    }
    // Two per second plus one burst: three starts in all, wherever they land.
    const answers = await Promise.all([0, 1, 2, 0, 1, 2].map((i) => limiters[i]!.take('account-1', 'local-a')));
    expect(answers.filter((a) => a.ok)).toHaveLength(3);
    const refused = answers.find((a) => !a.ok);
    expect(refused).toMatchObject({ ok: false });
    // Another account, or another location, has a budget of its own.
    expect(await limiters[0]!.take('account-2', 'local-a')).toEqual({ ok: true });
    expect(await limiters[1]!.take('account-1', 'local-b')).toEqual({ ok: true });
  });
});
