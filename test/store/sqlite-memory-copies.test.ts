/**
 * The SQLite store answers most reads from copies in memory that its writes keep up to date
 * without reading back (issue 19: fewer statements per start and stop): the live sessions, the
 * accounts, the warm servers and pool sizes. Each copy must always say what a read of the
 * database says: compared here with a second store opened on the same connection, which reads
 * everything from the database afresh, after inserts, updates, charges and rolled-back
 * transactions.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { WarmServer } from '../../server/domain/ports/warm-servers.js';
import { createSqliteStore } from '../../server/store/sqlite-store.js';
import { openDatabase, type Db } from '../../server/store/sqlite.js';
import type { Store } from '../../server/store/store.js';
import { account, portsHeld, session } from '../support/store-records.js';

let db: Db;
let dir: string;
afterEach(() => {
  db?.close();
  rmSync(dir, { recursive: true, force: true });
});

function openStore(): Store {
  dir = mkdtempSync(join(tmpdir(), 'memory-copies-'));
  db = openDatabase(join(dir, 'service.db'));
  return createSqliteStore(db);
}

/** What the database holds now: a store opened afresh reads it all from there. */
const fromDatabase = () => createSqliteStore(db);

const failed = (store: Store, fn: () => Promise<unknown>) =>
  expect(store.sessions.transaction(async () => (await fn(), Promise.reject(new Error('rolled back'))))).rejects.toThrow('rolled back');

