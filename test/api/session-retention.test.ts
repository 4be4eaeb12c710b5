/** Ended sessions' directories go after `runtime.retentionHours`; live ones stay, however old. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testFleet, useService } from '../support/service.js';
import { runtimeDir, waitForStatus } from '../support/sessions.js';

const RETENTION_MS = 1000;

describe('retention of ended session directories', () => {
  const service = useService({}, { fleet: testFleet((fleet) => (fleet.runtime.retentionHours = RETENTION_MS / 3_600_000)) });
  const dirOf = (id: string) => runtimeDir(service.running, id);

  it('purges an ended session\'s directory after the retention and keeps a live one', async () => {
    const [ended, live] = [`r-${process.pid}-ended`, `r-${process.pid}-live`];
    for (const id of [ended, live]) {
      expect((await service.call('POST', '/session', { body: { id, location: 'local-a', image: 'echo' } })).status).toBe(201);
      await waitForStatus(service.call, id, ['running']);
    }
    await service.call('DELETE', `/session/${ended}`);
    await waitForStatus(service.call, ended, ['exited']);
    expect(existsSync(await dirOf(ended))).toBe(true);
    const deadline = Date.now() + 10 * RETENTION_MS;
    while (existsSync(await dirOf(ended)) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(existsSync(await dirOf(ended))).toBe(false);
    // Well past the retention since it started, the live session's directory is still there.
    expect(existsSync(join(await dirOf(live), 'work'))).toBe(true);
    expect((await service.call('GET', `/session/${live}`)).json.status).toBe('running');
  });
});
