/**
 * A spare supervisor says it is ready (its launcher's pid) before it blocks reading its session:
 * the service takes a spare only once it has read that line, so a line still queued for the event
 * loop of a process blocked in read(2) would hold every start until the spare's stdin closed.
 * Tried against both ways back (round 7): the session read through Node's streams, as before the
 * blocking read (both cases fail: never blocked in read(2)), and the ready line written from a
 * `then` beside the blocking read, as before it was awaited (the case without warm-up fails: no
 * line while blocked; with warm-up its awaits let the line out first, so it passes, rightly).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.mjs';

const SUPERVISOR = join(import.meta.dirname, '../../server/runtime/process/supervisor.mjs');
/** read(2)'s number in /proc/<pid>/syscall (x86-64; arm64's generic table has 63). */
const READ_SYSCALL = process.arch === 'arm64' ? 63 : 0;

describe('a spare supervisor', () => {
  it.each([[[]], [['--warm-up']]])('says it is ready while it waits for its session (%j)', async (extra) => {
    const child = spawn(process.execPath, [SUPERVISOR, `--instance=${randomUUID()}`, ...extra], { stdio: ['pipe', 'pipe', 'ignore', 'pipe'] });
    let said = '';
    child.stdout!.on('data', (chunk) => (said += chunk));
    try {
      await eventually(async () => readFileSync(`/proc/${child.pid}/syscall`, 'utf8').startsWith(`${READ_SYSCALL} 0x0 `), { timeoutMs: 30_000, what: 'the spare blocked reading its session' });
      // Its stdin stays open: the line must come while it is blocked.
      await eventually(async () => said.includes('\n'), { timeoutMs: 10_000, what: 'the spare\'s ready line' });
      expect(said).toMatch(/^joined \d+\n$/);
    } finally {
      child.stdin!.end();
      (child.stdio[3] as NodeJS.WritableStream).end();
      await new Promise((resolve) => child.once('exit', resolve));
    }
  }, 60_000);
});
