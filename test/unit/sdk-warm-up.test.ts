/**
 * A spare supervisor warms its SDK server while it waits (sdk-server.mjs `warmUp`): every
 * operation once, on a throwaway socket of its own. It must leave nothing behind, and a warm-up
 * that cannot run must never end the spare (it only warms).
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { warmUp } from '../../server/runtime/sdk-server.mjs';

describe('the SDK warm-up', () => {
  const savedTmpdir = process.env.TMPDIR;
  afterEach(() => {
    if (savedTmpdir === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = savedTmpdir;
  });

  it('serves every operation once and removes its socket and directory', async () => {
    const root = mkdtempSync(join(tmpdir(), 'session-host-warm-up-test-'));
    try {
      process.env.TMPDIR = root;
      await warmUp();
      expect(readdirSync(root)).toEqual([]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('resolves when it cannot make its directory', async () => {
    process.env.TMPDIR = join(tmpdir(), 'session-host-warm-up-missing', 'nowhere');
    await expect(warmUp()).resolves.toBeUndefined();
  });
});
