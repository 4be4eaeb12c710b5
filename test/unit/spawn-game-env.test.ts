/**
 * A game server started from a new process (restarts, and starts without a launcher) gets exactly
 * its session's environment, names the shell cannot pass on included (`my-secret`, `game.mode`:
 * the spec allows them, and dash drops them when it executes a program), and still joins its
 * cgroups before its first instruction (server/runtime/process/launcher.mjs, spawnGame).
 */
import { mkdirSync, mkdtempSync, rmdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnGame } from '../../server/runtime/process/launcher.mjs';

const work = mkdtempSync(join(tmpdir(), 'session-host-spawn-game-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** What the game printed, and how it ended. */
function run(cgroups: string[], env: Record<string, string>, argv: string[]): Promise<{ out: string; code: number | null }> {
  const child = spawnGame(cgroups, { cwd: work, env, argv });
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk));
  return new Promise((resolve) => child.on('close', (code: number | null) => resolve({ out, code })));
}

const environment = (out: string) => out.split('\n').filter(Boolean).sort();

describe('spawnGame', () => {
  it('passes names the shell cannot export, exactly, with nothing added', async () => {
    const env = { PATH: '/usr/bin:/bin', 'my-secret': 's3cr3t value', 'game.mode': 'ctf', OPTIND: '7', EMPTY: '' };
    const { out, code } = await run([], env, ['/usr/bin/env']);
    expect(code).toBe(0);
    expect(environment(out)).toEqual(Object.entries(env).map(([k, v]) => `${k}=${v}`).sort());
  });

  it('passes shell names as before', async () => {
    const env = { PATH: '/usr/bin:/bin', MAX_PLAYERS: '8' };
    const { out } = await run([], env, ['/usr/bin/env']);
    expect(environment(out)).toEqual(['MAX_PLAYERS=8', 'PATH=/usr/bin:/bin']);
  });

  it('gives the game /dev/null as stdin and its stderr with its stdout', async () => {
    const { out, code } = await run([], { 'game.mode': 'x' }, ['/bin/sh', '-c', 'read line; echo "read $?"; echo oops >&2']);
    expect(code).toBe(0);
    expect(out).toBe('read 1\noops\n');
  });

  it('refuses a value holding a NUL, which would smuggle in a second name', () => {
    const env = { 'game.mode': 'ctf\0LD_PRELOAD\0/nowhere.so' };
    expect(() => spawnGame([], { cwd: work, env, argv: ['/usr/bin/env'] })).toThrow(/NUL/);
  });

  it('ends 127 when the game cannot be executed, as a shell would', async () => {
    expect((await run([], { 'game.mode': 'x' }, [join(work, 'missing')])).code).toBe(127);
  });

  it.skipIf(process.getuid?.() !== 0)('joins the cgroups before the game runs, or does not run it', async () => {
    const dir = join('/sys/fs/cgroup/pids', `test-spawn-game-${process.pid}`);
    mkdirSync(dir);
    try {
      const { out } = await run([dir], { 'game.mode': 'x' }, ['/bin/cat', '/proc/self/cgroup']);
      expect(out).toMatch(new RegExp(`:pids:/test-spawn-game-${process.pid}\\n`));
      expect((await run([join(dir, 'missing')], { 'game.mode': 'x' }, ['/bin/echo', 'ran'])).code).toBe(126);
    } finally {
      rmdirSync(dir);
    }
  });
});
