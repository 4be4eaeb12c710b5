/**
 * Whole-list files rewritten when a session's players change (server/runtime/windowed-writes.ts):
 * at most one write per window per session, however many joins and leaves come: each write is
 * the whole list (~135 KB at 1,024 players), a join or leave request ~200 bytes (outside check
 * oc3: one client made the service write 136 KB a request, joins of players already there too).
 * And what the Docker runtime does with it: a session's sdk.json.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ContainerSdks } from '../../server/runtime/docker/container-sdk.js';
import { WindowedWrites } from '../../server/runtime/windowed-writes.js';
import { containerLaunch } from '../support/launch-specs.js';
import { tempDirs } from '../support/temp-dirs.js';

const tempDir = tempDirs('container-sdk-');

describe('windowed writes', () => {
  afterEach(() => vi.useRealTimers());

  it('writes the first change at once, then at most once a window, the latest', () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    const writes: [string, string[]][] = [];
    const files = new WindowedWrites<string[]>((key, value) => writes.push([key, value]), 1000);
    files.changed('s', ['a']);
    expect(writes).toEqual([['s', ['a']]]);
    for (let i = 0; i < 500; i++) files.changed('s', i % 2 ? ['a'] : ['a', 'b']);
    files.changed('s', ['a', 'c']);
    // Another session has a window of its own.
    files.changed('t', ['x']);
    expect(writes).toEqual([['s', ['a']], ['t', ['x']]]);
    vi.advanceTimersByTime(1000);
    expect(writes).toEqual([['s', ['a']], ['t', ['x']], ['s', ['a', 'c']]]);
    // Nothing changed in that window: nothing written, and the next change is written at once.
    vi.advanceTimersByTime(1000);
    expect(writes).toHaveLength(3);
    files.changed('s', ['d']);
    expect(writes.at(-1)).toEqual(['s', ['d']]);
    // A flush writes what waits, once.
    files.changed('s', ['e']);
    files.flushAll();
    expect(writes.at(-1)).toEqual(['s', ['e']]);
    vi.advanceTimersByTime(1000);
    expect(writes).toHaveLength(5);
  });

  it('writes nothing of what waits for a discarded window, and the next change at once', () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    const writes: string[][] = [];
    const files = new WindowedWrites<string[]>((_key, value) => writes.push(value), 1000);
    files.changed('s', ['a']);
    files.changed('s', ['b']);
    files.discard('s');
    vi.advanceTimersByTime(1000);
    expect(writes).toEqual([['a']]);
    files.changed('s', ['c']);
    expect(writes).toEqual([['a'], ['c']]);
  });

  it("keeps a Docker session's sdk.json to one write a window, and hands the latest players on at close", async () => {
    const root = tempDir();
    const sdks = new ContainerSdks(root, { ready() {}, missedHealth() {}, watched: () => false });
    const spec = containerLaunch('players', 'echo', 'n1', 7000);
    await sdks.serveNew(spec, 65534);
    const path = join(sdks.dirOf(spec.sessionId), 'sdk.json');
    const players = () => (JSON.parse(readFileSync(path, 'utf8')) as { allocation: { players: string[] } }).allocation.players;
    sdks.setPlayers(spec.sessionId, ['p0']);
    expect(players()).toEqual(['p0']);
    // Each write is a new file renamed into place: a flood within the window leaves the inode.
    const inode = statSync(path).ino;
    for (let i = 1; i <= 200; i++) sdks.setPlayers(spec.sessionId, [`p${i}`]);
    expect(statSync(path).ino).toBe(inode);
    expect(players()).toEqual(['p0']);
    sdks.close(spec.sessionId);
    expect(players()).toEqual(['p200']);
  });
});
