/**
 * The storage budget's running total is kept per instance: an instance that does not hold the
 * retention role never purges, so it measures again on each pruning tick (once a minute), or
 * what another instance purged would count against the account on it for good.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { contractFetch } from '../support/contract.js';
import { eventually } from '../support/eventually.mjs';
import { caller } from '../support/http.js';
import { createDatabase } from '../support/postgres.mjs';
import { clusterTestsMissing } from '../support/cluster/haproxy.js';
import { startService, type RunningService } from '../support/service.js';

type Call = ReturnType<typeof caller>;

const missing = clusterTestsMissing();
describe.skipIf(missing)(`the storage budget on two instances${missing ? ` (skipped: ${missing})` : ''}`, () => {
  const contract = contractFetch();
  const running: RunningService[] = [];
  afterAll(async () => {
    for (const service of running) await service.close();
    expect(contract.violations).toEqual([]);
  });
  // Both instances' clocks, moved past the retention together.
  let offsetMs = 0;
  const now = () => Date.now() + offsetMs;
  // 256 players of 128 characters: 48 KiB of the budget a join; 128 KiB is full after two.
  const players = (session: string, from: number) => Array.from({ length: 256 }, (_, i) => `${session}-${from + i}-`.padEnd(128, 'p'));

  it('gives back on every instance what the retention purged, whichever instance purged it', async () => {
    const databaseUrl = await createDatabase('budget');
    for (let i = 0; i < 2; i++) running.push(await startService({ runtime: 'simulated', storageBudgetMiB: 0.125, databaseUrl }, { now }));
    const [a, b] = running.map((service) => caller(service.url, service.token, contract)) as [Call, Call];
    const join = (call: Call, session: string, from: number) => call('PUT', '/session/player/join', { body: { session, players: players(session, from) } });

    expect((await a('POST', '/session', { body: { id: 'filled', location: 'local-a', image: 'echo' } })).status).toBe(201);
    for (const from of [0, 256]) expect((await join(a, 'filled', from)).status).toBe(200);
    // Both instances have measured the account full.
    expect((await join(a, 'filled', 512)).status).toBe(403);
    expect((await join(b, 'filled', 512)).status).toBe(403);
    await a('DELETE', '/session/filled');
    await eventually(async () => ['exited', 'dead'].includes((await a('GET', '/session/filled')).json.status), { what: 'the session ended' });

    // Past the retention: the instance with the retention role purges it; the other one only prunes.
    offsetMs += 8 * 24 * 60 * 60 * 1000;
    await eventually(
      async () => {
        for (const service of running) await service.service.pruneRecords();
        return (await a('GET', '/session/filled')).status === 404;
      },
      { what: 'the ended session purged by the instance holding the retention role' },
    );
    for (const [call, id] of [[a, 'after-a'], [b, 'after-b']] as const) {
      expect((await call('POST', '/session', { body: { id, location: 'local-a', image: 'echo' } })).status).toBe(201);
      expect((await join(call, id, 0)).status).toBe(200);
      await call('DELETE', `/session/${id}`);
    }
  });
  it('counts on every instance, the one that purges too, what the others charged, after a pruning tick', async () => {
    const databaseUrl = await createDatabase('budget-charged');
    const pair: RunningService[] = [];
    for (let i = 0; i < 2; i++) pair.push(await startService({ runtime: 'simulated', storageBudgetMiB: 0.125, databaseUrl }, { now }));
    running.push(...pair);
    const [a, b] = pair.map((service) => caller(service.url, service.token, contract)) as [Call, Call];
    // 160 players of 128 characters: 30 KiB of the 128 KiB budget a join, so four fit and a fifth does not.
    let next = 0;
    const join = (call: Call) =>
      call('PUT', '/session/player/join', { body: { session: 'shared', players: Array.from({ length: 160 }, () => `shared-${next++}-`.padEnd(128, 'p')) } });
    expect((await a('POST', '/session', { body: { id: 'shared', location: 'local-a', image: 'echo' } })).status).toBe(201);
    // Turn about: each instance has measured once, then charged only its own joins (a: 2 of 4, b: 3 of 4).
    for (const call of [a, b, a, b]) expect((await join(call)).status).toBe(200);
    // A pruning tick: every instance, whichever holds the retention role, measures again.
    for (const service of pair) await service.service.pruneRecords();
    for (const call of [a, b]) expect((await join(call)).status).toBe(403);
  });
});