describe('the SQLite store\'s copies in memory', () => {
  it('hold a session as the database returns it after an insert (ports in its order, unwritten fields empty) and after each update', async () => {
    const store = openStore();
    await store.accounts.insert(account('acc'));
    // As a warm claim inserts it: running already, with its ports in the image's order, not the database's.
    const record = session('s1', {
      status: 'running',
      runningSince: 1500,
      ports: [
        { name: 'query', type: 'tcp', container: 27015, host: 20002 },
        { name: 'game', type: 'udp', container: 7777, host: 20001 },
        { name: 'beacon', type: 'udp', container: 7777, host: 20003 },
      ],
    });
    await store.sessions.insert(record);
    const same = async () => {
      const fresh = fromDatabase().sessions;
      expect(await store.sessions.find(record.key)).toStrictEqual(await fresh.find(record.key));
      expect(await store.sessions.launchedAt('acc')).toEqual(await fresh.launchedAt('acc'));
      expect(await store.sessions.launchSummary('acc')).toEqual(await fresh.launchSummary('acc'));
      expect(await store.sessions.liveSessionsOn('n1')).toBe(await fresh.liveSessionsOn('n1'));
      expect(portsHeld(await store.sessions.portsInUse('127.0.0.1'))).toEqual(portsHeld(await fresh.portsInUse('127.0.0.1')));
    };
    await same();
    expect((await store.sessions.find(record.key))!.runningSince).toBe(1500);
    await store.sessions.update(record.key, { runningSince: 1600 });
    await same();
    await store.sessions.join(record.key, ['p1'], 1600);
    await store.sessions.update(record.key, { status: 'draining', pendingEndReason: 'stopped' });
    await same();
    await failed(store, () => store.sessions.update(record.key, { status: 'shuttingdown' }));
    await same();
    await store.sessions.update(record.key, { status: 'exited', ended: 2000, exitCode: 0, endReason: 'stopped', pendingEndReason: null });
    await same();
    expect(await store.sessions.liveSessionsOn('n1')).toBe(0);
    expect(portsHeld(await store.sessions.portsInUse('127.0.0.1'))).toEqual([]);
  });

  it('hold an account as the database does after charges, updates and a rolled-back charge', async () => {
    const store = openStore();
    await store.accounts.insert(account('acc'));
    const same = async () => expect(await store.accounts.findById('acc')).toStrictEqual(await fromDatabase().accounts.findById('acc'));
    await same();
    await store.accounts.addUsedSeconds('acc', 7);
    await same();
    await failed(store, () => store.accounts.addUsedSeconds('acc', 100));
    await same();
    await store.accounts.update('acc', { name: 'Renamed', maxSessions: 3, disabled: true });
    await same();
    expect((await store.accounts.findById('acc'))!).toMatchObject({ usedSeconds: 7, name: 'Renamed', maxSessions: 3, disabled: true });
  });

  it('hold the warm servers and pool sizes as the database does after inserts, claims, readiness and a rolled-back refill', async () => {
    const store = openStore();
    const pool = { location: 'arena', image: 'echo', tag: 'latest' };
    const server = (key: string, status: WarmServer['status'], host: number): WarmServer => ({
      ...pool, key, nodeId: 'n1', host: '127.0.0.1', ports: [{ name: 'game', type: 'udp', container: 7777, host }], status, created: host, launch: 'l',
    });
    const same = async () => {
      const fresh = fromDatabase().warmServers;
      const byKey = (servers: WarmServer[]) => servers.sort((a, b) => a.key.localeCompare(b.key));
      expect(byKey(await store.warmServers.all())).toStrictEqual(byKey(await fresh.all()));
      expect(await store.warmServers.countOn('n1')).toBe(await fresh.countOn('n1'));
      expect(await store.warmServers.countOf(pool)).toBe(await fresh.countOf(pool));
      expect([...(await store.warmServers.portsInUse('127.0.0.1'))].sort()).toEqual([...(await fresh.portsInUse('127.0.0.1'))].sort());
      expect(await store.warmServers.sizes()).toStrictEqual(await fresh.sizes());
    };
    await store.warmServers.insert(server('w1', 'starting', 20001));
    await store.warmServers.insert(server('w2', 'ready', 20002));
    await same();
    await failed(store, () => store.warmServers.insert(server('w3', 'starting', 20003)));
    await same();
    expect(await store.warmServers.markReady('w1')).toBe(true);
    await same();
    const claimed = await store.sessions.transaction(() => store.warmServers.claim(pool, ['n1']));
    // The oldest ready one: w1, ready since markReady.
    expect(claimed).toStrictEqual(server('w1', 'ready', 20001));
    await same();
    await store.warmServers.setSize(pool, 4, 100);
    await same();
    expect(await store.warmServers.remove('w2')).toBe(true);
    await same();
    expect(await store.warmServers.all()).toEqual([]);
  });

  it('know which accounts have subscriptions, across stores on the connection and a rolled-back delete, and ask nothing for the others', async () => {
    const store = openStore();
    await store.accounts.insert(account('acc'));
    await store.accounts.insert(account('other'));
    const second = fromDatabase();
    const sub = { id: 'sub-1', accountId: 'acc', url: 'http://127.0.0.1:9/hook', created: 1, cursor: 0, attempt: 1, due: 0 };
    await store.subscriptions.insert(sub, Buffer.from('sealed'), { max: 25, keepDeleted: 25 });
    expect((await second.subscriptions.activeForAccount('acc')).map((s) => s.id)).toEqual(['sub-1']);
    await failed(store, () => store.subscriptions.delete('sub-1', 2));
    expect((await store.subscriptions.activeForAccount('acc')).map((s) => s.id)).toEqual(['sub-1']);
    expect((await fromDatabase().subscriptions.activeForAccount('acc')).map((s) => s.id)).toEqual(['sub-1']);
    // An account without any: answered from memory (issue 19: the dispatcher asks after every session change).
    const statement = Object.getPrototypeOf(db.prepare('SELECT 1')) as { all: (...args: unknown[]) => unknown };
    const all = statement.all;
    const asked: string[] = [];
    statement.all = function (this: { source: string }, ...args: unknown[]) {
      asked.push(this.source);
      return all.apply(this, args);
    };
    try {
      expect(await store.subscriptions.activeForAccount('other')).toEqual([]);
    } finally {
      statement.all = all;
    }
    expect(asked.filter((sql) => sql.includes('subscriptions'))).toEqual([]);
  });
});
