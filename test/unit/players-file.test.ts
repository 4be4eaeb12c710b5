/**
 * players.json (server/runtime/process/players-file.ts): the control API's players for a game
 * server's SDK, written at most once per window per session, whatever the rate of joins and
 * leaves: each write is the whole list (~135 KB at 1,024 players), and a join or leave request
 * is ~200 bytes (outside check oc3: 136 KB written per request, joins of players already there too).
 */
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PlayersFile } from '../../server/runtime/process/players-file.js';

describe('players.json', () => {
  afterEach(() => vi.useRealTimers());

  it('is written at once, then at most once a window with the latest list', () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    const dir = mkdtempSync(join(tmpdir(), 'players-file-'));
    const path = join(dir, 'players.json');
    const writes = () => statSync(path).ino;
    const file = new PlayersFile(() => dir, 1000);
    file.changed('s', ['a']);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual(['a']);
    const first = writes();
    // A flood within the window: no write (each is a new file renamed into place, a new inode).
    for (let i = 0; i < 500; i++) file.changed('s', i % 2 ? ['a'] : ['a', 'b']);
    file.changed('s', ['a', 'c']);
    expect(writes()).toBe(first);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual(['a']);
    // The window over: one write, of the latest list.
    vi.advanceTimersByTime(1000);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual(['a', 'c']);
    const second = writes();
    expect(second).not.toBe(first);
    // Nothing changed in the next window: nothing written, and the session is forgotten.
    vi.advanceTimersByTime(1000);
    expect(writes()).toBe(second);
    file.changed('s', ['d']);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual(['d']);
  });

  it('keeps each session to its own window', () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    const root = mkdtempSync(join(tmpdir(), 'players-file-'));
    const dirs = { s1: mkdtempSync(join(root, 's1-')), s2: mkdtempSync(join(root, 's2-')) };
    const file = new PlayersFile((id) => dirs[id as 's1' | 's2'], 1000);
    file.changed('s1', ['a']);
    file.changed('s2', ['b']);
    expect(JSON.parse(readFileSync(join(dirs.s2, 'players.json'), 'utf8'))).toEqual(['b']);
  });
});
