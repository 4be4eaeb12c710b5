/**
 * The spare supervisor's launcher (server/runtime/process/launcher.mjs): forked ahead of need into
 * spare cgroups, so a start does not wait for a cgroup join. The game server must still run in
 * its session's cgroups, under its limits, from its first instruction; spare cgroups must not
 * outlive their spare (closed, or left by a killed run). Needs root and cgroup v1, as the sandbox does.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../server/project-root.js';
import { cgroupProblem, removeInstanceCgroups } from '../../server/runtime/process/cgroups.js';
import { ProcessRuntime } from '../../server/runtime/process/process-runtime.js';
import { SPARE_NICE } from '../../server/runtime/process/spare-supervisor.js';
import { checkSandbox } from '../../server/runtime/process/sandbox.js';
import { Sandboxes } from '../../server/runtime/process/sandboxes.js';
import { eventually } from '../support/eventually.mjs';
import { freePort } from '../support/free-port.js';
import { listenerLaunch } from '../support/launch-specs.js';
import { reapSessionsDir } from '../support/session-processes.js';

const ROOT = '/sys/fs/cgroup';
const check = checkSandbox(() => cgroupProblem());
// A waiting spare loads at SPARE_NICE: on a busy machine that takes a while, and so may these tests.
const group = `test-launcher-${process.pid}`;
const groupDir = (controller: string) => join(ROOT, controller, 'session-host', group);
const spares = (controller: string) => (existsSync(groupDir(controller)) ? readdirSync(groupDir(controller)).filter((name) => name.startsWith('spare-')) : []);
/** State and parent pid of a process (fields 3 and 4 of /proc/<pid>/stat). */
const statOf = (pid: number) => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
/** Niceness (field 19 of /proc/<pid>/stat). */
const niceOf = (pid: number) => Number(statOf(pid)[16]);
const procs = (dir: string) => readFileSync(join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean).map(Number);

