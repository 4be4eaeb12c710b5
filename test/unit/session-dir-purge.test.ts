/**
 * Ended sessions' directories go after the retention, whatever their game server left in them:
 * a tree nested past PATH_MAX (which Node's rmSync cannot remove: it threw from the purge's
 * timer, which ended the service at every purge) is removed too.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RetainedSessions } from '../../server/runtime/process/retention.js';

describe('purge of ended sessions’ directories', () => {
  it('removes a directory nested past PATH_MAX, and keeps what is not due', async () => {
    const sessions = mkdtempSync(join(tmpdir(), 'purge-'));
    try {
      const ended = (id: string, at: number) => {
        mkdirSync(join(sessions, id, 'work'), { recursive: true });
        writeFileSync(join(sessions, id, 'state.json'), JSON.stringify({ phase: 'ended', at }));
      };
      ended('deep', 1_000);
      ended('recent', 9_000);
      // 25 levels of 200 characters: about 5,000, past PATH_MAX (4,096).
      const nest = (dir: string) =>
        execFileSync('/bin/sh', ['-c', `cd "$1" && i=0; while [ $i -lt 25 ]; do mkdir ${'d'.repeat(200)} && cd ${'d'.repeat(200)}; i=$((i+1)); done; echo x > f`, 'sh', dir]);
      nest(join(sessions, 'deep', 'work'));
      // (Node 20's rmSync, which the purge used, throws ENAMETOOLONG on it; Node 24's copes.)

      const retained = new RetainedSessions(sessions, 2 ** 40);
      const purged = await retained.purge({ before: 5_000, isLive: () => false });
      await retained.close();
      expect(purged).toEqual(['deep']);
      expect(existsSync(join(sessions, 'deep'))).toBe(false);
      expect(existsSync(join(sessions, 'recent'))).toBe(true);
    } finally {
      execFileSync('/bin/rm', ['-rf', sessions]);
    }
  });
});
