/**
 * A log tail seeks from the end: the admin panel's tail of a 1 GiB log reads its last bytes,
 * not the gigabyte before them (which timed out and answered a chunk from the middle).
 */
import { appendFileSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { followFile } from '../../server/runtime/follow-file.js';

describe('followFile with lastBytes', () => {
  it('reads only the end of a 1 GiB log', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tail-'));
    try {
      const path = join(dir, 'output.log');
      writeFileSync(path, '');
      truncateSync(path, 1024 ** 3); // sparse: a gigabyte without the disk space
      appendFileSync(path, 'the last line\n');
      const stream = followFile(path, { follow: false, isDone: () => true, signal: AbortSignal.timeout(10_000), lastBytes: 64 * 1024 });
      let received = Buffer.alloc(0);
      for await (const chunk of stream) received = Buffer.concat([received, chunk as Buffer]);
      expect(received.length).toBe(64 * 1024);
      expect(received.toString('utf8').endsWith('the last line\n')).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
