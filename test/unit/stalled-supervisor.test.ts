/**
 * A stop whose supervisor never acts on it (stopped by SIGSTOP, a frozen cgroup, hung): the
 * session stayed shuttingdown for good, its game server running and its slot taken. Past the
 * grace period and a margin the service kills the supervisor, and the session ends as lost with
 * its game server. Unsandboxed: the test needs no root.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { STOP_OVERRUN_MS } from '../../server/runtime/process/process-runtime.js';
import { eventually } from '../support/eventually.mjs';
import { freePort } from '../support/free-port.js';
import { answers } from '../support/port-answers.js';
import { stopWithFrozenSupervisor } from '../support/frozen-supervisor.js';
import { reapSessionsDir } from '../support/session-processes.js';

describe('a stop whose supervisor is stopped (SIGSTOP)', () => {
  const sessionsDir = mkdtempSync(join(tmpdir(), 'session-host-stalled-supervisor-'));
  afterAll(() => reapSessionsDir(sessionsDir));

  it('ends the session as lost, game server and all, once the grace period and its margin are over', async () => {
    const graceMs = 500;
    const port = await freePort();
    const { events, close } = await stopWithFrozenSupervisor(sessionsDir, 's1', port, graceMs);
    const stoppedAt = Date.now();
    try {
      await eventually(() => events.some((e) => e.type === 'lost' || e.type === 'exited'), {
        timeoutMs: graceMs + STOP_OVERRUN_MS + 5_000,
        what: 'the session to end',
      });
      expect(events.at(-1)).toMatchObject({ type: 'lost', sessionId: 's1' });
      // Not before the supervisor had its grace period and margin.
      expect(Date.now() - stoppedAt).toBeGreaterThanOrEqual(graceMs + STOP_OVERRUN_MS - 50);
      await eventually(async () => !(await answers(port)), { timeoutMs: 5_000, what: 'the game server gone' });
    } finally {
      await close();
    }
  }, 60_000);
});
