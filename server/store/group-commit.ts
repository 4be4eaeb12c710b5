/**
 * Group commit for the SQLite connection: concurrent writes (single calls and whole store
 * transactions alike) go into one SQLite transaction, the batch, committed once. The commit writes
 * the WAL (synchronous NORMAL) and an fsync of the WAL file off the event loop (wal-sync.ts) makes
 * it durable. While no fsync runs, the batch commits when its event-loop turn ends (setImmediate);
 * while one runs, the batch stays open and every write arriving meanwhile, over any number of
 * turns, joins it: it commits when that fsync ends, and its own fsync starts at once. So at most
 * one BEGIN, one COMMIT and one set of WAL frames (a page changed by several writers is written
 * once) per fsync, however the writes arrive (a COMMIT costs ~160 µs: issue 19).
 * Nobody's write is acknowledged before the fsync after its commit has finished: a caller's
 * promise resolves only then, and a failed commit or fsync rejects every caller in the batch.
 *
 * A failing write costs only itself: a statement that fails is undone alone (SQLite's statement
 * rollback), a store transaction is a savepoint in the batch and rolls back to it. An error that
 * makes SQLite roll back the whole transaction (a full disk) fails the whole batch.
 */
import type Database from 'better-sqlite3';
// The module's own binding, not the global one: a commit is I/O, and tests that fake the clock
// (which replaces the global setImmediate) must still see their writes committed.
import { setImmediate as atEndOfTurn } from 'node:timers';
import type { Db } from './sqlite.js';
import { walSync, type Sync } from './wal-sync.js';

/** Instruments the commits (tests count them: concurrent writes must share one). */
export interface CommitHooks {
  /** Called after each COMMIT with the number of writers it made (tests: writes during an fsync share one). */
  batchCommitted?(writers: number): void;
  /** Called once the batches of an fsync are durable, before any of their callers is answered. */
  committed?(writers: number): void;
  /** Wraps the WAL's fsync (tests hold it, to see that nobody is answered before it finishes). */
  sync?(fsync: Sync): Sync;
}

/** What settled() answers when no write is pending. */
const NOTHING_PENDING: Promise<void> = Promise.resolve();

interface Batch {
  /** committed(): called once their batch's COMMIT has returned, while its fsync may still run. */
  writers: { resolve(): void; reject(error: unknown): void; committed?(): void; atOnce?: boolean }[];
}

export class GroupCommit {
  private batch: Batch | undefined;
  private flushScheduled = false;
  private flushWhenFree = false;
  /** The open batch waits for the running fsync's end to commit (more writes join it meanwhile). */
  private flushWhenSynced = false;
  private closing = false;
  private readonly begin: Database.Statement<[]>;
  private readonly commit: Database.Statement<[]>;
  private readonly changes: Database.Statement<[]>;
  private readonly wal: ReturnType<typeof walSync>;
  private readonly sync: Sync;
  /** Committed, not yet synced: answered after the next fsync. */
  private unsynced: Batch[] = [];
  private syncing: Promise<void> | undefined;
  /** Reads that may have seen the writes the running fsync makes durable: answered as those writes are. */
  private readersOfSyncing: Batch['writers'] = [];
  /** Work that must run with no transaction open (betweenBatches), waiting for the open batch's end. */
  private between: (() => void)[] = [];

