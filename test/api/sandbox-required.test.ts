/**
 * No silent fallback: a service that cannot sandbox game servers (here: not running as root, so
 * it cannot give each one a user of its own) refuses to start with one line saying what to do,
 * unless the fleet says `isolation: "none"`.
 */
import { spawn } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { testFleet } from '../support/service.js';

const NOBODY = 65534;
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A new data directory, removed after the tests. */
function newDataDir(): string {
  const dataDir = mkdtempSync(join(tmpdir(), 'session-host-unprivileged-'));
  dirs.push(dataDir);
  return dataDir;
}

/** Start the service as an unprivileged user; resolves with its exit code (or 'listening') and output. */
function startAsNobody(isolation: 'sandbox' | 'none', dataDir = newDataDir()): Promise<{ outcome: number | 'listening'; output: string }> {
  writeFileSync(join(dataDir, 'fleet.json'), JSON.stringify(testFleet((fleet) => (fleet.runtime.isolation = isolation))));
  chownSync(dataDir, NOBODY, NOBODY);
  chownSync(join(dataDir, 'fleet.json'), NOBODY, NOBODY);
  const child = spawn('setpriv', [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', process.execPath, '--import', 'tsx', 'server/main.ts'], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', HOME: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`neither refused nor listening:\n${output}`));
    }, 30_000);
    const collect = (chunk: Buffer) => {
      output += chunk;
      if (/listening on/.test(output)) {
        clearTimeout(timer);
        child.kill('SIGTERM');
        resolve({ outcome: 'listening', output });
      }
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ outcome: code ?? -1, output });
    });
  });
}

describe('a service that cannot sandbox game servers', () => {
  it('refuses to start, with one line saying what to install or that isolation "none" turns it off', async () => {
    const { outcome, output } = await startAsNobody('sandbox');
    expect(outcome).toBe(1);
    const lines = output.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/will not run game servers unsandboxed: .*root.*bubblewrap, passt, nftables and perl.*"none".*trusted code on a developer machine only/);
  });

  it('starts with isolation "none" (trusted code on a developer machine)', async () => {
    expect((await startAsNobody('none')).outcome).toBe('listening');
  });

  // The newcomer's path: refused, then the advice followed on the same data directory. The refused
  // start must not have made the operator account, whose token only its first start shows.
  it('shows the bootstrap token on the start that follows the advice, after a refusal', async () => {
    const dataDir = newDataDir();
    expect((await startAsNobody('sandbox', dataDir)).outcome).toBe(1);
    const { outcome, output } = await startAsNobody('none', dataDir);
    expect(outcome).toBe('listening');
    expect(output).toMatch(/Bootstrap: created operator account .* token holding every scope[\s\S]*\n {2}gsh_[0-9A-Za-z]{40}\n/);
  }, 90_000);
});
