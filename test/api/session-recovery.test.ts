import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.mjs';
import { useRestartableService } from '../support/process.js';
import { testFleet, writeFleet } from '../support/service.js';
import { hostPort, runtimeDirOffline, udpExchange, waitForStatus } from '../support/sessions.js';

/** Waits on 2 busy cores: a service loads Node and tsx, and sandboxed starts take seconds there. */
const WAIT_MS = 60_000;

describe('sessions survive a kill -9 of the service', { timeout: 240_000 }, () => {
  const { dataDir, start } = useRestartableService();

  it('re-adopts running game servers, marks vanished ones ended, and keeps capacity and ports consistent', async () => {
    writeFleet(dataDir, testFleet());
    const first = await start();
    const ids = ['keep-1', 'keep-2', 'vanish'];
    for (const [i, id] of ids.entries()) {
      const location = i % 2 === 0 ? 'local-a' : 'local-b';
      expect((await first.call('POST', '/session', { body: { id, location, image: 'echo' } })).status).toBe(201);
    }
    const sessions = await Promise.all(ids.map((id) => waitForStatus(first.call, id, ['running'], WAIT_MS)));
    const before = (await first.call('GET', '/location')).json;

    await first.kill('SIGKILL');

    // While the service is down one game server and its supervisor die.
    const state = JSON.parse(readFileSync(join(runtimeDirOffline(dataDir, 'vanish'), 'state.json'), 'utf8'));
    process.kill(state.supervisorPid, 'SIGKILL');
    process.kill(-state.gamePid, 'SIGKILL');

    const second = await start();
    for (const session of sessions.slice(0, 2)) {
      const adopted = await second.call('GET', `/session/${session.id}`);
      expect(adopted.json.status).toBe('running');
      expect(await udpExchange(session.host, hostPort(session, 'udp'), 'still there?')).toBe(`echo ${session.id} still there?`);
    }
    const lost = await waitForStatus(second.call, 'vanish', ['dead'], WAIT_MS);
    expect(lost.end_reason).toBe('node_lost');

    const after = (await second.call('GET', '/location')).json;
    const used = (body: typeof before) => body.locations.map((l: { capacity: { used: number } }) => l.capacity.used);
    expect(used(before)).toEqual([2, 1]);
    expect(used(after)).toEqual([1, 1]);

    // Adopted sessions stop normally; logs still work.
    for (const id of ['keep-1', 'keep-2']) {
      expect((await second.call('DELETE', `/session/${id}`)).status).toBe(204);
      expect(await waitForStatus(second.call, id, ['exited'], WAIT_MS)).toMatchObject({ end_reason: 'stopped', exit_code: 0 });
      expect((await second.call('GET', `/logs?id=${id}`)).text).toContain('stopping after 1 datagrams');
    }
    expect(used((await second.call('GET', '/location')).json)).toEqual([0, 0]);
    await second.kill('SIGTERM');
  });

  it('records a game server that ended while the service was down', async () => {
    const third = await start();
    // Long enough to be seen running and the service killed before it crashes, on 2 busy cores too (1.5 s was not).
    const body = { id: 'ends-alone', location: 'local-a', image: 'echo', env: { ECHO_CRASH_AFTER_MS: '8000' } };
    expect((await third.call('POST', '/session', { body })).status).toBe(201);
    await waitForStatus(third.call, 'ends-alone', ['running'], WAIT_MS);
    await third.kill('SIGKILL');

    // The supervisor outlives the service and records the crash.
    const statePath = join(runtimeDirOffline(dataDir, 'ends-alone'), 'state.json');
    await eventually(() => JSON.parse(readFileSync(statePath, 'utf8')).phase, { until: (phase) => phase === 'ended', what: 'the supervisor recording the crash', timeoutMs: WAIT_MS });

    const fourth = await start();
    expect((await fourth.call('GET', '/session/ends-alone')).json).toMatchObject({
      status: 'dead',
      end_reason: 'crashed',
      exit_code: 3,
    });
    await fourth.kill('SIGTERM');
  });

  it('finishes a stop that a kill -9 interrupted', async () => {
    const fifth = await start();
    expect((await fifth.call('POST', '/session', { body: { id: 'half-stopped', location: 'local-b', image: 'echo' } })).status).toBe(201);
    await waitForStatus(fifth.call, 'half-stopped', ['running'], WAIT_MS);
    expect((await fifth.call('DELETE', '/session/half-stopped')).status).toBe(204);
    await fifth.kill('SIGKILL');

    const sixth = await start();
    expect(await waitForStatus(sixth.call, 'half-stopped', ['exited', 'dead'], WAIT_MS)).toMatchObject({
      status: 'exited',
      end_reason: 'stopped',
    });
    await sixth.kill('SIGTERM');
  });
});
