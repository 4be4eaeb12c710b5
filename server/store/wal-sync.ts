/**
 * The fsync that makes committed WAL frames durable, run off the event loop. With synchronous
 * FULL, SQLite's COMMIT calls fsync itself and blocks the whole process for its length (5 ms and
 * more on a busy disk); group-commit.ts instead commits with synchronous NORMAL (the frames are
 * written, not synced; SQLite still syncs around checkpoints) and answers nobody until this sync
 * of the WAL file has finished. fsync is per file, not per descriptor: a descriptor of our own on
 * the WAL file flushes what the connection wrote through its own.
 */
import { close, closeSync, fsync, fsyncSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Db } from './sqlite.js';

export type Sync = (done: (error: Error | null) => void) => void;

export function walSync(db: Db): { sync: Sync; close(): void } {
  if (db.memory) return { sync: (done) => queueMicrotask(() => done(null)), close: () => {} };
  const path = `${db.name}-wal`;
  let fd: number | undefined;
  /**
   * The WAL's descriptor, opened at the first sync (the first commit has created the file). It
   * stays the connection's WAL for the connection's life: SQLite opens it once and removes it only
   * when the connection closes or leaves WAL mode (never while the service runs); a reset after a
   * checkpoint rewrites the same file (test/store/wal-sync.test.ts). So no stat of the path per
   * sync (a system call per commit, on the write path of every start and stop).
   */
  const descriptor = (): number => {
    if (fd !== undefined) return fd;
    fd = openSync(path, 'r');
    // A new WAL file's directory entry must be durable too (SQLite syncs it on the first sync).
    // Synchronous, once per WAL file: rare, and it must precede the first answer.
    const directory = openSync(dirname(path), 'r');
    try {
      fsyncSync(directory);
    } catch {
      // Some file systems refuse fsync on a directory (EINVAL); SQLite ignores that as well.
    } finally {
      closeSync(directory);
    }
    return fd;
  };
  return {
    sync: (done) => {
      let target: number;
      try {
        target = descriptor();
      } catch (error) {
        queueMicrotask(() => done(error as Error));
        return;
      }
      fsync(target, (error) => done(error));
    },
    close: () => {
      if (fd !== undefined) close(fd, () => {});
      fd = undefined;
    },
  };
}
