/** output.log capped with rotation, and a follower that keeps reading across a rotation. */
import { appendFileSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { followFile } from '../../server/runtime/follow-file.js';
import { openOutputLog } from '../../server/runtime/process/output-log.mjs';
import { eventually } from '../support/eventually.mjs';
import { tempDirs } from '../support/temp-dirs.js';

const tempDir = tempDirs('output-log-');

describe('the capped output log', () => {
  it('keeps at most the cap on disk, the newest output always in output.log', () => {
    const path = join(tempDir(), 'output.log');
    const log = openOutputLog(path, 64 * 1024);
    for (let i = 0; i < 10_000; i++) log.write(Buffer.from(`line ${i}\n`));
    log.close();
    expect(statSync(path).size + statSync(`${path}.1`).size).toBeLessThanOrEqual(64 * 1024);
    expect(readFileSync(path, 'utf8').trimEnd().split('\n').pop()).toBe('line 9999');
  });

  it('keeps only the end of a single write larger than a file', () => {
    const path = join(tempDir(), 'output.log');
    const log = openOutputLog(path, 16 * 1024);
    log.write(Buffer.from('x'.repeat(100_000) + 'END'));
    log.close();
    expect(statSync(path).size).toBeLessThanOrEqual(8 * 1024);
    expect(readFileSync(path, 'utf8').endsWith('END')).toBe(true);
  });

  it('drops what it cannot write (a full disk: /dev/full) instead of throwing, which would end the supervisor and its game server', () => {
    const log = openOutputLog('/dev/full', 64 * 1024);
    expect(() => {
      for (let i = 0; i < 3; i++) log.write(Buffer.from(`line ${i}\n`));
    }).not.toThrow();
    log.close();
  });
});

describe('following a log that is rotated', () => {
  it('reads the old file to its end, then the new one', async () => {
    const path = join(tempDir(), 'output.log');
    writeFileSync(path, 'first\n');
    let done = false;
    const stream = followFile(path, { follow: true, isDone: () => done, signal: AbortSignal.timeout(10_000) });
    const chunks: string[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
    // The follower has the file open once its first line came through (a fixed wait assumed so).
    await eventually(() => chunks.join('') === 'first\n', { what: 'the first line followed' });
    appendFileSync(path, 'second\n');
    renameSync(path, `${path}.1`);
    writeFileSync(path, 'third\n');
    await eventually(() => chunks.join('').endsWith('third\n'), { what: 'the new file followed' });
    done = true;
    await new Promise((resolve) => stream.on('end', resolve));
    expect(chunks.join('')).toBe('first\nsecond\nthird\n');
  });
});
