/**
 * A damaged service.db-wal is refused with the corrupt-store message; SQLite alone dropped it (or
 * everything from its damaged frame on) without a word, and with it every acknowledged write since
 * the last checkpoint. A WAL torn at its end by a crash (the last, unacknowledged transaction) is not refused.
 */
import { copyFileSync, mkdtempSync, openSync, readSync, rmSync, statSync, truncateSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DatabaseCorrupt, openDatabase, type Db } from '../../server/store/sqlite.js';

const FRAME_HEADER_BYTES = 24;
const WAL_HEADER_BYTES = 32;

describe('a damaged WAL', () => {
  const dir = mkdtempSync(join(tmpdir(), 'session-host-wal-damage-'));
  const live = join(dir, 'live.db');
  const db: Db = openDatabase(live);
  db.exec('CREATE TABLE acknowledged (n INTEGER)');
  const frameBytes = FRAME_HEADER_BYTES + Number(db.pragma('page_size', { simple: true }));
  // Each one its own commit, like the service's acknowledged writes.
  for (let n = 1; n <= 5; n++) db.prepare('INSERT INTO acknowledged VALUES (?)').run(n);
  let copies = 0;
  afterAll(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The live database and its WAL as a crash would leave them (synchronous = FULL: every commit is in the file), then `damage` done to the WAL. */
  function crashedCopy(damage: (wal: string) => void): string {
    const path = join(dir, `copy-${++copies}.db`);
    copyFileSync(live, path);
    copyFileSync(`${live}-wal`, `${path}-wal`);
    damage(`${path}-wal`);
    return path;
  }
  const flipByteAt = (offset: number) => (wal: string) => {
    const fd = openSync(wal, 'r+');
    const byte = Buffer.alloc(1);
    readSync(fd, byte, 0, 1, offset);
    byte[0] = byte[0]! ^ 0xff;
    writeSync(fd, byte, 0, 1, offset);
    closeSync(fd);
  };
  const rowsOf = (path: string) => {
    const opened = openDatabase(path);
    try {
      return opened.prepare('SELECT n FROM acknowledged ORDER BY n').pluck().all();
    } finally {
      opened.close();
    }
  };

  it('opens an intact one with every write in it', () => {
    expect(rowsOf(crashedCopy(() => {}))).toEqual([1, 2, 3, 4, 5]);
  });

  it('refuses one whose header checksum fails', () => {
    const path = crashedCopy(flipByteAt(16));
    expect(() => openDatabase(path)).toThrow(DatabaseCorrupt);
    expect(() => openDatabase(path)).toThrow(/-wal is corrupt \(its header checksum does not match: SQLite would drop/);
  });

  it('refuses one with a damaged frame that transactions committed after it follow', () => {
    const path = crashedCopy(flipByteAt(WAL_HEADER_BYTES + FRAME_HEADER_BYTES + 100));
    expect(() => openDatabase(path)).toThrow(/-wal is corrupt \(frame 1 fails its checksum while transactions committed after it follow/);
  });

  it('refuses one whose frame has a damaged salt (bytes its checksum does not cover) with transactions committed after it', () => {
    // Byte 8 of a frame is its first salt: SQLite took the frame for another generation's leftover and stopped there.
    const path = crashedCopy(flipByteAt(WAL_HEADER_BYTES + 8));
    expect(() => openDatabase(path)).toThrow(/-wal is corrupt \(frame 1 does not carry its WAL header's salts while transactions committed after it follow/);
  });

  it('opens one restarted after a checkpoint, an older generation\'s committed frames left after its own', () => {
    const path = join(dir, 'restarted.db');
    const restarted = openDatabase(path);
    restarted.exec('CREATE TABLE acknowledged (n INTEGER)');
    for (let n = 1; n <= 20; n++) restarted.prepare('INSERT INTO acknowledged VALUES (?)').run(n);
    const before = statSync(`${path}-wal`).size;
    restarted.pragma('wal_checkpoint(PASSIVE)');
    // Everything checkpointed: this write starts the WAL over (new salts) from its first frame.
    restarted.prepare('INSERT INTO acknowledged VALUES (?)').run(21);
    expect(statSync(`${path}-wal`).size).toBe(before);
    const copy = join(dir, 'restarted-copy.db');
    copyFileSync(path, copy);
    copyFileSync(`${path}-wal`, `${copy}-wal`);
    restarted.close();
    expect(rowsOf(copy)).toHaveLength(21);
  });

  it('opens one torn in its last frame, as a crash leaves it, with the writes before it', () => {
    const frames = Math.floor((statSync(`${live}-wal`).size - WAL_HEADER_BYTES) / frameBytes);
    const lastFrame = WAL_HEADER_BYTES + (frames - 1) * frameBytes;
    expect(rowsOf(crashedCopy(flipByteAt(lastFrame + FRAME_HEADER_BYTES + 10)))).toEqual([1, 2, 3, 4]);
    expect(rowsOf(crashedCopy((wal) => truncateSync(wal, lastFrame + 100)))).toEqual([1, 2, 3, 4]);
  });
});
