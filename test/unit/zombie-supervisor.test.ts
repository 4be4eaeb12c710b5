/** A supervisor that exited but was never reaped (a zombie) is dead: its session ends within seconds. */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ProcessRuntime } from '../../server/runtime/process/process-runtime.js';
import type { RuntimeEvent } from '../../server/domain/ports/runtime.js';
import { eventually } from '../support/eventually.mjs';
import { reapSessionsDir } from '../support/session-processes.js';

const rawStartTime = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]!;
};

describe('a zombie supervisor', () => {
  const sessionsDir = mkdtempSync(join(tmpdir(), 'session-host-zombie-'));
  // `sleep 1` stands in for the supervisor; its parent execs into a `sleep` that never reaps it.
  const parent = spawn('sh', ['-c', 'sleep 1 & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
  afterAll(() => {
    parent.kill('SIGKILL');
    reapSessionsDir(sessionsDir);
  });

  it('counts as dead: the adopted session is lost within seconds', async () => {
    const supervisorPid = await new Promise<number>((resolve) => parent.stdout!.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim()))));
    mkdirSync(join(sessionsDir, 'z1'));
    const state = { supervisorPid, supervisorStart: rawStartTime(supervisorPid), gamePid: null, gameStart: null, phase: 'running', instanceId: 'i1', at: Date.now() };
    writeFileSync(join(sessionsDir, 'z1', 'state.json'), JSON.stringify(state));

    const runtime = new ProcessRuntime({ sessionsDir, graceMs: 1000, retentionMs: 3_600_000, sandboxes: undefined, now: Date.now, instanceId: 'i1' });
    const events: RuntimeEvent[] = [];
    runtime.onEvent((event) => events.push(event));
    try {
      await runtime.adopt({ sessionId: 'z1', nodeId: 'n1', host: '127.0.0.1', ports: [], wasRunning: true });
      expect(events).toEqual([]);
      await eventually(async () => events.length, { timeoutMs: 5000, what: 'an event for the zombie' });
      // Still a zombie (never reaped), yet dead to the runtime.
      expect(readFileSync(`/proc/${supervisorPid}/stat`, 'utf8')).toMatch(/\) Z /);
      expect(events.map((e) => e.type)).toEqual(['lost']);
    } finally {
      await runtime.close();
    }
  });
});
