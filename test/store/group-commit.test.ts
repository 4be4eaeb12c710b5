/**
 * Group commit on the SQLite store: concurrent writes share one COMMIT (one fsync: WAL with
 * synchronous FULL), no caller is answered before the COMMIT holding its write has returned, a
 * failing write costs only itself, and a store transaction that spans turns holds the batch's
 * commit until it ends. The commits are counted by the store's instrumented hook, not timed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../server/store/sqlite.js';
import { createSqliteStore } from '../../server/store/sqlite-store.js';
import type { Store } from '../../server/store/store.js';
import { account, session } from '../support/store-records.js';

let cleanup: (() => void)[] = [];
afterEach(() => {
  for (const step of cleanup.reverse()) step();
  cleanup = [];
});

/** A store on a fresh file whose commits (and the answers around them) are logged in order. */
function instrumentedStore(): { store: Store; db: Db; dataDir: string; log: string[] } {
  const dataDir = mkdtempSync(join(tmpdir(), 'group-commit-'));
  const db = openDatabase(join(dataDir, 'service.db'));
  const log: string[] = [];
  const store = createSqliteStore(db, { committed: (writers) => log.push(`commit ${writers}`) });
  cleanup.push(() => {
    if (db.open) db.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return { store, db, dataDir, log };
}

describe('group commit on the SQLite store', () => {
  it('keeps synchronous FULL in WAL: a COMMIT returns after its fsync', () => {
    const { db } = instrumentedStore();
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
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

  it('answers reads without waiting for a commit', async () => {
    const { store, log } = instrumentedStore();
    await store.accounts.insert(account('acc'));
    log.length = 0;
    const write = store.accounts.insert(account('c1')).then(() => log.push('ack write'));
    await store.accounts.count().then(() => log.push('ack read'));
    await write;
    expect(log).toEqual(['ack read', 'commit 1', 'ack write']);
  });
});
