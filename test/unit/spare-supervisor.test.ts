/**
 * The process runtime's spare supervisor: a start takes the spare that is already running, and
 * the spare for the next start is spawned only once this start's session has been handed over
 * (spawning forks the service, which a start should not wait for). Observed through the
 * runtime's spawn hook, not timed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RuntimeEvent } from '../../server/domain/ports/runtime.js';
import { ProcessRuntime } from '../../server/runtime/process/process-runtime.js';
import { eventually } from '../support/eventually.mjs';

describe('the spare supervisor', () => {
  const sessionsDir = mkdtempSync(join(tmpdir(), 'session-host-spare-'));
  afterAll(() => rmSync(sessionsDir, { recursive: true, force: true }));

  it('is spawned for the next start after this start was handed to the current one', async () => {
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
    runtime.onEvent((event) => events.push(event));
    try {
      expect(log).toEqual(['spare spawned']);
      await runtime.start({
        sessionId: 's1',
        publicId: 's1',
        accountId: 'acc',
        location: 'local',
        nodeId: 'n1',
        file: process.execPath,
        args: ['-e', 'setTimeout(() => {}, 60_000)'],
        env: {},
        host: '127.0.0.1',
        ports: [],
        restart: false,
        limits: { memoryMb: 256, pids: 64, cpuShares: 1024, openFiles: 256, outputMb: 1, fileMb: 1, workDirMb: 16, startSeconds: 30 },
        labels: {},
        sdk: { readiness: 'ports' },
      });
      log.push('handed over');
      await eventually(async () => log.length === 3, { timeoutMs: 5000, what: 'the next spare' });
      expect(log).toEqual(['spare spawned', 'handed over', 'spare spawned']);
      await runtime.stop('s1');
      await eventually(async () => events.some((e) => e.type === 'exited' || e.type === 'lost'), { timeoutMs: 10_000, what: 'the session to end' });
    } finally {
      await runtime.close();
    }
  });
});
