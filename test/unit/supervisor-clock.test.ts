/**
 * A session's times on the process runtime are the service's, whatever the wall clock did: the
 * service keeps a steady clock (server/clock.ts) that leaves out steps of the wall clock made
 * while it runs, but each supervisor is a process started later, whose Date.now() includes them.
 * Here the service's clock is a day behind the wall clock (what a forward step of a day while the
 * service runs leaves): the session's running and exit times must still fall within its life on
 * the service's clock, or the step is charged to it as quota (outside check 7).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RuntimeEvent } from '../../server/domain/ports/runtime.js';
import { ProcessRuntime } from '../../server/runtime/process/process-runtime.js';
import { eventually } from '../support/eventually.mjs';
import { freePort } from '../support/free-port.js';
import { listenerLaunch } from '../support/launch-specs.js';

const DAY_MS = 86_400_000;

describe('process runtime times after a step of the wall clock', () => {
  const sessionsDir = mkdtempSync(join(tmpdir(), 'session-host-clock-'));
  afterAll(() => rmSync(sessionsDir, { recursive: true, force: true }));

  it('reports running and exit on the service clock, not the supervisor wall clock', async () => {
    const serviceNow = () => Date.now() - DAY_MS;
    const runtime = new ProcessRuntime({ sessionsDir, graceMs: 1000, retentionMs: 3_600_000, sandboxes: undefined, now: serviceNow, instanceId: `clock-${process.pid}` });
    const events: RuntimeEvent[] = [];
    runtime.onEvent((event) => events.push(event));
    try {
      const started = serviceNow();
      await runtime.start(listenerLaunch('clock1', await freePort()));
      await eventually(async () => events.some((e) => e.type === 'running'), { timeoutMs: 10_000, what: 'running' });
      await runtime.stop('clock1');
      await eventually(async () => events.some((e) => e.type === 'exited' || e.type === 'lost'), { timeoutMs: 10_000, what: 'the end' });
      const ended = serviceNow();
      const times = events.filter((e) => e.type === 'running' || e.type === 'exited').map((e) => [e.type, e.at] as const);
      expect(times.map(([type]) => type)).toEqual(['running', 'exited']);
      for (const [type, at] of times) {
        expect(at, type).toBeGreaterThanOrEqual(started);
        expect(at, type).toBeLessThanOrEqual(ended);
      }
    } finally {
      await runtime.close();
    }
  }, 30_000);
});
