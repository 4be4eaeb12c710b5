/**
 * The process runtime's spare supervisor: a start takes the spare that is already running, and
 * the spare for the next start is spawned only once this start's game server runs (loading Node
 * beside a starting game server would slow its start). Observed through the runtime's spawn hook
 * and its events, not timed.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RuntimeEvent } from '../../server/domain/ports/runtime.js';
import { ProcessRuntime } from '../../server/runtime/process/process-runtime.js';
import { SPARE_NICE } from '../../server/runtime/process/spare-supervisor.js';
import { autogroupOf, groupNice } from '../support/autogroup.js';
import { eventually } from '../support/eventually.mjs';
import { freePort } from '../support/free-port.js';
import { listenerLaunch } from '../support/launch-specs.js';
import { spare } from '../support/spare-processes.js';
import { reapSessionsDir } from '../support/session-processes.js';


describe('the spare supervisor', () => {
  const sessionsDir = mkdtempSync(join(tmpdir(), 'session-host-spare-'));
  afterAll(() => reapSessionsDir(sessionsDir));

  it('is spawned for the next start once the game server of this one runs', async () => {
    const log: string[] = [];
    const runtime = new ProcessRuntime({
      sessionsDir,
      graceMs: 1000,
      retentionMs: 3_600_000,
      sandboxes: undefined,
      now: Date.now,
      instanceId: 'i1',
      onSpareSpawned: () => log.push('spare spawned'),
    });
    const events: RuntimeEvent[] = [];
    runtime.onEvent((event) => {
      events.push(event);
      if (event.type === 'running') log.push('running');
    });
    const port = await freePort();
    try {
      expect(log).toEqual(['spare spawned']);
      // It binds its port a while after its start: the next spare waits for that.
      await runtime.start(listenerLaunch('s1', port, { bindAfterMs: 300 }));
      log.push('handed over');
      await eventually(async () => log.length === 4, { timeoutMs: 10_000, what: 'the next spare' });
      expect(log).toEqual(['spare spawned', 'handed over', 'running', 'spare spawned']);
      await runtime.stop('s1');
      await eventually(async () => events.some((e) => e.type === 'exited' || e.type === 'lost'), { timeoutMs: 10_000, what: 'the session to end' });
    } finally {
      await runtime.close();
    }
  });

  // With autogroups a spare's own nice does not count against other sessions: its session's does.
  it.skipIf(process.getuid?.() !== 0 || !existsSync('/proc/self/autogroup'))('waits at SPARE_NICE in its own scheduling group, and is set back to 0 when taken', async () => {
    const instanceId = `autogroup-${process.pid}`;
    const runtime = new ProcessRuntime({ sessionsDir, graceMs: 1000, retentionMs: 3_600_000, sandboxes: undefined, now: Date.now, instanceId });
    try {
      const { supervisor } = await spare(instanceId);
      const own = autogroupOf(supervisor);
      expect(own).not.toBe('root');
      expect(own).not.toEqual(autogroupOf(process.pid));
      expect(groupNice(supervisor)).toBe(SPARE_NICE);
      await runtime.start(listenerLaunch('s2', await freePort()));
      expect(groupNice(supervisor)).toBe(0);
      // The service's own group is never changed (CI's runner is in the root group, which has none).
      expect([0, 'root']).toContain(groupNice(process.pid));
      await runtime.stop('s2');
    } finally {
      await runtime.close();
    }
  });
});
