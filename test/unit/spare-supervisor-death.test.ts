/**
 * A game server never runs without its supervisor: the spare's launcher, already told the game's
 * command, runs it only once the supervisor has taken the session and says go. A spare whose
 * supervisor died is not taken (a new one serves the start), and one that dies after reading its session but before
 * launching leaves nothing running (the session is lost). Unsandboxed: the same launcher runs the
 * game there, and the test needs no root.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RuntimeEvent } from '../../server/domain/ports/runtime.js';
import { ProcessRuntime } from '../../server/runtime/process/process-runtime.js';
import { isAlive } from '../../server/runtime/process/proc.js';
import { eventually } from '../support/eventually.mjs';
import { freePort } from '../support/free-port.js';
import { answers } from '../support/port-answers.js';
import { listenerLaunch } from '../support/launch-specs.js';
import { spare } from '../support/spare-processes.js';
import { reapSessionsDir } from '../support/session-processes.js';

describe('a spare supervisor that dies', () => {
  const sessionsDir = mkdtempSync(join(tmpdir(), 'session-host-spare-death-'));
  afterAll(() => reapSessionsDir(sessionsDir));
  /** A runtime with an instance id of its own, by which its spare is found (spare-processes.ts). */
  const runtimeWith = (events: RuntimeEvent[]) => {
    const instanceId = randomUUID();
    const runtime = new ProcessRuntime({ sessionsDir, graceMs: 1000, retentionMs: 3_600_000, sandboxes: undefined, now: Date.now, instanceId });
    runtime.onEvent((event) => events.push(event));
    return { runtime, instanceId };
  };

  it('before the start: a new spare serves the start, and the dead one\'s launcher never runs the game', async () => {
    const { runtime, instanceId } = runtimeWith([]);
    const port = await freePort();
    try {
      const { supervisor, launcher } = await spare(instanceId);
      process.kill(supervisor, 'SIGKILL');
      await eventually(() => !isAlive(supervisor) || readFileSync(`/proc/${supervisor}/stat`, 'utf8').includes(') Z'), { what: 'the supervisor dead' });
      await runtime.start(listenerLaunch('s1', port));
      await eventually(() => !isAlive(launcher), { timeoutMs: 10_000, what: 'the dead spare\'s launcher to end' });
      const statePath = join(sessionsDir, 's1', 'state.json');
      await eventually(async () => existsSync(statePath), { timeoutMs: 15_000, what: 'the new supervisor\'s state' });
      const state = JSON.parse(readFileSync(statePath, 'utf8'));
      expect(state.supervisorPid).not.toBe(supervisor);
      expect(isAlive(state.supervisorPid)).toBe(true);
      await eventually(() => answers(port), { timeoutMs: 10_000, what: 'the game server, under its new supervisor' });
    } finally {
      await runtime.close();
    }
  }, 60_000);

  it('after reading its session, before launching: nothing runs and the session is lost', async () => {
    const events: RuntimeEvent[] = [];
    const { runtime, instanceId } = runtimeWith(events);
    const port = await freePort();
    try {
      const { launcher } = await spare(instanceId);
      // Its output log cannot be opened (a directory is in the way): the supervisor exits before it launches.
      mkdirSync(join(sessionsDir, 's2', 'output.log'), { recursive: true });
      await runtime.start(listenerLaunch('s2', port));
      await eventually(() => events.some((e) => e.type === 'lost' && e.sessionId === 's2'), { timeoutMs: 10_000, what: 'the session lost' });
      await eventually(() => !isAlive(launcher), { timeoutMs: 10_000, what: 'the launcher to end' });
      expect(await answers(port)).toBe(false);
    } finally {
      await runtime.close();
    }
  }, 60_000);

  it('of an error of its own, after launching: its game server goes with it, with no service watching', async () => {
    const { runtime } = runtimeWith([]);
    const port = await freePort();
    // Its SDK socket cannot be bound (a directory is in the way): it fails once the game is launched, which it is first.
    mkdirSync(join(sessionsDir, 's3', 'sdk', 'sdk.sock'), { recursive: true });
    await runtime.start(listenerLaunch('s3', port));
    // The service is gone (it would find the session lost and end an orphan): the supervisor alone must.
    await runtime.close();
    const statePath = join(sessionsDir, 's3', 'state.json');
    const gamePid = await eventually(() => (existsSync(statePath) ? (JSON.parse(readFileSync(statePath, 'utf8')) as { gamePid: number | null }).gamePid : null), {
      timeoutMs: 15_000,
      what: 'the game launched',
    });
    await eventually(() => !isAlive(gamePid!), { timeoutMs: 10_000, what: 'the game server ended with its supervisor' });
    expect(await answers(port)).toBe(false);
    expect(readFileSync(join(sessionsDir, 's3', 'supervisor.log'), 'utf8')).toContain('sdk.sock');
  }, 60_000);
});
