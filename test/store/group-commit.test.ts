/**
 * Group commit on the SQLite store: concurrent writes share one COMMIT and one fsync of the WAL,
 * no caller is answered before the fsync after its commit has finished, batches committed while
 * an fsync runs share the next one, a failing write costs only itself, and a store transaction
 * that spans turns holds the batch's commit until it ends. The commits and fsyncs are counted
 * (and held) through the store's instrumented hooks, not timed.
 */
import { mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../server/store/sqlite.js';
import type { CommitHooks } from '../../server/store/group-commit.js';
import { createSqliteStore } from '../../server/store/sqlite-store.js';
import type { Store } from '../../server/store/store.js';
import { account, session } from '../support/store-records.js';

let cleanup: (() => void)[] = [];
afterEach(() => {
  for (const step of cleanup.reverse()) step();
  cleanup = [];
});

/**
 * A store on a fresh file whose fsyncs (and the answers around them) are logged in order; `commits`
 * holds the writers of each COMMIT.
 */
function instrumentedStore(sync?: CommitHooks['sync']): { store: Store; db: Db; dataDir: string; log: string[]; commits: number[] } {
  const dataDir = mkdtempSync(join(tmpdir(), 'group-commit-'));
  const db = openDatabase(join(dataDir, 'service.db'));
  const log: string[] = [];
  const commits: number[] = [];
  const store = createSqliteStore(db, {
    committed: (writers) => log.push(`commit ${writers}`),
    batchCommitted: (writers) => commits.push(writers),
    ...(sync ? { sync } : {}),
  });
  cleanup.push(() => {
    if (db.open) db.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return { store, db, dataDir, log, commits };
}

/** An instrumented store whose fsyncs wait until released (`held.shift()!()`), with account `acc` written and durable. */
async function storeWithHeldFsyncs() {
  const held: (() => void)[] = [];
  const made = instrumentedStore((fsync) => (done) => {
    made.log.push('fsync');
    held.push(() => fsync(done));
  });
  const first = made.store.accounts.insert(account('acc'));
  while (held.length === 0) await new Promise((resolve) => setImmediate(resolve));
  held.shift()!();
  await first;
  made.log.length = 0;
  made.commits.length = 0;
  return { ...made, held };
}

/** A session on its own host port. */
const placed = (id: string, port: number) => session(id, { ports: [{ name: 'game', type: 'udp', container: 7777, host: port }] });

const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe('group commit on the SQLite store', () => {
  it('answers no write before the fsync of the WAL after its commit has finished, and syncs the next batches together', async () => {
    const held: (() => void)[] = [];
    const { store, db, log } = instrumentedStore((fsync) => (done) => {
      log.push('fsync');
      held.push(() => fsync(done));
    });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    const first = store.accounts.insert(account('a1')).then(() => log.push('ack a1'));
    await turns(3);
    // Committed, but its fsync has not finished: not answered.
    expect(log).toEqual(['fsync']);
    // Two more batches in later turns commit while that fsync runs, and wait for the next.
    const second = store.accounts.insert(account('a2')).then(() => log.push('ack a2'));
    await turns(2);
    const third = store.accounts.insert(account('a3')).then(() => log.push('ack a3'));
    await turns(2);
    expect(log).toEqual(['fsync']);
    held.shift()!();
    await first;
    await turns(2);
    expect(log.slice(0, 2)).toEqual(['fsync', 'commit 1']);
    expect(log.slice(2).sort()).toEqual(['ack a1', 'fsync']);
    held.shift()!();
    await Promise.all([second, third]);
    expect(log.slice(4, 5)).toEqual(['commit 2']);
    expect(log.slice(5).sort()).toEqual(['ack a2', 'ack a3']);
  });

  it('puts every write that arrives while an fsync runs, over several turns, into one COMMIT after it, a failing transaction among them losing only its own writes', async () => {
    const { store, db, dataDir, log, commits, held } = await storeWithHeldFsyncs();
    const first = store.sessions.insert(placed('s1', 20001)).then(() => log.push('ack s1'));
    await turns(2);
    expect(commits).toEqual([1]);
    // The fsync of s1's commit runs (held): three callers in three later turns, one of them failing.
    const second = store.sessions.insert(placed('s2', 20002)).then(() => log.push('ack s2'));
    await turns(2);
    const failing = store.sessions.transaction(async () => {
      await store.sessions.insert(placed('s3', 20003));
      throw new Error('refused after its insert');
    });
    await expect(failing).rejects.toThrow('refused after its insert');
    await turns(2);
    const third = store.accounts.insert(account('b1')).then(() => log.push('ack b1'));
    await turns(2);
    // Nothing committed meanwhile (one open batch), nobody answered.
    expect(commits).toEqual([1]);
    expect(log).toEqual(['fsync']);
    held.shift()!();
    await first;
    // s1 answered after its fsync; the two that waited commit together, their fsync begun.
    expect(commits).toEqual([1, 2]);
    await turns(2);
    expect(log.slice(0, 2)).toEqual(['fsync', 'commit 1']);
    expect(log.slice(2).sort()).toEqual(['ack s1', 'fsync']);
    held.shift()!();
    await Promise.all([second, third]);
    expect(log.slice(4, 5)).toEqual(['commit 2']);
    db.close();
    const reopened = createSqliteStore(openDatabase(join(dataDir, 'service.db')));
    expect((await reopened.sessions.list({ accountId: 'acc', all: true, labels: {}, notLabels: {} })).map((s) => s.id).sort()).toEqual(['s1', 's2']);
    expect(await reopened.accounts.findById('b1')).toBeDefined();
    await reopened.close();
  });

  it('commits a transaction that must act on its commit at once at its turn\'s end, even while an fsync runs, and still answers it after its own fsync', async () => {
    const { store, log, commits, held } = await storeWithHeldFsyncs();
    const first = store.sessions.insert(placed('s1', 20001)).then(() => log.push('ack s1'));
    await turns(2);
    const urgent = store.sessions
      .transaction(async () => store.sessions.insert(placed('s2', 20002)), () => log.push('committed s2'), () => true)
      .then(() => log.push('ack s2'));
    await turns(3);
    // Committed beside the running fsync (its hand-off may begin), not answered.
    expect(commits).toEqual([1, 1]);
    expect(log).toEqual(['fsync', 'committed s2']);
    held.shift()!();
    await first;
    await turns(2);
    expect(log.slice(2, 3)).toEqual(['commit 1']);
    expect(log.slice(3).sort()).toEqual(['ack s1', 'fsync']);
    held.shift()!();
    await urgent;
    expect(log.slice(5)).toEqual(['commit 1', 'ack s2']);
  });

  it('commits concurrent writes once, and answers none of them before that commit', async () => {
    const { store, log } = instrumentedStore();
    const writes = Array.from({ length: 20 }, (_, i) => store.accounts.insert(account(`a${i}`)).then(() => log.push(`ack a${i}`)));
    await Promise.all(writes);
    expect(log[0]).toBe('commit 20');
    expect(log.slice(1).sort()).toEqual(Array.from({ length: 20 }, (_, i) => `ack a${i}`).sort());
  });

  it('groups store transactions with single writes, a transaction that spans turns holding the commit until it ends', async () => {
    const { store, log } = instrumentedStore();
    await store.accounts.insert(account('acc'));
    log.length = 0;
    const single = store.accounts.insert(account('b1')).then(() => log.push('ack single'));
    const slow = store.sessions
      .transaction(async () => {
        await store.sessions.insert(session('s1'));
        // Another turn passes inside the transaction: the batch may not commit without it.
        await new Promise((resolve) => setTimeout(resolve, 5));
        await store.sessions.appendEvent(session('s1'), null, 1000);
      })
      .then(() => log.push('ack transaction'));
    const after = store.sessions
      .transaction(async () => store.sessions.insert(session('s2', { key: 'key-s2', ports: [] })))
      .then(() => log.push('ack after'));
    await Promise.all([single, slow, after]);
    // The first two share a commit; the transaction queued behind the slow one opens the next batch.
    expect(log[0]).toBe('commit 2');
    expect(log.slice(1, 3).sort()).toEqual(['ack single', 'ack transaction']);
    expect(log.slice(3)).toEqual(['commit 1', 'ack after']);
  });

  it('rolls back a failing write alone: the others in its batch are committed', async () => {
    const { store, db, dataDir } = instrumentedStore();
    await store.accounts.insert(account('acc'));
    const results = await Promise.allSettled([
      store.sessions.transaction(async () => store.sessions.insert(session('ok1'))),
      // The same id twice: the primary key refuses it inside the batch.
      store.sessions.transaction(async () => store.sessions.insert(session('ok1', { key: 'key-dup', ports: [] }))),
      store.accounts.insert(account('acc')),
      store.accounts.insert(account('ok2')),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
    db.close();
    const reopened = createSqliteStore(openDatabase(join(dataDir, 'service.db')));
    expect((await reopened.sessions.list({ accountId: 'acc', all: true, labels: {}, notLabels: {} })).map((s) => s.key)).toEqual(['key-ok1']);
    expect(await reopened.accounts.count()).toBe(2);
    await reopened.close();
  });

  it('answers a read at once when no write is pending', async () => {
    const { store, log } = instrumentedStore();
    await store.accounts.insert(account('acc'));
    log.length = 0;
    await store.accounts.count().then(() => log.push('ack read'));
    expect(log).toEqual(['ack read']);
  });

  it('answers a read that may have seen another caller\'s write only once that write is durable, so nobody reads what a failed commit loses', async () => {
    const { store, log, held } = await storeWithHeldFsyncs();
    log.length = 0;
    // In the same turn as the write: the read sees it in the open batch.
    const write = store.accounts.insert(account('c1')).then(() => log.push('ack write'));
    const read = store.accounts.findById('c1').then((found) => log.push(`ack read ${found?.id}`));
    // And one a turn later, once the batch is committed but its fsync still runs.
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    const later = store.accounts.findById('c1').then((found) => log.push(`ack later read ${found?.id}`));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(log).toEqual(['fsync']);
    held.shift()!();
    await Promise.all([write, read, later]);
    expect(log[1]).toBe('commit 2');
    expect(log.slice(2).sort()).toEqual(['ack later read c1', 'ack read c1', 'ack write']);
  });

  it('fails a read that saw a write whose fsync then failed, as it fails the write', async () => {
    const held: ((error?: Error) => void)[] = [];
    const { store } = instrumentedStore((fsync) => (done) => {
      held.push((error) => (error ? done(error) : fsync(done)));
    });
    const write = store.accounts.insert(account('c1'));
    while (held.length === 0) await new Promise((resolve) => setImmediate(resolve));
    // Committed, its fsync still running: a read now sees c1, and must not answer with it yet.
    const read = store.accounts.findById('c1');
    held.shift()!(new Error('EIO: the fsync failed'));
    await expect(write).rejects.toThrow('EIO');
    await expect(read).rejects.toThrow('EIO');
  });

  it('answers the API\'s session reads (one session, a list) without opening a batch, and only once a write they may have seen is durable', async () => {
    const { store, db, log, held } = await storeWithHeldFsyncs();
    // Nothing pending: a read neither begins a transaction (no BEGIN, no COMMIT) nor waits.
    const quiet = store.sessions.findOwned('acc', 'none');
    expect(db.inTransaction).toBe(false);
    expect(await quiet).toBeUndefined();
    log.length = 0;
    // In the turn of a write: both reads see it in the read model, and wait for its fsync.
    const write = store.sessions.insert(session('s1')).then(() => log.push('ack write'));
    const one = store.sessions.findOwned('acc', 's1').then((found) => log.push(`ack one ${found?.id}`));
    const list = store.sessions.list({ accountId: 'acc', all: false, labels: {}, notLabels: {} }).then((found) => log.push(`ack list ${found.length}`));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(log).toEqual(['fsync']);
    held.shift()!();
    await Promise.all([write, one, list]);
    // The write and the two reads waiting on it, answered after the one fsync.
    expect(log[1]).toBe('commit 3');
    expect(log.slice(2).sort()).toEqual(['ack list 1', 'ack one s1', 'ack write']);
  });

  it('keeps the pages a store transaction journals (to roll back to its savepoint) in memory, never in a temp file', async () => {
    const { store } = instrumentedStore();
    await store.accounts.insert(account('acc'));
    const many = Array.from({ length: 300 }, (_, i) =>
      session(`s${i}`, { labels: { notes: 'x'.repeat(400) }, ports: [{ name: 'game', type: 'udp', container: 7777, host: 20000 + i }] }),
    );
    await store.sessions.transaction(async () => {
      for (const record of many) await store.sessions.insert(record);
    });
    // SQLite's temp files are unlinked as they are opened: an open descriptor on a deleted etilqs_ file.
    const tempFiles = () =>
      readdirSync('/proc/self/fd').flatMap((fd) => {
        try {
          return [readlinkSync(`/proc/self/fd/${fd}`)];
        } catch {
          return [];
        }
      }).filter((target) => target.includes('etilqs_'));
    let during: string[] = [];
    await store.sessions.transaction(async () => {
      // Rewrites far more than the 64 KiB a sub-journal keeps in memory before spilling on the default temp store.
      for (const record of many) await store.sessions.update(record.key, { status: 'running', runningSince: 2000 });
      during = tempFiles();
    });
    expect(during).toEqual([]);
    expect((await store.sessions.find('key-s299'))?.status).toBe('running');
  });
});
