/**
 * A warm game server is background work until a start claims it (server/runtime/process/
 * process-runtime.ts, session-priority.ts): where the kernel schedules by session (autogroup) and
 * the service may set a session's group, the waiting game server's session runs at nice 10, so
 * its start and whatever it does while it waits yield to claims; the claim sets it back to 0
 * before the start is answered.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { groupNice } from '../support/autogroup.js';
import { testFleet, useService } from '../support/service.js';


describe.skipIf(process.getuid?.() !== 0 || !existsSync('/proc/self/autogroup'))('a warm game server', () => {
  const service = useService({}, { fleet: testFleet((fleet) => (fleet.pools = [{ location: 'local-a', image: 'echo', tag: 'latest', warm: 1 }])) });
  const store = () => service.running.service.store;

  it('waits for its session at nice 10 in its own scheduling group, and runs at 0 once claimed', async () => {
    await vi.waitFor(async () => expect((await store().warmServers.all()).filter((server) => server.status === 'ready')).toHaveLength(1), {
      timeout: 30_000,
      interval: 50,
    });
    const [warm] = await store().warmServers.all();
    const { gamePid } = JSON.parse(readFileSync(join(service.running.dataDir, 'sessions', warm!.key, 'state.json'), 'utf8')) as { gamePid: number };
    expect(groupNice(gamePid)).toBe(10);
    // The service's own group is never changed (CI's runner is in the root group, which has none).
    expect([0, 'root']).toContain(groupNice(process.pid));
    const started = await service.call('POST', '/session', { body: { id: 'claimed', location: 'local-a', image: 'echo' } });
    expect(started.json).toMatchObject({ id: 'claimed', status: 'running' });
    expect(groupNice(gamePid)).toBe(0);
  }, 60_000);
});