describe.skipIf(!check.ok)('the spare supervisor\'s launcher', () => {
  const sessionsDir = mkdtempSync(join(tmpdir(), 'session-host-launcher-'));
  afterAll(() => {
    removeInstanceCgroups(ROOT, group);
    reapSessionsDir(sessionsDir);
  });
  const runtimeWith = () =>
    new ProcessRuntime({
      sessionsDir,
      graceMs: 1000,
      retentionMs: 3_600_000,
      sandboxes: new Sandboxes({
        tools: check.ok ? check.tools : (undefined as never),
        uids: { from: 398_000, to: 398_099 },
        cgroupRoot: ROOT,
        cgroupGroup: group,
        hide: [sessionsDir],
        readOnly: [projectRoot],
      }),
      now: Date.now,
      instanceId: 'i1',
    });

  it('starts the game server from a process that joined the session\'s cgroups before the session existed, under its limits', async () => {
    const runtime = runtimeWith();
    const port = await freePort();
    try {
      // The spare's launcher sits in spare cgroups, one per controller, before any start.
      await eventually(async () => ['memory', 'pids', 'cpu'].every((c) => spares(c).length === 1 && procs(join(groupDir(c), spares(c)[0]!)).length === 1), {
        timeoutMs: 30_000,
        what: 'the spare launcher in its cgroups',
      });
      const launcher = procs(join(groupDir('memory'), spares('memory')[0]!))[0]!;
      // A waiting spare yields to everything else (it loads while game servers start), its launcher too.
      expect(niceOf(Number(statOf(launcher)[1]))).toBe(SPARE_NICE);
      expect(niceOf(launcher)).toBe(SPARE_NICE);
      await runtime.start(listenerLaunch('s1', port, { limits: { memoryMb: 200, pids: 77, cpuShares: 333 } }));
      const state = () => JSON.parse(readFileSync(join(sessionsDir, 's1', 'state.json'), 'utf8'));
      await eventually(async () => existsSync(join(sessionsDir, 's1', 'state.json')) && state().phase === 'running', { timeoutMs: 15_000, what: 'running' });
      // The game server is the launcher itself (it exec'd the sandbox), now in the session's cgroups with its limits.
      expect(state().gamePid).toBe(launcher);
      // ...but the game server does not: it runs at the normal priority.
      expect(niceOf(launcher)).toBe(0);
      expect(procs(join(groupDir('memory'), 's1'))).toContain(launcher);
      expect(procs(join(groupDir('pids'), 's1'))).toContain(launcher);
      expect(procs(join(groupDir('cpu'), 's1'))).toContain(launcher);
      expect(readFileSync(join(groupDir('memory'), 's1', 'memory.limit_in_bytes'), 'utf8').trim()).toBe(String(200 * 1024 * 1024));
      expect(readFileSync(join(groupDir('pids'), 's1', 'pids.max'), 'utf8').trim()).toBe('77');
      expect(readFileSync(join(groupDir('cpu'), 's1', 'cpu.shares'), 'utf8').trim()).toBe('333');
      await runtime.stop('s1');
      await eventually(async () => state().phase === 'ended', { timeoutMs: 15_000, what: 'the end' });
    } finally {
      await runtime.close();
    }
    // Closed: the spare that was waiting goes with its launcher and its cgroups.
    await eventually(async () => ['memory', 'pids', 'cpu'].every((c) => spares(c).length === 0), { timeoutMs: 30_000, what: 'the spare cgroups removed' });
  }, 90_000);

  /** read(2)'s number in /proc/<pid>/syscall (x86-64; arm64's generic table has 63). */
  const READ_SYSCALL = process.arch === 'arm64' ? 63 : 0;

  // The spare's launcher, and its parent: the spare supervisor (once an earlier test's dismissed spare is gone).
  const spare = async () => {
    try {
      if (spares('memory').length !== 1) return undefined;
      const launcher = procs(join(groupDir('memory'), spares('memory')[0]!))[0]!;
      const supervisor = Number(statOf(launcher)[1]);
      return readFileSync(`/proc/${supervisor}/cmdline`, 'utf8').includes('supervisor.mjs') ? { launcher, supervisor } : undefined;
    } catch {
      return undefined; // Not there yet.
    }
  };

  it('runs the game server on its supervisor\'s go only, and records an end that came at once', async () => {
    const runtime = runtimeWith();
    try {
      const { launcher, supervisor } = (await eventually(spare, { timeoutMs: 30_000, what: 'the spare launcher' }))!;
      // Stopped only once it waits for its session (blocked reading its stdin): stopped before it
      // has told the service its launcher joined, it could never be taken.
      await eventually(async () => readFileSync(`/proc/${supervisor}/syscall`, 'utf8').startsWith(`${READ_SYSCALL} 0x0 `), { timeoutMs: 30_000, what: 'the spare waiting for its session' });
      // The supervisor stopped: the launcher has the game's command, and the supervisor its session unread.
      process.kill(supervisor, 'SIGSTOP');
      try {
        await runtime.start({ ...listenerLaunch('s2', await freePort()), args: ['-e', 'process.exit(3)'] });
        // No go yet: the launcher is still the shell.
        expect(readFileSync(`/proc/${launcher}/cmdline`, 'utf8')).toMatch(/^\/bin\/sh\0/);
      } finally {
        process.kill(supervisor, 'SIGCONT');
      }
      const state = () => JSON.parse(readFileSync(join(sessionsDir, 's2', 'state.json'), 'utf8'));
      await eventually(async () => existsSync(join(sessionsDir, 's2', 'state.json')) && state().phase === 'ended', { timeoutMs: 15_000, what: 'the end' });
      expect(state()).toMatchObject({ phase: 'ended', exitCode: 3 });
    } finally {
      await runtime.close();
    }
  }, 90_000);

  it('serves a start whose spare supervisor died from a new spare, and ends the dead one\'s launcher', async () => {
    const runtime = runtimeWith();
    try {
      const { launcher, supervisor } = (await eventually(spare, { timeoutMs: 30_000, what: 'the spare launcher' }))!;
      process.kill(supervisor, 'SIGKILL');
      const ended = (pid: number) => !existsSync(`/proc/${pid}`) || statOf(pid)[0] === 'Z';
      await eventually(async () => ended(supervisor), { timeoutMs: 15_000, what: 'the supervisor to end' });
      await runtime.start(listenerLaunch('s3', await freePort()));
      await eventually(async () => ended(launcher), { timeoutMs: 15_000, what: 'the dead spare\'s launcher to end' });
      const statePath = join(sessionsDir, 's3', 'state.json');
      await eventually(async () => existsSync(statePath), { timeoutMs: 15_000, what: 'the new supervisor\'s state' });
      const state = JSON.parse(readFileSync(statePath, 'utf8'));
      expect(state.supervisorPid).not.toBe(supervisor);
      expect(ended(state.supervisorPid)).toBe(false);
    } finally {
      await runtime.close();
    }
  }, 90_000);

  it('removes the spare cgroups a killed run left behind', async () => {
    for (const controller of ['memory', 'pids', 'cpu']) mkdirSync(join(groupDir(controller), 'spare-left-behind'), { recursive: true });
    const runtime = runtimeWith();
    try {
      for (const controller of ['memory', 'pids', 'cpu']) expect(spares(controller)).not.toContain('spare-left-behind');
    } finally {
      await runtime.close();
    }
  });
});