  constructor(
    private readonly db: Db,
    /** True while a store transaction spans turns: its batch cannot commit before it ends. */
    private readonly held: () => boolean,
    /** Rebuilds read models after a rollback (they may hold writes that no longer exist). */
    private readonly rolledBack: () => void,
    private readonly hooks: CommitHooks = {},
  ) {
    this.begin = db.prepare('BEGIN IMMEDIATE');
    this.commit = db.prepare('COMMIT');
    this.changes = db.prepare('SELECT total_changes()').pluck();
    this.wal = walSync(db);
    this.sync = hooks.sync ? hooks.sync(this.wal.sync) : this.wal.sync;
    // The COMMIT writes the WAL without syncing it: the fsync that follows it, off the event loop, does.
    db.pragma('synchronous = NORMAL');
    // A store transaction is a savepoint in the batch: SQLite keeps the pages it changes in a
    // sub-journal, to roll back to. That journal only serves the open transaction (a crash loses
    // it with the uncommitted batch), so it stays in memory: on the default temp store it spills
    // to a file past 64 KiB, two writes per page (issue 19: ~44 writes per start+stop pair).
    // The setting is the connection's: every temp b-tree and sort stays in memory too, never
    // spilled. Each is bounded by what its statement returns or changes: sorts are per session or
    // account, or cut by a LIMIT (the live load reads its index, migration 10); VACUUM INTO
    // (backups) writes its copy straight to the target file (same peak memory either way); a
    // savepoint's sub-journal holds the pages it changes, so large deletes go in chunks (the
    // retention purge: session-repository.ts).
    db.pragma('temp_store = MEMORY');
  }

  /** Runs a synchronous repository call in the open batch; resolves after the batch's commit if it wrote anything. */
  async write<T>(fn: () => T): Promise<T> {
    this.join();
    const before = this.changes.get() as number;
    let result: T;
    try {
      result = fn();
    } catch (error) {
      this.failedInside(error);
      throw error;
    }
    // A call that changed nothing may still have read another caller's write that is not durable
    // yet (or not even committed): it answers after that write is, so nobody sees what may be lost.
    await ((this.changes.get() as number) !== before ? this.durable() : this.settled());
    return result;
  }

  /**
   * Runs a synchronous repository call that only reads: it opens no batch and costs no check for
   * changes, and answers once what it may have read is durable (as write() does for a call that
   * changed nothing).
   */
  read<T>(fn: () => T): Promise<T> {
    let result: T;
    try {
      result = fn();
    } catch (error) {
      return Promise.reject(error);
    }
    // Not an async function: reads are many, and most find nothing pending (one promise, not three).
    const settled = this.settled();
    return settled === NOTHING_PENDING ? Promise.resolve(result) : settled.then(() => result);
  }

  /** Resolves once every write made so far is durable (at once when none is pending). */
  private settled(): Promise<void> {
    if (this.batch?.writers.length) return this.durable();
    const waiting = this.unsynced.at(-1);
    if (waiting) return new Promise((resolve, reject) => waiting.writers.push({ resolve, reject }));
    // Committed, not yet durable: a read that may have seen them fails with them if the fsync does.
    if (this.syncing) return new Promise((resolve, reject) => this.readersOfSyncing.push({ resolve, reject }));
    return NOTHING_PENDING;
  }

