/**
 * A spare supervisor warms its handoff path while it waits (warm-handoff.mjs `warmUpHandoff`):
 * one handoff between a throwaway server and client. It must leave nothing behind, and a warm-up
 * that cannot run must never end the spare (it only warms).
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { warmUpHandoff } from '../../server/runtime/process/warm-handoff.mjs';

describe('the warm handoff warm-up', () => {
  const savedTmpdir = process.env.TMPDIR;
  afterEach(() => {
    if (savedTmpdir === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = savedTmpdir;
  });

  it('hands one allocation over and removes its socket and directory', async () => {
    const root = mkdtempSync(join(tmpdir(), 'session-host-handoff-warm-up-test-'));
    try {
      process.env.TMPDIR = root;
      expect(await warmUpHandoff()).toBe(true);
      expect(readdirSync(root)).toEqual([]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('resolves when it cannot make its directory', async () => {
    process.env.TMPDIR = join(tmpdir(), 'session-host-handoff-warm-up-missing', 'nowhere');
    await expect(warmUpHandoff()).resolves.toBe(false);
  });
});
