import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractFetch } from '../support/contract.js';
import { caller, expectError } from '../support/http.js';
import { startService, type RunningService } from '../support/service.js';
import { waitForStatus } from '../support/sessions.js';

describe('runtime quota', () => {
  const contract = contractFetch();
  let clock = Date.parse('2026-11-22T10:00:00.000Z');
  let running: RunningService;
  let call: ReturnType<typeof caller>;

  beforeAll(async () => {
    // One minute of quota, 10 s of grace after it runs out; time is the test's to move.
    running = await startService(
      { runtime: 'simulated', defaultQuotaMinutes: 1, quota: { terminate: true, graceSeconds: 10, tickMs: 20 } },
      { now: () => clock },
    );
    call = caller(running.url, running.token, contract);
  });
  afterAll(async () => {
    await running.close();
    expect(contract.violations).toEqual([]);
  });

  it('charges run time to the second, refuses starts once exhausted, and ends running sessions after the grace', async () => {
    for (const id of ['q1', 'q2']) {
      expect((await call('POST', '/session', { body: { id, location: 'local-a', image: 'echo' } })).status).toBe(201);
      await waitForStatus(call, id, ['running']);
    }
    clock += 20_500;
    // Two sessions, 21 s each so far (a begun second counts).
    expect((await call('GET', '/account')).json.quota).toEqual({ total: 1, used: 42 / 60, remaining: 18 / 60 });

    clock += 10_000;
    // 31 s each: the minute is gone; the next start is refused while the grace runs.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const refused = await call('POST', '/session', { body: { id: 'q3', location: 'local-a', image: 'echo' } });
    expectError(refused, 403, 'QUOTA_EXCEEDED', '/session');
    expect((await call('GET', '/session/q1')).json.status).toBe('running');

    clock += 10_000;
    const ended = await Promise.all(['q1', 'q2'].map((id) => waitForStatus(call, id, ['exited', 'dead'])));
    for (const session of ended) expect(session).toMatchObject({ status: 'exited', end_reason: 'quota_exhausted' });

    const runSeconds = ended.reduce((sum, s) => sum + Math.ceil((s.ended - s.started) / 1000), 0);
    const account = (await call('GET', '/account')).json;
    expect(account.quota.used * 60).toBeCloseTo(runSeconds, 6);
    expect(account.quota.remaining).toBe(0);
    expectError(await call('POST', '/session', { body: { id: 'q4', location: 'local-a', image: 'echo' } }), 403, 'QUOTA_EXCEEDED', '/session');
  });
});
