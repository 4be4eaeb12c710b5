/**
 * A data directory the service cannot write at start (a file system remounted read-only after
 * disk errors, a volume mounted `ro`): the service refuses in one line naming the file and what
 * to check, exit 1, not a stack trace. Needs root (mount); skipped otherwise.
 */
import { execFileSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { canMount, mountSmallDisk } from '../support/disk.js';
import { spawnService } from '../support/process.js';

describe.skipIf(!canMount)('a read-only data directory at start', () => {
  const disk = canMount ? mountSmallDisk(4) : undefined;
  afterAll(() => disk?.unmount());

  it('exits 1 with one message naming the file and DATA_DIR, no stack trace', async () => {
    const mountPoint = disk!.dataDir.replace(/\/data$/, '');
    execFileSync('mount', ['-o', 'remount,ro', mountPoint]);
    const failure = (await spawnService({ DATA_DIR: disk!.dataDir }).then(
      () => expect.unreachable('the service started on a read-only data directory'),
      (error: unknown) => error,
    )) as Error;
    expect(failure.message).toMatch(/^service exited with 1:/);
    const output = failure.message.replace(/^service exited with 1:\n/, '');
    expect(output).toContain(`EROFS: read-only file system, open '${disk!.dataDir}/service.db'`);
    expect(output).toContain(`DATA_DIR=${disk!.dataDir}`);
    expect(output).not.toMatch(/^\s+at /m);
    expect(output.trim().split('\n')).toHaveLength(1);
  });
});
