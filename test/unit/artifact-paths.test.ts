import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { acceptsGzip, containedPath, pathInView } from '../../server/http/artifacts/artifact-handlers.js';

describe('artifact paths stay inside the session directory', () => {
  const root = mkdtempSync(join(tmpdir(), 'artifact-root-'));
  mkdirSync(join(root, 'replays'));
  writeFileSync(join(root, 'replays', 'r1.dem'), 'demo');
  symlinkSync('/etc', join(root, 'escape'));
  symlinkSync(join(root, 'replays'), join(root, 'inner-link'));

  it('accepts paths inside, including ones that wander and come back', () => {
    expect(containedPath(root, 'replays/r1.dem')).toBe(join(root, 'replays', 'r1.dem'));
    expect(containedPath(root, '.')).toBe(root);
    expect(containedPath(root, 'replays/../replays')).toBe(join(root, 'replays'));
    expect(containedPath(root, 'inner-link')).toBe(join(root, 'inner-link'));
    expect(containedPath(root, 'not-yet-there')).toBe(join(root, 'not-yet-there'));
  });

  it('refuses paths that leave it, by .., absolute path or symlink', () => {
    for (const path of ['..', '../x', 'replays/../../x', '/etc/passwd', 'escape', 'escape/passwd']) {
      expect(containedPath(root, path), path).toBeUndefined();
    }
  });
});

describe('artifact archives', () => {
  it('archive a file named like an archive reference (@name) as that file, not as an archive to include', async () => {
    const { create, list } = await import('tar');
    const { mkdtempSync, writeFileSync, readFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = mkdtempSync(join(tmpdir(), 'at-entry-'));
    writeFileSync(join(dir, '@x'), 'not an archive');
    const out = join(dir, 'out.tar');
    await create({ cwd: dir, file: out, portable: true }, ['./@x']);
    const names: string[] = [];
    await list({ file: out, onReadEntry: (entry) => names.push(entry.path) });
    expect(names).toEqual(['./@x']);
    expect(readFileSync(out).length).toBeGreaterThan(0);
  });
});

describe("absolute artifact paths, as the session saw its filesystem", () => {
  it('map into the working directory, and nowhere else', () => {
    expect(pathInView('/work', '/work/replays/r1.dem')).toBe('replays/r1.dem');
    expect(pathInView('/work', '/work')).toBe('.');
    expect(pathInView('/work', '/work/./replays/../summary.json')).toBe('summary.json');
    expect(pathInView('/work', 'replays')).toBe('replays');
    for (const outside of ['/etc/passwd', '/', '/work/../etc', '/workshop/x']) expect(pathInView('/work', outside), outside).toBeUndefined();
  });
});

describe('gzip as a content encoding', () => {
  it('only when Accept-Encoding allows it', () => {
    for (const header of ['gzip', 'gzip, deflate, br', 'br;q=1.0, gzip;q=0.8', '*', 'x-gzip']) expect(acceptsGzip(header), header).toBe(true);
    for (const header of [undefined, '', 'identity', 'br', 'gzip;q=0', 'gzip; q=0.0', 'gzipped']) expect(acceptsGzip(header), String(header)).toBe(false);
  });
});
