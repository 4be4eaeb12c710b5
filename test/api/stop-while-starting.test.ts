/**
 * A stop that comes right after the start, while the game server's sandbox is still being set up
 * (process runtime): its SIGTERM reaches the game server once it exists, so the session ends as a
 * running one's stop does, not after the whole grace period with a SIGKILL (outside check 8).
 */
import { describe, expect, it } from 'vitest';
import { testFleet, useService } from '../support/service.js';
import { waitForStatus } from '../support/sessions.js';

/** Long, so that a stop which only the grace period's kill ends cannot pass for one that worked. */
const GRACE_SECONDS = 60;

describe('a stop while the sandbox starts', () => {
  const service = useService({}, { fleet: testFleet((fleet) => void (fleet.runtime.stopGraceSeconds = GRACE_SECONDS)) });

  it('reaches the game server, which ends as it does on any stop', async () => {
    for (const id of ['early-1', 'early-2', 'early-3']) {
      expect((await service.call('POST', '/session', { body: { id, location: 'local-a', image: 'echo' } })).status).toBe(201);
      expect((await service.call('DELETE', `/session/${id}`)).status).toBe(204);
    }
    for (const id of ['early-1', 'early-2', 'early-3']) {
      // Well within the grace period: only a SIGTERM that reached the game server ends it this soon.
      const ended = await waitForStatus(service.call, id, ['exited', 'dead'], (GRACE_SECONDS / 3) * 1000);
      expect(ended.end_reason).toBe('stopped');
    }
  });
});
