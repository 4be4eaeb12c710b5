/**
 * The process runtime's liveness check reads a session's state.json, then its supervisor's
 * /proc/<pid>/stat. Out of file descriptors between the two (another thread took the last one),
 * the second read failed, which read as "the supervisor is gone": the session was ended lost and
 * its game server killed, though nothing had happened to it. Unknown is not gone. Unsandboxed.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { RuntimeEvent } from '../../server/domain/ports/runtime.js';
import { ProcessRuntime } from '../../server/runtime/process/process-runtime.js';
import { eventually } from '../support/eventually.mjs';
import { freePort } from '../support/free-port.js';
import { listenerLaunch } from '../support/launch-specs.js';
import { reapSessionsDir } from '../support/session-processes.js';

/** While set, reading any /proc/<pid>/stat fails as it does with no file descriptor left. */
const exhausted = vi.hoisted(() => ({ proc: false }));
vi.mock('node:fs', async (original) => {
  const fs = await original<typeof import('node:fs')>();
  const readFileSync = ((path: unknown, ...rest: unknown[]) => {
    if (exhausted.proc && typeof path === 'string' && /^\/proc\/\d+\/stat$/.test(path)) {
      throw Object.assign(new Error(`EMFILE: too many open files, open '${path}'`), { code: 'EMFILE' });
    }
    return (fs.readFileSync as (...args: unknown[]) => unknown)(path, ...rest);
  }) as typeof fs.readFileSync;
  return { ...fs, readFileSync, default: { ...fs, readFileSync } };
});

const answers = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
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
});
