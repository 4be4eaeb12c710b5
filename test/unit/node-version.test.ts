/**
 * `npm start` loads server/node-version.mjs first: on a Node older than 22 (CI's fast tier runs on
 * the machine's Node 20) it must refuse in one line instead of crashing in better-sqlite3; on 22+
 * it must stay out of the way.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

describe('the Node version guard', () => {
  it('refuses an old Node with one line naming the fix, and lets 22+ through', () => {
    const run = spawnSync(process.execPath, ['--import', './server/node-version.mjs', '-e', 'console.log("ran")'], { encoding: 'utf8' });
    const major = Number(process.versions.node.split('.')[0]);
    if (major < 22) {
      expect(run.status).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toContain(`needs Node 22 or 24 (this is ${process.version})`);
      expect(run.stderr).toContain('node@24');
    } else {
      expect(run.status).toBe(0);
      expect(run.stdout.trim()).toBe('ran');
    }
  });
});
