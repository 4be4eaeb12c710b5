/**
 * A warm game server of the process runtime (sandboxed) learns its session through its SDK
 * before the start's `201` is sent: with the warm servers' supervisors paused (SIGSTOP), the 201
 * does not come until they are resumed; the moment it arrives, the SDK already answers with the
 * session; and the echo sample, which long-polls for it, writes what it learned and answers with
 * that id. The 201 says `running` with the warm server's ports. A warm server that dies is replaced.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { sdkCall } from '../support/sdk.js';
import { testFleet, useService } from '../support/service.js';
import { hostPort, runtimeDir, tcpExchange } from '../support/sessions.js';

describe('a warm game server', () => {
  const service = useService({}, { fleet: testFleet((fleet) => (fleet.pools = [{ location: 'local-a', image: 'echo', tag: 'latest', warm: 2 }])) });
  const store = () => service.running.service.store;

  it('knows its session through the SDK when the 201 arrives', async () => {
    for (const id of ['warm-a', 'warm-b']) {
      await vi.waitFor(async () => expect((await store().warmServers.all()).filter((server) => server.status === 'ready')).toHaveLength(2), {
        timeout: 30_000,
        interval: 50,
      });
      const supervisors = (await store().warmServers.all()).map(
        (server) => JSON.parse(readFileSync(join(service.running.dataDir, 'sessions', server.key, 'state.json'), 'utf8')).supervisorPid as number,
      );
      for (const pid of supervisors) process.kill(pid, 'SIGSTOP');
      let resumed = false;
      setTimeout(() => {
        resumed = true;
        for (const pid of supervisors) process.kill(pid, 'SIGCONT');
      }, 300);
      const started = await service.call('POST', '/session', { body: { id, location: 'local-a', image: 'echo', labels: { mode: 'ranked' } } });
      // The answer waited for the handoff, which waited for the paused supervisor.
      expect(resumed).toBe(true);
      const dir = await runtimeDir(service.running, id);
      // Asked at once: no waiting, no retry.
      const allocation = await sdkCall(join(dir, 'sdk', 'sdk.sock'), 'GET', '/allocation?waitSeconds=0');
      expect(started.status).toBe(201);
      expect(started.json).toMatchObject({ id, status: 'running' });
      expect(allocation.body).toMatchObject({ state: 'allocated', session: { id, labels: { mode: 'ranked' } } });
      // The sample server got it from its long-poll, wrote it down and answers with it.
      await vi.waitFor(() => expect(JSON.parse(readFileSync(join(dir, 'work', 'allocation.json'), 'utf8'))).toMatchObject({ id }), {
        timeout: 15_000,
        interval: 20,
      });
      expect(await tcpExchange(started.json.host, hostPort(started.json, 'tcp'), 'hello')).toBe(`echo ${id} hello`);
    }
    // Two rounds, each waiting up to 30 s for the pool to refill.
  }, 120_000);

  it('is replaced when it dies warm', async () => {
    const ready = async () => (await store().warmServers.all()).filter((server) => server.status === 'ready');
    await vi.waitFor(async () => expect(await ready()).toHaveLength(2), { timeout: 30_000, interval: 50 });
    const [victim] = await ready();
    const state = JSON.parse(readFileSync(join(service.running.dataDir, 'sessions', victim!.key, 'state.json'), 'utf8'));
    process.kill(state.supervisorPid, 'SIGKILL');
    await vi.waitFor(
      async () => {
        const now = await ready();
        expect(now.map((server) => server.key)).not.toContain(victim!.key);
        expect(now).toHaveLength(2);
      },
      { timeout: 30_000, interval: 50 },
    );
  }, 90_000);
});
