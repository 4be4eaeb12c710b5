/**
 * Spare supervisors come from a small helper process (spare-spawner.ts), never from a fork of the
 * service: a fork of the service held its event loop for 5-16 ms per spare. A helper that died is
 * replaced by the next spawn, and the helper ends with its runtime, or with the service when it is
 * killed, even mid-handoff. Unsandboxed (no root needed).
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RuntimeEvent } from '../../server/domain/ports/runtime.js';
import { ProcessRuntime } from '../../server/runtime/process/process-runtime.js';
import { eventually } from '../support/eventually.mjs';
import { freePort } from '../support/free-port.js';
import { listenerLaunch } from '../support/launch-specs.js';
import { spare } from '../support/spare-processes.js';

const parentOf = (pid: number) => Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
const cmdlineOf = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
const gone = (pid: number) => !existsSync(`/proc/${pid}`) || readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.startsWith('Z');

describe('the spare spawner', () => {
  const sessionsDir = mkdtempSync(join(tmpdir(), 'session-host-spare-spawner-'));
  afterAll(() => rmSync(sessionsDir, { recursive: true, force: true }));

  it('spawns spares from a helper of the service, replaced when it dies, ended with the runtime', async () => {
    const instanceId = randomUUID();
    const events: RuntimeEvent[] = [];
    const runtime = new ProcessRuntime({ sessionsDir, graceMs: 1000, retentionMs: 3_600_000, sandboxes: undefined, now: Date.now, instanceId });
    runtime.onEvent((event) => events.push(event));
    let helper: number | undefined;
    try {
      const first = await spare(instanceId);
      helper = parentOf(first.supervisor);
      // Not a fork of this process (the service): a child of its helper.
      expect(helper).not.toBe(process.pid);
      expect(parentOf(helper)).toBe(process.pid);
      expect(cmdlineOf(helper)).toContain('spare-spawner-process.mjs');

      // The helper killed (with the waiting spare already spawned): a start is served, and the next spare comes from a new helper.
      process.kill(helper, 'SIGKILL');
      await eventually(async () => gone(helper!), { timeoutMs: 10_000, what: 'the helper to end' });
      await runtime.start(listenerLaunch('s1', await freePort()));
      await eventually(async () => events.some((e) => e.sessionId === 's1' && e.type === 'running'), { timeoutMs: 30_000, what: 's1 running' });
      const next = await spare(instanceId);
      const newHelper = parentOf(next.supervisor);
      expect(newHelper).not.toBe(helper);
      expect(parentOf(newHelper)).toBe(process.pid);
      helper = newHelper;
      await runtime.stop('s1');
      await eventually(async () => events.some((e) => e.sessionId === 's1' && (e.type === 'exited' || e.type === 'lost')), { timeoutMs: 10_000, what: 's1 to end' });
    } finally {
      await runtime.close();
    }
    // Closed: the helper ends, and the spare it spawned with it (its stdin closed).
    await eventually(async () => gone(helper!), { timeoutMs: 10_000, what: 'the helper to end with its runtime' });
  }, 60_000);

  /**
   * A service whose spare's pipes reached it but were not yet acknowledged (its event loop busy)
   * when it was killed, or closed its runtime: Node holds the helper's 'disconnect' back until that
   * acknowledgement, which never comes; the helper stayed (ppid 1, 11 minutes after a failed
   * session-recovery run), and with it the spare whose pipes it still held.
   */
  for (const [end, what] of [['kill', 'killed (-9)'], ['close', 'closed']] as const) {
    it(`ends the helper and its spare with a service ${what} mid-handoff`, async () => {
      const service = spawn(process.execPath, ['--import', 'tsx', 'test/support/spare-handoff-child.mts', end], { stdio: ['ignore', 'pipe', 'inherit'] });
      let output = '';
      service.stdout!.on('data', (chunk: Buffer) => (output += chunk));
      let pids: number[] = [];
      try {
        const told = await eventually(() => /^helper (\d+) spare (\d+)$/m.exec(output) ?? (service.exitCode !== null ? output : undefined), {
          timeoutMs: 90_000,
          intervalMs: 50,
          what: 'the service holding a spare mid-handoff',
        });
        if (typeof told === 'string') throw new Error(`the service ended: ${told}`);
        pids = [Number(told![1]), Number(told![2])];
        if (end === 'kill') service.kill('SIGKILL');
        await eventually(() => pids.every(gone), { timeoutMs: 20_000, what: `the helper and its spare to end with the service ${what}` });
      } finally {
        service.kill('SIGKILL');
        // Without the protection they stay: not past this test.
        for (const pid of pids) if (!gone(pid)) process.kill(pid, 'SIGKILL');
      }
    }, 120_000);
  }
});
