/**
 * A second instance started on a running one's data directory reads the WAL the first is writing
 * before SQLite's lock can say the directory is in use. The writer may restart its log (new salts,
 * from the first frame) after a checkpoint while the check reads it: the new frames read against
 * the old header, with the old generation's commits after them, looked like damage, and the second
 * instance said the database was corrupt (restore a backup) instead of in use.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../../server/store/sqlite.js';
import { walDamage } from '../../server/store/wal-check.js';

const WAL_HEADER_BYTES = 32;

/** Called before each read of the check's; set by the test to play the live writer. */
let beforeRead: (position: number) => void = () => {};
vi.mock('node:fs', async (original) => {
  const real = await original<typeof import('node:fs')>();
  return {
    ...real,
    // wal-check.ts's form: (fd, buffer, offset, length, position).
    readSync: (fd: number, buffer: NodeJS.ArrayBufferView, offset: number, length: number, position: number) => {
      beforeRead(position);
      return real.readSync(fd, buffer, offset, length, position);
    },
  };
});

describe('the WAL check while another instance writes the WAL', () => {
  const dir = mkdtempSync(join(tmpdir(), 'session-host-wal-live-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('finds no damage when the log is restarted between its header and its frames', () => {
    const path = join(dir, 'live.db');
    const db = openDatabase(path);
    db.exec('CREATE TABLE acknowledged (n INTEGER)');
    for (let n = 1; n <= 20; n++) db.prepare('INSERT INTO acknowledged VALUES (?)').run(n);
    const beforeRestart = readFileSync(`${path}-wal`);
    db.pragma('wal_checkpoint(PASSIVE)');
    // Everything checkpointed: these writes start the WAL over (new salts) from its first frame.
    for (let n = 21; n <= 22; n++) db.prepare('INSERT INTO acknowledged VALUES (?)').run(n);
    const afterRestart = readFileSync(`${path}-wal`);
    db.close();
    expect(afterRestart.subarray(16, 24).equals(beforeRestart.subarray(16, 24))).toBe(false);

    const wal = join(dir, 'read.db-wal');
    writeFileSync(wal, beforeRestart);
    // The writer restarts the log right after the check read the header.
    beforeRead = (position) => {
      if (position === WAL_HEADER_BYTES) writeFileSync(wal, afterRestart);
    };
    try {
      expect(walDamage(wal)).toBeUndefined();
    } finally {
      beforeRead = () => {};
    }
    // The file as the writer left it is sound: what was found came from the race alone.
    expect(walDamage(wal)).toBeUndefined();
  });
});
