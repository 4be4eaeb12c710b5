/**
 * Instance identity: a copy of a data directory, started beside the original, adopts nothing of
 * the original (its game servers are neither adopted nor stopped nor counted), while the
 * original, restarted on its own directory, adopts them as before.
 */
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useRestartableService } from '../support/process.js';
import { reapSessionProcesses, testFleet, writeFleet } from '../support/service.js';
import { hostPort, udpExchange, waitForStatus } from '../support/sessions.js';

describe('instance identity', () => {
  const { dataDir, start } = useRestartableService();

  it('a copy of a data directory beside the original adopts nothing of the original', async () => {
    writeFleet(dataDir, testFleet());
    const first = await start();
    expect((await first.call('POST', '/session', { body: { id: 'original', location: 'local-a', image: 'echo' } })).status).toBe(201);
    const session = await waitForStatus(first.call, 'original', ['running']);
    await first.kill('SIGKILL');

    const copyDir = `${dataDir}-copy`;
    execFileSync('cp', ['-a', dataDir, copyDir]);
    try {
      const copy = await start(copyDir);
      expect(copy.output()).toContain('this data directory is a copy');
      // Not adopted: ended here, its node's capacity free, and the game server untouched.
      expect(await waitForStatus(copy.call, 'original', ['dead'])).toMatchObject({ end_reason: 'node_lost' });
      const used = (await copy.call('GET', '/location')).json.locations.map((l: { capacity: { used: number } }) => l.capacity.used);
      expect(used).toEqual([0, 0]);
      expect(await udpExchange(session.host, hostPort(session, 'udp'), 'still mine?')).toBe('echo original still mine?');
      await copy.kill('SIGTERM');

      // The original still adopts and stops its own.
      const again = await start();
      expect((await again.call('GET', '/session/original')).json.status).toBe('running');
      expect((await again.call('DELETE', '/session/original')).status).toBe(204);
      expect(await waitForStatus(again.call, 'original', ['exited'])).toMatchObject({ end_reason: 'stopped' });
      await again.kill('SIGTERM');
    } finally {
      reapSessionProcesses(copyDir);
      rmSync(copyDir, { recursive: true, force: true });
    }
  }, 60_000);
});
