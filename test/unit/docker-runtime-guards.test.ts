/**
 * Two guards of the Docker runtime that need no engine:
 * - A game server that missed its health pings is killed by the pid the engine reports, from this
 *   machine. That pid is the host's: from a service in a container of its own, or after the pid
 *   was reused, it names some other process. The kill goes ahead only when the pid's cgroup names
 *   the container (ownsPid): shown with a real process in a real cgroup named like a container's.
 * - The SDK sockets' path limit refuses a too-long data directory at start-up only when some tag
 *   needs the SDK (readiness `sdk`, health pings); otherwise the runtime starts and serves none
 *   (before, every fleet with a local engine was refused, though its sessions need no SDK).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { accessSync, constants, existsSync, mkdirSync, mkdtempSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DockerRuntime, ownsPid, type DockerRuntimeOptions } from '../../server/runtime/docker/docker-runtime.js';

let cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

const PIDS = '/sys/fs/cgroup/pids';
const canMakeCgroups = (() => {
  try {
    accessSync(PIDS, constants.W_OK);
    return true;
  } catch {
    return false;
  }
})();
const containerId = () => randomBytes(32).toString('hex');

describe('the health kill’s pid check', () => {
  it.skipIf(!canMakeCgroups)('takes a pid for the container’s only when its cgroup names that container', async () => {
    const id = containerId();
    const group = join(PIDS, `session-host-test-docker-${id}`);
    mkdirSync(group);
    const sleeper = spawn('sleep', ['60'], { stdio: 'ignore' });
    const exited = new Promise((resolve) => sleeper.once('exit', resolve));
    await new Promise((resolve) => sleeper.once('spawn', resolve));
    cleanup.push(async () => {
      sleeper.kill('SIGKILL');
      await exited;
      if (existsSync(group)) rmdirSync(group);
    });
    const pid = sleeper.pid!;
    // Outside the container's cgroup: some other process under the same number.
    expect(ownsPid(pid, id)).toBe(false);
    writeFileSync(join(group, 'cgroup.procs'), String(pid));
    expect(ownsPid(pid, id)).toBe(true);
    expect(ownsPid(pid, containerId())).toBe(false);
    sleeper.kill('SIGKILL');
    await exited;
    // Gone: nothing to kill.
    expect(ownsPid(pid, id)).toBe(false);
  });
});

describe('the SDK sockets’ path limit', () => {
  /** A data directory whose sockets' paths would pass a unix socket's limit (108 bytes). */
  function longDataDir(): string {
    const base = mkdtempSync(join(tmpdir(), 'docker-sdk-root-'));
    cleanup.push(() => rmSync(base, { recursive: true, force: true }));
    const dir = join(base, 'd'.repeat(100));
    mkdirSync(dir);
    return dir;
  }
  const options = (dataDir: string, sdkNeeded: boolean): DockerRuntimeOptions => ({
    dataDir,
    sdkNeeded,
    // A local engine that is never reached: nothing here talks to it.
    nodes: [{ id: 'n1', docker: { engine: `unix://${join(dataDir, 'no-engine.sock')}` } as DockerRuntimeOptions['nodes'][number]['docker'] }],
    graceMs: 1000,
    retentionHours: 1,
    now: () => Date.now(),
    owner: 'test',
    nodeLostAfterMs: 60_000,
    pullTimeoutMs: 1000,
    heartbeatMs: 60_000,
  });

  it('refuses a data directory too long for them at start-up when a tag needs the SDK', () => {
    expect(() => new DockerRuntime(options(longDataDir(), true))).toThrow(/too long for the Docker sessions' SDK sockets/);
  });

  it('starts without them when no tag needs the SDK', async () => {
    const runtime = new DockerRuntime(options(longDataDir(), false));
    await runtime.close();
  });
});
