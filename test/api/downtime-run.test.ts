/**
 * Supervisor history: a session acknowledged just before the service was killed, whose game
 * server then ran and ended while the service was down, is recorded with its real start, end,
 * exit code and charge (not `start_failed` with nothing charged).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.mjs';
import { useRestartableService } from '../support/process.js';
import { testFleet, writeFleet } from '../support/service.js';
import { runtimeDirOffline } from '../support/sessions.js';

describe('a session that ran entirely while the service was down', () => {
  const { dataDir, start } = useRestartableService();

  it('gets its start, end, exit code and charge', async () => {
    writeFleet(dataDir, testFleet());
    const first = await start();
    const usedBefore = (await first.call('GET', '/account')).json.quota.used;
    // Binds its ports after 1.5 s (the service is gone by then), crashes 1.5 s later.
    const env = { ECHO_BIND_AFTER_MS: '1500', ECHO_CRASH_AFTER_MS: '3000' };
    const created = await first.call('POST', '/session', { body: { id: 'unseen', location: 'local-a', image: 'echo', env } });
    expect(created.status).toBe(201);
    expect(created.json.status).toBe('created');
    await first.kill('SIGKILL');

    const statePath = join(runtimeDirOffline(dataDir, 'unseen'), 'state.json');
    const state = await eventually(async () => JSON.parse(readFileSync(statePath, 'utf8')), {
      until: (s) => s.phase === 'ended',
      timeoutMs: 10_000,
      what: 'the supervisor recording the end',
    });

    const second = await start();
    const session = (await second.call('GET', '/session/unseen')).json;
    expect(session).toMatchObject({ status: 'dead', end_reason: 'crashed', exit_code: 3 });
    // The supervisor's wall-clock times, on the service's steady clock (process-runtime.ts
    // serviceTime): the two clocks are read a moment apart, so within a few milliseconds.
    expect(Math.abs(session.started - state.runningAt)).toBeLessThanOrEqual(5);
    expect(Math.abs(session.ended - state.at)).toBeLessThanOrEqual(5);
    const ranSeconds = Math.ceil((session.ended - session.started) / 1000);
    expect(ranSeconds).toBeGreaterThan(0);
    // Quota is charged from launch (created), not from running.
    const used = (await second.call('GET', '/account')).json.quota.used;
    expect(Math.round((used - usedBefore) * 60)).toBe(Math.ceil((session.ended - session.created) / 1000));
    await second.kill('SIGTERM');
  }, 60_000);
});