  /** Opens the batch (BEGIN IMMEDIATE) unless one is open, and schedules its commit at the end of this turn. */
  join(): void {
    if (!this.batch) {
      this.begin.run();
      this.batch = { writers: [] };
    }
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      atEndOfTurn(() => this.flush());
    }
  }

  /**
   * Resolves once the open batch is committed and synced (rejects if it is not); `committed` runs
   * as soon as its COMMIT has returned (the writes survive this process from then on; the fsync,
   * against a power loss, is already under way). `atOnce`: the batch commits at the end of this
   * turn even while an fsync runs (its `committed` must not wait for that fsync).
   */
  durable(committed?: () => void, atOnce = false): Promise<void> {
    const batch = this.batch;
    if (!batch) {
      committed?.();
      return Promise.resolve();
    }
    // A batch left to commit after the running fsync commits at this turn's end instead (deferred()).
    if (atOnce && this.flushWhenSynced && !this.flushScheduled) {
      this.flushScheduled = true;
      atEndOfTurn(() => this.flush());
    }
    return new Promise((resolve, reject) => batch.writers.push({ resolve, reject, committed, atOnce }));
  }

  /**
   * After an error inside the batch: when SQLite rolled the whole transaction back (a full disk,
   * an I/O error), every write of the batch is gone and its callers are told so.
   */
  failedInside(error: unknown): void {
    if (this.batch && !this.db.inTransaction) this.settle(this.batch, error);
  }

  /** A store transaction ended: if the batch had to wait for it, it commits now, before anyone else joins it. */
  released(): void {
    if (this.flushWhenFree) this.flush();
  }

  /**
   * Runs fn synchronously at a moment no transaction is open on the connection: at once when none
   * is, else right after the open batch commits (or rolls back), before anyone opens the next. A
   * backup taken there holds every write committed before it, and no write half done.
   */
  betweenBatches<T>(fn: () => T): Promise<T> {
    return new Promise((resolve, reject) => {
      const run = () => {
        try {
          resolve(fn());
        } catch (error) {
          reject(error);
        }
      };
      if (!this.batch && !this.held()) return run();
      this.between.push(run);
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        atEndOfTurn(() => this.flush());
      }
    });
  }

  /** Commits the open batch at once and waits for its fsync (closing the store). */
  async close(): Promise<void> {
    this.closing = true;
    this.flush();
    while (this.syncing) await this.syncing;
    this.wal.close();
  }

  private flush(): void {
    if (this.deferred()) return;
    this.commitBatch();
    if (this.batch || this.held()) return;
    const waiting = this.between;
    this.between = [];
    for (const run of waiting) run();
  }

  private commitBatch(): void {
    this.flushScheduled = false;
    if (this.held()) {
      this.flushWhenFree = true;
      return;
    }
    this.flushWhenFree = false;
    const batch = this.batch;
    if (!batch) return;
    if (!this.db.open) {
      // Closed under the batch (SQLite rolled it back): nothing of it was acknowledged.
      this.batch = undefined;
      for (const writer of batch.writers) writer.reject(new Error('the database was closed before the write was committed'));
      return;
    }
    try {
      this.commit.run();
    } catch (error) {
      this.settle(batch, error);
      return;
    }
    this.batch = undefined;
    this.hooks.batchCommitted?.(batch.writers.length);
    // Nobody waits on it: only reads joined it, and they have nothing to make durable.
    if (batch.writers.length === 0) return;
    this.unsynced.push(batch);
    this.syncSoon();
    // After the fsync has begun: what waits on the commit runs beside it.
    for (const writer of batch.writers) writer.committed?.();
  }

  /**
   * Whether the open batch waits for the running fsync to end (flushWhenSynced): committing now
   * would cost a COMMIT and its WAL frames and still wait for that fsync. A batch with a writer
   * that must act on the commit at once (a warm handoff, which runs beside the fsync) commits now.
   */
  private deferred(): boolean {
    this.flushScheduled = false;
    const batch = this.batch;
    if (!this.syncing || !batch || this.closing || batch.writers.some((writer) => writer.atOnce)) return false;
    this.flushWhenSynced = true;
    return true;
  }

  /** One fsync at a time; the batches committed meanwhile wait for the next, together. */
  private syncSoon(): void {
    if (this.syncing || this.unsynced.length === 0) return;
    const batches = this.unsynced;
    this.unsynced = [];
    this.syncing = new Promise((resolve) =>
      this.sync((error) => {
        this.syncing = undefined;
        const writers = batches.flatMap((batch) => batch.writers);
        const readers = this.readersOfSyncing;
        this.readersOfSyncing = [];
        if (error) for (const waiting of [...writers, ...readers]) waiting.reject(error);
        else {
          this.hooks.committed?.(writers.length);
          for (const waiting of [...writers, ...readers]) waiting.resolve();
        }
        resolve();
        if (this.flushWhenSynced) {
          this.flushWhenSynced = false;
          this.flush();
        }
        this.syncSoon();
      }),
    );
  }

  /** The batch is lost: roll back what is left of it, rebuild the read models, fail its callers. */
  private settle(batch: Batch, error: unknown): void {
    this.batch = undefined;
    if (this.db.inTransaction) this.db.exec('ROLLBACK');
    this.rolledBack();
    for (const writer of batch.writers) writer.reject(error);
  }
}
