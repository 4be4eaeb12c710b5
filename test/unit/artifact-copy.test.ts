/** The Docker runtime's capped artifact copy, on tar streams made here (the real engines' archives: docker-containment.test.ts). */
import { chmodSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { create } from 'tar';
import { describe, expect, it } from 'vitest';
import { copyArtifacts } from '../../server/runtime/docker/artifact-copy.js';
import { tempDirs } from '../support/temp-dirs.js';

const tempDir = tempDirs('artifact-copy-');

/** A tar stream of a `work` directory holding the given files, as the engine's archive API sends it. */
async function archive(files: Record<string, { size: number; mode?: number }>): Promise<Readable> {
  const source = tempDir();
  mkdirSync(join(source, 'work'));
  for (const [name, { size, mode }] of Object.entries(files)) {
    writeFileSync(join(source, 'work', name), Buffer.alloc(size, 1));
    if (mode) chmodSync(join(source, 'work', name), mode);
  }
  // Made whole first: the copy may stop reading it at any point.
  const chunks: Buffer[] = [];
  for await (const chunk of create({ cwd: source }, ['work'])) chunks.push(chunk as Buffer);
  return Readable.from([Buffer.concat(chunks)]);
}

const roomy = { maxBytes: 1024 * 1024, maxEntries: 100 };

describe('copyArtifacts', () => {
  it('copies within the cap, without setuid/setgid bits or write for others', async () => {
    const target = tempDir();
    const copy = await copyArtifacts(await archive({ tool: { size: 10, mode: 0o6777 }, 'data.bin': { size: 100 } }), target, roomy);
    expect(copy).toEqual({ bytes: 110, entries: 3 });
    expect(statSync(join(target, 'tool')).mode & 0o7777).toBe(0o755);
  });

  it('stops at the byte cap, counting each entry at its full size, and at the entry cap', async () => {
    const bytes = tempDir();
    const files = { a: { size: 600 }, b: { size: 600 }, c: { size: 10 } };
    const byBytes = await copyArtifacts(await archive(files), bytes, { maxBytes: 1000, maxEntries: 100 });
    expect(byBytes.truncated).toMatch(/cap/);
    expect(readdirSync(bytes)).toEqual(['a']);
    const entries = tempDir();
    const byEntries = await copyArtifacts(await archive(files), entries, { maxBytes: 1e6, maxEntries: 2 });
    expect(byEntries).toMatchObject({ entries: 2, truncated: expect.stringMatching(/cap/) });
    expect(readdirSync(entries)).toEqual(['a']);
  });

  it('copies nothing when the disk has less free space than the cap', async () => {
    const target = tempDir();
    const copy = await copyArtifacts(await archive({ a: { size: 10 } }), target, { maxBytes: 2 ** 60, maxEntries: 100 });
    expect(copy.truncated).toMatch(/not copied/);
    expect(readdirSync(target)).toEqual([]);
  });
});
