/**
 * A host out of file descriptors (or processes) fails the start that needed a supervisor, not the
 * service: a failed spawn's 'error' event, unheard, reached the last resort and ended the
 * service (an outside check did it with abandoned artifact downloads holding files open).
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

describe('spare supervisors when the host is out of file descriptors', () => {
  it('refuses the start and serves the next once descriptors are back', () => {
    // A limit low enough to exhaust quickly, in a process of its own.
    const out = execFileSync('prlimit', ['--nofile=256', process.execPath, '--import', 'tsx', 'test/support/spare-spawn-failure-child.mts'], { encoding: 'utf8' });
    expect(out.trim().split('\n')).toEqual(['refused: could not start a supervisor: the host has no file descriptors or processes to spare', 'served again']);
  });
});
