/**
 * The process runtime's liveness check reads a session's state.json, then its supervisor's
 * /proc/<pid>/stat. Out of file descriptors between the two (another thread took the last one),
 * the second read failed, which read as "the supervisor is gone": the session was ended lost and
 * its game server killed, though nothing had happened to it. Unknown is not gone. Unsandboxed.
 */
import { randomUUID } from 'node:crypto';
import fs, { mkdtempSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RuntimeEvent } from '../../server/domain/ports/runtime.js';
import { ProcessRuntime, STOP_OVERRUN_MS } from '../../server/runtime/process/process-runtime.js';
import { eventually } from '../support/eventually.mjs';
import { freePort } from '../support/free-port.js';
import { stopWithFrozenSupervisor } from '../support/frozen-supervisor.js';
import { listenerLaunch } from '../support/launch-specs.js';
import { answers } from '../support/port-answers.js';
import { reapSessionsDir } from '../support/session-processes.js';

/**
 * While set, reading any /proc/<pid>/stat fails as it does with no file descriptor left. Patched
 * on node:fs itself (and its ES module exports synced), not with vi.mock: the unit tier shares
 * modules across files (isolate: false), so a runtime another file loaded first kept the real
 * readFileSync and this test passed without its fix.
 */
const exhausted = { proc: false };
const realReadFileSync = fs.readFileSync;
beforeAll(() => {
  fs.readFileSync = ((path: unknown, ...rest: unknown[]) => {
    if (exhausted.proc && typeof path === 'string' && /^\/proc\/\d+\/stat$/.test(path)) {
      throw Object.assign(new Error(`EMFILE: too many open files, open '${path}'`), { code: 'EMFILE' });
    }
    return (realReadFileSync as (...args: unknown[]) => unknown)(path, ...rest);
  }) as typeof fs.readFileSync;
  syncBuiltinESMExports();
});
afterAll(() => {
  fs.readFileSync = realReadFileSync;
  syncBuiltinESMExports();
});

describe('the liveness check while /proc cannot be read (EMFILE)', () => {
  const sessionsDir = mkdtempSync(join(tmpdir(), 'session-host-liveness-emfile-'));
  afterAll(() => reapSessionsDir(sessionsDir));

  it('keeps the session and its game server: not known is not gone', async () => {
    const events: RuntimeEvent[] = [];
    const runtime = new ProcessRuntime({ sessionsDir, graceMs: 500, retentionMs: 3_600_000, sandboxes: undefined, now: Date.now, instanceId: randomUUID() });
    runtime.onEvent((event) => events.push(event));
    const port = await freePort();
    try {
      await runtime.start(listenerLaunch('s1', port));
      await eventually(() => events.some((e) => e.type === 'running'), { timeoutMs: 15_000, what: 'the game server running' });
      exhausted.proc = true;
      // Three liveness polls (one a second).
      await new Promise((resolve) => setTimeout(resolve, 3_200));
      exhausted.proc = false;
      expect(events.map((e) => e.type)).toEqual(['running']);
      expect(await answers(port)).toBe(true);
    } finally {
      exhausted.proc = false;
      await runtime.close();
    }
  }, 60_000);

  it('kills a stalled supervisor whose stop deadline came while /proc could not be read, once it can', async () => {
    // Its deadline's look at the supervisor failed the same way and was taken for "gone": nothing
    // was killed, nor looked at again, and the session stayed shuttingdown for good (stalled-supervisor.test.ts).
    const graceMs = 500;
    const { events, close } = await stopWithFrozenSupervisor(sessionsDir, 's2', await freePort(), graceMs);
    try {
      // Out of descriptors from before the deadline to 1.5 s past it.
      await new Promise((resolve) => setTimeout(resolve, graceMs + STOP_OVERRUN_MS - 500));
      exhausted.proc = true;
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      exhausted.proc = false;
      await eventually(() => events.some((e) => e.type === 'lost' || e.type === 'exited'), { timeoutMs: 5_000, what: 'the session to end' });
      expect(events.at(-1)).toMatchObject({ type: 'lost', sessionId: 's2' });
    } finally {
      exhausted.proc = false;
      await close();
    }
  }, 60_000);
});
