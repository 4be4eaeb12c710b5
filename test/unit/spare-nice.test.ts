/**
 * A waiting spare supervisor loads at SPARE_NICE, and the game server a start gives it must not:
 * where the service may not set it back to 0 (not root, no CAP_SYS_NICE: `"isolation": "none"`
 * run as oneself), spares are not niced at all. Run as uid 65534 from root (as CI runs).
 */
import { spawnSync } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../server/project-root.js';
import { freePort } from '../support/free-port.js';
import { killSessionProcesses } from '../support/session-processes.js';

const NOBODY = 65534;

describe.skipIf(process.getuid?.() !== 0)('a spare supervisor run by a user who may not raise priorities', () => {
  const sessionsDir = mkdtempSync(join(tmpdir(), 'session-host-spare-nice-'));
  chownSync(sessionsDir, NOBODY, NOBODY);
  afterAll(() => {
    killSessionProcesses(join(sessionsDir, 'sessions'));
    rmSync(sessionsDir, { recursive: true, force: true });
  });

  it('hands its game server the service\'s own priority, not the spare\'s', async () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'test/support/game-nice.ts', join(sessionsDir, 'sessions'), String(await freePort())], {
      cwd: projectRoot,
      uid: NOBODY,
      gid: NOBODY,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: sessionsDir },
      encoding: 'utf8',
      timeout: 90_000,
    });
    expect(run.status, run.stderr).toBe(0);
    const { service, game } = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { service: number; game: number };
    expect(game).toBe(service);
  }, 120_000);
});
