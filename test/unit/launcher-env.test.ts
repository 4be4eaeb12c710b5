/**
 * The session's environment (often credentials) never appears on a command line, which any host
 * user can read in /proc/<pid>/cmdline: every program the spare's launcher executes on its way to
 * the game server is traced (strace on the launcher: execve's argv is what cmdline shows), and the
 * game server still gets exactly its environment. Unsandboxed: the same launcher runs the game.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RuntimeEvent } from '../../server/domain/ports/runtime.js';
import { ProcessRuntime } from '../../server/runtime/process/process-runtime.js';
import { eventually } from '../support/eventually.mjs';
import { freePort } from '../support/free-port.js';
import { listenerLaunch } from '../support/launch-specs.js';
import { spare } from '../support/spare-processes.js';
import { reapSessionsDir } from '../support/session-processes.js';

const hasStrace = spawnSync('strace', ['-V']).status === 0;
const tracerOf = (pid: number) => Number(/^TracerPid:\s*(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
const environOf = (pid: number) => Object.fromEntries(readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean).map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]));

describe.skipIf(!hasStrace)('the launcher and the session\'s environment', () => {
  const sessionsDir = mkdtempSync(join(tmpdir(), 'session-host-launcher-env-'));
  afterAll(() => reapSessionsDir(sessionsDir));

  it('passes it to the game server exactly, on no command line', async () => {
    // Its own instance id: its spare is found by it (spare-processes.ts).
    const instanceId = randomUUID();
    const runtime = new ProcessRuntime({ sessionsDir, graceMs: 1000, retentionMs: 3_600_000, sandboxes: undefined, now: Date.now, instanceId });
    const events: RuntimeEvent[] = [];
    runtime.onEvent((event) => events.push(event));
    const secret = randomBytes(16).toString('hex');
    const trace = join(sessionsDir, 'execve.trace');
    try {
      const { launcher } = await spare(instanceId);
      const strace = spawn('strace', ['-f', '-qq', '-e', 'trace=execve', '-s', '65536', '-o', trace, '-p', String(launcher)], { stdio: 'ignore' });
      try {
        await eventually(() => tracerOf(launcher) === strace.pid, { timeoutMs: 30_000, what: 'strace attached' });
        const env = { GAME_TOKEN: secret, MAX_PLAYERS: 'it\'s "8"\nor $MORE' };
        await runtime.start({ ...listenerLaunch('s1', await freePort()), env });
        await eventually(() => events.some((e) => e.type === 'running'), { timeoutMs: 30_000, what: 'running' });
        const { gamePid } = JSON.parse(readFileSync(join(sessionsDir, 's1', 'state.json'), 'utf8')) as { gamePid: number };
        expect(gamePid).toBe(launcher);
        expect(environOf(gamePid)).toEqual({ ...env, SESSION_HOST_SDK: join(sessionsDir, 's1', 'sdk', 'sdk.sock') });
        expect(readFileSync(`/proc/${gamePid}/cmdline`, 'utf8')).not.toContain(secret);
      } finally {
        strace.kill();
        await new Promise((resolve) => strace.once('exit', resolve));
      }
      const execs = readFileSync(trace, 'utf8').split('\n').filter((line) => line.includes('execve('));
      // The trace saw the game server's own exec...
      expect(execs.some((line) => line.includes('createServer'))).toBe(true);
      // ...as the launcher's only exec: nothing is executed between its supervisor's go and the game...
      expect(execs).toHaveLength(1);
      // ...and no program on the way got the secret among its arguments.
      expect(execs.filter((line) => line.includes(secret))).toEqual([]);
      await runtime.stop('s1');
      await eventually(() => events.some((e) => e.type === 'exited'), { timeoutMs: 30_000, what: 'the end' });
    } finally {
      await runtime.close();
    }
  }, 90_000);
});
