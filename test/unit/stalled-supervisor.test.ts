/**
 * A stop whose supervisor never acts on it (stopped by SIGSTOP, a frozen cgroup, hung): the
 * session stayed shuttingdown for good, its game server running and its slot taken. Past the
 * grace period and a margin the service kills the supervisor, and the session ends as lost with
 * its game server. Unsandboxed: the test needs no root.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RuntimeEvent } from '../../server/domain/ports/runtime.js';
import { ProcessRuntime, STOP_OVERRUN_MS } from '../../server/runtime/process/process-runtime.js';
import { eventually } from '../support/eventually.mjs';
import { freePort } from '../support/free-port.js';
import { listenerLaunch } from '../support/launch-specs.js';
import { reapSessionsDir } from '../support/session-processes.js';

const refused = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(false)));
    socket.once('error', () => resolve(true));
  });

describe('a stop whose supervisor is stopped (SIGSTOP)', () => {
  const sessionsDir = mkdtempSync(join(tmpdir(), 'session-host-stalled-supervisor-'));
  afterAll(() => reapSessionsDir(sessionsDir));

  it('ends the session as lost, game server and all, once the grace period and its margin are over', async () => {
    const events: RuntimeEvent[] = [];
    const graceMs = 500;
    const runtime = new ProcessRuntime({ sessionsDir, graceMs, retentionMs: 3_600_000, sandboxes: undefined, now: Date.now, instanceId: randomUUID() });
    runtime.onEvent((event) => events.push(event));
    const port = await freePort();
    let supervisor: number | undefined;
    try {
      await runtime.start(listenerLaunch('s1', port));
      await eventually(() => events.some((e) => e.type === 'running'), { timeoutMs: 15_000, what: 'the game server running' });
      supervisor = JSON.parse(readFileSync(join(sessionsDir, 's1', 'state.json'), 'utf8')).supervisorPid as number;
      process.kill(supervisor, 'SIGSTOP');
      const stoppedAt = Date.now();
      await runtime.stop('s1');
      await eventually(() => events.some((e) => e.type === 'lost' || e.type === 'exited'), {
        timeoutMs: graceMs + STOP_OVERRUN_MS + 5_000,
        what: 'the session to end',
      });
      expect(events.at(-1)).toMatchObject({ type: 'lost', sessionId: 's1' });
      // Not before the supervisor had its grace period and margin.
      expect(Date.now() - stoppedAt).toBeGreaterThanOrEqual(graceMs + STOP_OVERRUN_MS - 50);
      await eventually(() => refused(port), { timeoutMs: 5_000, what: 'the game server gone' });
    } finally {
      if (supervisor) {
        try {
          process.kill(supervisor, 'SIGCONT');
        } catch {
          // Already gone (the fix killed it).
        }
      }
      await runtime.close();
    }
  }, 60_000);
});
