/**
 * The store port's contract: every adapter (SQLite, the embedded default; PostgreSQL, for several
 * instances) answers the same calls the same way. Each case runs on a fresh store of each kind.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../server/store/open-store.js';
import type { Store } from '../../server/store/store.js';
import { createDatabase } from '../support/postgres.mjs';
import { account, portsHeld, session } from '../support/store-records.js';

const opened: Store[] = [];
const dirs: string[] = [];
afterAll(async () => {
  for (const store of opened) await store.close().catch(() => {});
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function freshStore(kind: 'sqlite' | 'postgres'): Promise<Store> {
  return (await freshInstances(kind, 1))[0]!;
}

/** Stores on one fresh database, as instances of one deployment open it (SQLite: one, its only writer). */
async function freshInstances(kind: 'sqlite' | 'postgres', count: number): Promise<Store[]> {
  const databaseUrl = kind === 'postgres' ? await createDatabase('contract') : undefined;
  const stores: Store[] = [];
  for (let i = 0; i < (databaseUrl ? count : 1); i++) {
    const dataDir = mkdtempSync(join(tmpdir(), 'store-contract-'));
    dirs.push(dataDir);
    const { store } = await openStore({ dataDir, databaseUrl });
    opened.push(store);
    stores.push(store);
  }
  return stores;
}

const listAll = { accountId: 'acc', all: true, labels: {}, notLabels: {} };
const listLive = { ...listAll, all: false };

describe.each(['sqlite', 'postgres'] as const)('the %s store', (kind) => {
  it('keeps accounts: found by id and by email in any case, searched newest first in pages, updated field by field', async () => {
    const store = await freshStore(kind);
    await store.accounts.insert(account('a1', { created: 1, maxSessions: 3 }));
    await store.accounts.insert(account('a2', { created: 2, email: 'Mixed@Example.com' }));
    await store.accounts.insert(account('a3', { created: 3 }));
    expect(await store.accounts.count()).toBe(3);
    expect(await store.accounts.findById('a1')).toMatchObject({ maxSessions: 3, operator: false, disabled: false });
    expect((await store.accounts.findByEmail('mixed@example.COM'))?.id).toBe('a2');
    const first = await store.accounts.search({ limit: 2 });
    expect(first.map((a) => a.id)).toEqual(['a3', 'a2']);
    const next = await store.accounts.search({ limit: 2, after: { created: first[1]!.created, id: first[1]!.id } });
    expect(next.map((a) => a.id)).toEqual(['a1']);
    expect((await store.accounts.search({ q: 'MIXED', limit: 10 })).map((a) => a.id)).toEqual(['a2']);
    await store.accounts.update('a1', { name: 'Renamed', disabled: true });
    expect(await store.accounts.findById('a1')).toMatchObject({ name: 'Renamed', disabled: true, maxSessions: 3 });
    await store.accounts.update('a1', { maxSessions: null });
    expect((await store.accounts.findById('a1'))?.maxSessions).toBeNull();
    await store.accounts.addUsedSeconds('a3', 90);
    await store.accounts.addUsedSeconds('a3', 30);
    expect((await store.accounts.mostUsed(5)).map((a) => [a.id, a.usedSeconds])).toEqual([['a3', 120]]);
  });

  it('keeps tokens: by hash, revoked with everything they issued, last use only moving forward', async () => {
    const store = await freshStore(kind);
    await store.accounts.insert(account('acc'));
    const token = (id: string, issuerId: string | null) => ({
      id,
      accountId: 'acc',
      issuerId,
      name: id,
      scopes: ['session:read' as const, 'session:start' as const],
      hint: 'abcd',
      created: 5,
      expiresAt: null,
      disabled: false,
      revokedAt: null,
      lastUsed: null,
    });
    await store.tokens.insert(token('root', null), { hash: Buffer.from('h-root'), sealed: Buffer.from('s-root') });
    await store.tokens.insert(token('child', 'root'), { hash: Buffer.from('h-child'), sealed: Buffer.from('s-child') });
    await store.tokens.insert(token('grandchild', 'child'), { hash: Buffer.from('h-grand'), sealed: Buffer.from('s-grand') });
    expect(await store.tokens.findByHash(Buffer.from('h-child'))).toMatchObject({ id: 'child', scopes: ['session:read', 'session:start'], hash: Buffer.from('h-child') });
    expect(await store.tokens.sealed('root')).toEqual(Buffer.from('s-root'));
    await store.tokens.recordLastUsed(new Map([['root', 50]]));
    await store.tokens.recordLastUsed(new Map([['root', 40]]));
    expect((await store.tokens.findById('root'))?.lastUsed).toBe(50);
    await store.tokens.setDisabled('root', true);
    expect((await store.tokens.findById('root'))?.disabled).toBe(true);
    await store.tokens.revokeWithDescendants('child', 99);
    expect((await store.tokens.listActive('acc')).map((t) => t.id)).toEqual(['root']);
    expect((await store.tokens.findById('grandchild'))?.revokedAt).toBe(99);
  });

  it("inserts a token within the account's cap in one step: racing inserts, on every instance, end at exactly the cap", async () => {
    const instances = await freshInstances(kind, 3);
    await instances[0]!.accounts.insert(account('acc'));
    const token = (id: string, expiresAt: number | null = null) => ({
      id, accountId: 'acc', issuerId: null, name: id, scopes: ['session:read' as const], hint: 'abcd', created: 5, expiresAt, disabled: false, revokedAt: null, lastUsed: null,
    });
    const secret = (id: string) => ({ hash: Buffer.from(`h-${id}`), sealed: Buffer.from(`s-${id}`) });
    const MAX = 8;
    // Neither an expired nor a revoked token counts.
    await instances[0]!.tokens.insert(token('expired', 50), secret('expired'));
    await instances[0]!.tokens.insert(token('revoked'), secret('revoked'));
    await instances[0]!.tokens.revokeWithDescendants('revoked', 60);
    const racers = Array.from({ length: 6 * MAX }, (_, i) => `t${i}`);
    const inserted = await Promise.all(racers.map((id, i) => instances[i % instances.length]!.tokens.insertWithin(token(id), secret(id), { max: MAX, now: 100, keepEnded: 100 })));
    expect(inserted.filter(Boolean)).toHaveLength(MAX);
    expect(await instances[0]!.tokens.listActive('acc')).toHaveLength(MAX + 1);
    expect(await instances[0]!.tokens.findById(racers[inserted.indexOf(false)]!)).toBeUndefined();
  });

  it("keeps an account's newest ended tokens beside a new one, and purges ended ones after the retention", async () => {
    const store = await freshStore(kind);
    await store.accounts.insert(account('acc'));
    const token = (id: string, created: number, issuerId: string | null = null, expiresAt: number | null = null) => ({
      id, accountId: 'acc', issuerId, name: id, scopes: ['session:read' as const], hint: 'abcd', created, expiresAt, disabled: false, revokedAt: null, lastUsed: null,
    });
    const secret = (id: string) => ({ hash: Buffer.from(`h-${id}`), sealed: Buffer.from(`s-${id}`) });
    await store.tokens.insert(token('live', 1), secret('live'));
    await store.tokens.insert(token('parent', 2), secret('parent'));
    await store.tokens.insert(token('child', 3, 'parent'), secret('child'));
    await store.tokens.revokeWithDescendants('parent', 10);
    await store.tokens.insert(token('expired', 4, null, 15), secret('expired'));
    for (const i of [1, 2, 3, 4]) {
      await store.tokens.insert(token(`ended${i}`, 10 + i), secret(`ended${i}`));
      await store.tokens.revokeWithDescendants(`ended${i}`, 20 + i);
    }
    const all = ['live', 'parent', 'child', 'expired', 'ended1', 'ended2', 'ended3', 'ended4', 'new'];
    const kept = async () => (await Promise.all(all.map((id) => store.tokens.findById(id)))).flatMap((t) => (t ? [t.id] : []));

    // The two newest ended tokens stay; the older ones go, the parent with the child it issued.
    expect(await store.tokens.insertWithin(token('new', 30), secret('new'), { max: 100, now: 100, keepEnded: 2 })).toBe(true);
    expect(await kept()).toEqual(['live', 'ended3', 'ended4', 'new']);
    // Ended by 23: ended3; ended4 ended at 24, the others live.
    await store.tokens.purgeEnded(23);
    expect(await kept()).toEqual(['live', 'ended4', 'new']);
  });

  it('deletes revoked chains whole, at a mint (counting their tokens) and at the retention, never an issuer of a live token', async () => {
    const store = await freshStore(kind);
    await store.accounts.insert(account('acc'));
    await store.accounts.insert(account('other'));
    const token = (id: string, created: number, issuerId: string | null = null, accountId = 'acc') => ({
      id, accountId, issuerId, name: id, scopes: ['session:read' as const], hint: 'abcd', created, expiresAt: null, disabled: false, revokedAt: null, lastUsed: null,
    });
    const secret = (id: string) => ({ hash: Buffer.from(`h-${id}`), sealed: Buffer.from(`s-${id}`) });
    /** A chain of `depth` tokens, each issued by the one before, created one by one from `created`. */
    const chain = async (name: string, depth: number, created: number, issuerId: string | null = null, accountId = 'acc') => {
      const ids = Array.from({ length: depth }, (_, i) => `${name}${i}`);
      for (const [i, id] of ids.entries()) await store.tokens.insert(token(id, created + i, i === 0 ? issuerId : ids[i - 1]!, accountId), secret(id));
      return ids;
    };
    const present = async (ids: string[]) => (await Promise.all(ids.map((id) => store.tokens.findById(id)))).flatMap((t) => (t ? [t.id] : []));

    const older = await chain('a', 12, 1);
    const newer = await chain('b', 12, 20);
    await store.tokens.revokeWithDescendants('a0', 40);
    await store.tokens.revokeWithDescendants('b0', 41);
    // Under a live token, a revoked branch; and a token inserted under an issuer revoked meanwhile
    // (a mint that had authenticated just before): its revoked issuers must stay.
    const [live] = await chain('live', 1, 50);
    const branch = await chain('branch', 3, 51, live);
    await store.tokens.revokeWithDescendants('branch0', 60);
    const pinned = await chain('pinned', 3, 52);
    await store.tokens.revokeWithDescendants('pinned0', 61);
    await store.tokens.insert(token('late', 62, 'pinned2'), secret('late'));
    const elsewhere = await chain('e', 4, 1, null, 'other');
    await store.tokens.revokeWithDescendants('e0', 40);

    // Keep 5 ended tokens of the account beside the new one: the older chain goes whole; of the
    // newer ones (the branch, then the pinned chain, then chain b), the rest: each kept one with its issuers.
    expect(await store.tokens.insertWithin(token('new', 70), secret('new'), { max: 100, now: 100, keepEnded: 5 })).toBe(true);
    expect(await present(older)).toEqual([]);
    // Ordered by their topmost ended token, newest first: pinned0 (52, all 3 pinned: they never go
    // and do not count), branch0 (51: 3), b0 (20: 2 of 12 fit).
    expect(await present(pinned)).toEqual(pinned);
    expect(await present(branch)).toEqual(branch);
    expect(await present(newer)).toEqual(['b0', 'b1']);
    expect(await present([live!, 'late', 'new'])).toEqual([live, 'late', 'new']);
    expect(await present(elsewhere)).toEqual(elsewhere);

    // The retention takes every ended token in one pass, whole chains, but the issuers of the live one.
    await store.tokens.purgeEnded(100);
    expect(await present([...older, ...newer, ...branch, ...elsewhere])).toEqual([]);
    expect(await present([...pinned, live!, 'late', 'new'])).toEqual([...pinned, live, 'late', 'new']);
  });

  it('trims at a mint the oldest chains past the bound, pinned ones not counted, and nothing within it', async () => {
    const store = await freshStore(kind);
    await store.accounts.insert(account('acc'));
    const token = (id: string, created: number, issuerId: string | null = null) => ({
      id, accountId: 'acc', issuerId, name: id, scopes: ['session:read' as const], hint: 'abcd', created, expiresAt: null, disabled: false, revokedAt: null, lastUsed: null,
    });
    const secret = (id: string) => ({ hash: Buffer.from(`h-${id}`), sealed: Buffer.from(`s-${id}`) });
    // The oldest chain is pinned (a live token was minted under it as it was revoked): two ended
    // tokens that are not counted, and not deleted.
    await store.tokens.insert(token('p0', 1), secret('p0'));
    await store.tokens.insert(token('p1', 2, 'p0'), secret('p1'));
    await store.tokens.revokeWithDescendants('p0', 20);
    await store.tokens.insert(token('late', 21, 'p1'), secret('late'));
    const single = ['e1', 'e2', 'e3', 'e4', 'e5'];
    for (const [i, id] of single.entries()) {
      await store.tokens.insert(token(id, 10 + i), secret(id));
      await store.tokens.revokeWithDescendants(id, 30 + i);
    }
    const all = ['p0', 'p1', 'late', ...single, 'n1', 'n2'];
    const kept = async () => (await Promise.all(all.map((id) => store.tokens.findById(id)))).flatMap((t) => (t ? [t.id] : []));

    // Seven ended tokens, two of them pinned: five deletable, within a bound of six (past the
    // bound by the count alone, which takes the pinned ones in: the walk finds none to delete).
    expect(await store.tokens.insertWithin(token('n1', 40), secret('n1'), { max: 100, now: 100, keepEnded: 6 })).toBe(true);
    expect(await kept()).toEqual(['p0', 'p1', 'late', ...single, 'n1']);
    // A bound of two: the three oldest deletable ones go (found past the pinned chain, the oldest).
    expect(await store.tokens.insertWithin(token('n2', 41), secret('n2'), { max: 100, now: 100, keepEnded: 2 })).toBe(true);
    expect(await kept()).toEqual(['p0', 'p1', 'late', 'e4', 'e5', 'n1', 'n2']);
  });

  it('keeps sessions with their ports and players; ending one frees its ports', async () => {
    const store = await freshStore(kind);
    await store.accounts.insert(account('acc'));
    const { sessions } = store;
    await sessions.insert(session('s1', { created: 1 }));
    await sessions.insert(session('s2', { created: 2, nodeId: 'n2', ports: [{ name: 'game', type: 'udp', container: 7777, host: 20001 }, { name: 'query', type: 'tcp', container: 27015, host: 20002 }] }));
    expect(await sessions.exists('acc', 's1')).toBe(true);
    expect(await sessions.exists('acc', 'nope')).toBe(false);
    expect(await sessions.find('key-s2')).toEqual(session('s2', { created: 2, nodeId: 'n2', ports: [{ name: 'game', type: 'udp', container: 7777, host: 20001 }, { name: 'query', type: 'tcp', container: 27015, host: 20002 }] }));
    expect(portsHeld(await sessions.portsInUse('127.0.0.1'))).toEqual([20000, 20001, 20002]);
    expect(await sessions.liveSessionsOn('n2')).toBe(1);
    expect(await sessions.liveCountsByNode()).toEqual(new Map([['n1', 1], ['n2', 1]]));
    expect(await sessions.liveKeysOn('n2')).toEqual(['key-s2']);
    expect((await sessions.launchedAt('acc')).sort()).toEqual([1, 2]);
    expect(await sessions.launchSummary('acc')).toEqual({ count: 2, meanMs: 1.5, latestMs: 2 });
    expect(await sessions.launchSummary('nobody')).toEqual({ count: 0, meanMs: 0, latestMs: 0 });
    expect(await sessions.accountsWithLiveSessions()).toEqual(['acc']);

    expect(await sessions.join('key-s1', ['p1', 'p2'], 10)).toEqual(['p1', 'p2']);
    // Only the players not joined before are returned (what the storage budget is charged).
    expect(await sessions.join('key-s1', ['p2', 'p3'], 11)).toEqual(['p3']);
    expect((await sessions.findOwned('acc', 's1'))?.players).toEqual(['p1', 'p2', 'p3']);
    expect(await sessions.liveSessionsOfPlayers('acc', ['p3', 'px'])).toEqual(new Map([['p3', 'key-s1']]));
    expect(await sessions.leave('key-s1', ['p1', 'px'])).toEqual(['p1']);
    expect((await sessions.find('key-s1'))?.players).toEqual(['p2', 'p3']);

    await sessions.update('key-s2', { status: 'exited', ended: 50, exitCode: 0, endReason: 'stopped' });
    expect(await sessions.find('key-s2')).toMatchObject({ status: 'exited', ended: 50, exitCode: 0, endReason: 'stopped' });
    expect(portsHeld(await sessions.portsInUse('127.0.0.1'))).toEqual([20000]);
    expect(await sessions.liveKeysOn('n2')).toEqual([]);
    expect((await sessions.live()).map((s) => s.id)).toEqual(['s1']);
    expect(await sessions.storedSize('acc')).toEqual({ bytes: 2 * (JSON.stringify(session('x').labels).length + JSON.stringify(['--fast']).length) + 4, players: 2 });
    // Freed in the database too: a new session on the same node takes the same port.
    await sessions.insert(session('s3', { created: 3, nodeId: 'n2', ports: [{ name: 'game', type: 'udp', container: 7777, host: 20001 }] }));
    expect(portsHeld(await sessions.portsInUse('127.0.0.1'))).toEqual([20000, 20001]);
    expect((await sessions.purgeEnded(51)).sessions).toBe(1);
    expect(await sessions.find('key-s2')).toBeUndefined();
  });

  it("measures what an account's sessions hold (labels, args, player ids, players), live or ended, until they are purged", async () => {
    const store = await freshStore(kind);
    await store.accounts.insert(account('acc'));
    await store.accounts.insert(account('other'));
    const { sessions } = store;
    const record = (id: string, extra: object = {}) => session(id, { labels: {}, args: [], ports: [], ...extra });
    await sessions.insert(record('live'));
    await sessions.insert(record('ended'));
    await sessions.insert(record('theirs', { accountId: 'other', key: 'key-theirs' }));
    // Each session's `{}` and `[]`.
    expect(await sessions.storedSize('acc')).toEqual({ bytes: 8, players: 0 });
    // UTF-8 bytes, not characters: é is two.
    await sessions.join('key-live', ['a', 'é'.repeat(128)], 1);
    await sessions.join('key-ended', ['b'.repeat(128)], 1);
    await sessions.join('key-theirs', ['c'], 1);
    expect(await sessions.storedSize('acc')).toEqual({ bytes: 8 + 1 + 256 + 128, players: 3 });
    expect(await sessions.storedSize('other')).toEqual({ bytes: 4 + 1, players: 1 });
    // Ended, its players still count (they are listed with it); purged, they no longer do, and
    // the purge says what it freed per account.
    await sessions.update('key-ended', { status: 'exited', ended: 50, exitCode: 0, endReason: 'stopped' });
    expect(await sessions.storedSize('acc')).toEqual({ bytes: 8 + 1 + 256 + 128, players: 3 });
    expect(await sessions.purgeEnded(51)).toEqual({ sessions: 1, freed: new Map([['acc', { bytes: 4 + 128, players: 1 }]]) });
    expect(await sessions.storedSize('acc')).toEqual({ bytes: 4 + 1 + 256, players: 2 });
    await sessions.leave('key-live', ['a']);
    expect(await sessions.storedSize('acc')).toEqual({ bytes: 4 + 256, players: 1 });
    expect(await sessions.storedSize('nobody')).toEqual({ bytes: 0, players: 0 });
  });

  it('keeps ids per account: the same id in two accounts is two sessions, found by owner or everywhere', async () => {
    const store = await freshStore(kind);
    await store.accounts.insert(account('acc'));
    await store.accounts.insert(account('other'));
    await store.sessions.insert(session('same'));
    await store.sessions.insert(session('same', { accountId: 'other', key: 'key-other-same', ports: [] }));
    expect((await store.sessions.findOwned('other', 'same'))?.key).toBe('key-other-same');
    expect((await store.sessions.findEverywhere('same')).map((s) => s.accountId)).toEqual(['acc', 'other']);
    expect(await store.sessions.exists('other', 'same')).toBe(true);
    await expect(store.sessions.insert(session('same', { key: 'key-again', ports: [] }))).rejects.toThrow();
  });

  it('lists sessions newest first with filters and cursor pages, live or all', async () => {
    const store = await freshStore(kind);
    await store.accounts.insert(account('acc'));
    const { sessions } = store;
    await sessions.insert(session('a', { created: 1, labels: { mode: 'ctf' } }));
    await sessions.insert(session('b', { created: 2, labels: { mode: 'dm' }, image: 'other', ports: [] }));
    await sessions.insert(session('c', { created: 2, labels: { mode: 'ctf', map: 'x' }, ports: [] }));
    await sessions.insert(session('d', { created: 3, ports: [] }));
    await sessions.update('key-d', { status: 'dead', ended: 4, endReason: 'crashed' });
    await sessions.join('key-c', ['p1', 'p2'], 5);
    const ids = async (filter: object) => (await sessions.list({ ...listLive, ...filter })).map((s) => s.id);
    expect(await ids({})).toEqual(['c', 'b', 'a']);
    expect(await ids({ all: true })).toEqual(['d', 'c', 'b', 'a']);
    expect(await ids({ labels: { mode: 'ctf' } })).toEqual(['c', 'a']);
    expect(await ids({ notLabels: { mode: 'ctf' } })).toEqual(['b']);
    expect(await ids({ image: 'other' })).toEqual(['b']);
    expect(await ids({ playersMoreThan: 1 })).toEqual(['c']);
    expect(await ids({ playersLessThan: 1, all: true })).toEqual(['d', 'b', 'a']);
    expect(await ids({ limit: 2 })).toEqual(['c', 'b']);
    expect(await ids({ limit: 2, after: { created: 2, id: 'b' } })).toEqual(['a']);
    expect(await ids({ all: true, status: 'dead' })).toEqual(['d']);
    expect(await ids({ accountId: 'someone-else' })).toEqual([]);
    // Scan windows (a retained list examines a window of the account's sessions at a time): the
    // position `count` sessions on, on the index alone, and a list bounded by it (included).
    expect(await sessions.positionAfter('acc', undefined, 1)).toEqual({ created: 3, id: 'd', accountId: 'acc' });
    expect(await sessions.positionAfter('acc', undefined, 2)).toEqual({ created: 2, id: 'c', accountId: 'acc' });
    expect(await sessions.positionAfter('acc', { created: 2, id: 'c', accountId: 'acc' }, 2)).toEqual({ created: 1, id: 'a', accountId: 'acc' });
    expect(await sessions.positionAfter('acc', { created: 2, id: 'c', accountId: 'acc' }, 3)).toBeUndefined();
    expect(await sessions.positionAfter('someone-else', undefined, 1)).toBeUndefined();
    expect(await ids({ all: true, until: { created: 2, id: 'c', accountId: 'acc' } })).toEqual(['d', 'c']);
    expect(await ids({ all: true, labels: { mode: 'ctf' }, after: { created: 3, id: 'd', accountId: 'acc' }, until: { created: 2, id: 'b', accountId: 'acc' } })).toEqual(['c']);
  });

  it('keeps the event log in order, replays after an id, and prunes all but what subscriptions still need', async () => {
    const store = await freshStore(kind);
    await store.accounts.insert(account('acc'));
    const { sessions } = store;
    expect(await sessions.latestEventId()).toBe(0);
    expect(await sessions.oldestEventId()).toBeUndefined();
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push(await sessions.appendEvent(session('s', { status: 'running' }), 'created', 100 + i));
    ids.push(await sessions.appendEvent({ ...session('t'), accountId: 'other' }, null, 200));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    // Never pruned: replayable from the start.
    expect(await sessions.oldestEventId()).toBeLessThanOrEqual(1);
    const replay = await sessions.eventsAfter('acc', ids[1]!, 2);
    expect(replay.map((e) => e.id)).toEqual([ids[2], ids[3]]);
    expect(replay[0]).toMatchObject({ status: 'running', previous: 'created', at: 102, session: { id: 's', status: 'running' } });
    expect(await sessions.latestEventId()).toBe(ids[5]);
    // Keep the newest 1, but nothing of acc's after its floor (ids[2]).
    await sessions.pruneEvents({ count: 1, sinceMs: 0, floors: new Map([['acc', ids[2]!]]) });
    expect((await sessions.eventsAfter('acc', 0, 10)).map((e) => e.id)).toEqual([ids[3], ids[4]]);
    // The window starts after the last pruned (ids[2]), at or before the first kept.
    expect(await sessions.oldestEventId()).toBeGreaterThan(ids[2]!);
    expect(await sessions.oldestEventId()).toBeLessThanOrEqual(ids[3]!);
    expect(await sessions.latestEventId()).toBe(ids[5]);
  });

  it('prunes past a size in bytes of the events’ copies of their sessions, and holds an account’s up to its own bytes', async () => {
    const store = await freshStore(kind);
    await store.accounts.insert(account('acc'));
    const { sessions } = store;
    // Events of one size each: a session with 10 KB of labels.
    const big = session('s', { status: 'running', labels: { blob: 'x'.repeat(10_000) } });
    const size = Buffer.byteLength(JSON.stringify(big));
    const ids: number[] = [];
    for (let i = 0; i < 8; i++) ids.push(await sessions.appendEvent(big, 'created', 100 + i));
    // A subscription of acc's at 0 may hold its newest 5 events' bytes: ids[3] on.
    const holdable = await sessions.oldestHoldable({ count: 100, bytes: 5 * size });
    expect(holdable.get('acc')).toBe(ids[3]);
    const floors = new Map([['acc', Math.max(0, holdable.get('acc')! - 1)]]);
    // Within the count and the age: only the newest 3 fit in 3.5 events' bytes, but the hold keeps 5.
    await sessions.pruneEvents({ count: 100, sinceMs: 0, bytes: Math.floor(3.5 * size), floors });
    expect((await sessions.eventsAfter('acc', 0, 10)).map((e) => e.id)).toEqual(ids.slice(3));
    expect(await sessions.oldestEventId()).toBeGreaterThan(ids[2]!);
    // Without a hold, exactly 3 events' bytes keep 3.
    await sessions.pruneEvents({ count: 100, sinceMs: 0, bytes: 3 * size });
    expect((await sessions.eventsAfter('acc', 0, 10)).map((e) => e.id)).toEqual(ids.slice(5));
    // An account whose newest event alone passes the bytes holds nothing.
    expect((await sessions.oldestHoldable({ count: 100, bytes: size - 1 })).get('acc')).toBe(ids[7]! + 1);
  });

  it('rolls a transaction back whole, including what other repositories wrote inside it', async () => {
    const store = await freshStore(kind);
    await store.accounts.insert(account('acc'));
    await expect(
      store.sessions.transaction(async () => {
        await store.sessions.insert(session('gone'));
        await store.accounts.addUsedSeconds('acc', 60);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await store.sessions.find('key-gone')).toBeUndefined();
    expect(await store.sessions.list(listLive)).toEqual([]);
    expect((await store.accounts.findById('acc'))?.usedSeconds).toBe(0);
    const committed = await store.sessions.transaction(async () => {
      await store.sessions.insert(session('kept'));
      await store.accounts.addUsedSeconds('acc', 60);
      return 'done';
    });
    expect(committed).toBe('done');
    expect((await store.sessions.find('key-kept'))?.id).toBe('kept');
    expect((await store.accounts.findById('acc'))?.usedSeconds).toBe(60);
  });

  it('calls a transaction back once it has committed, with its result and before it resolves; never one rolled back or nested', async () => {
    const store = await freshStore(kind);
    await store.accounts.insert(account('acc'));
    const calls: string[] = [];
    await expect(
      store.sessions.transaction(
        async () => {
          await store.sessions.insert(session('gone'));
          throw new Error('changed my mind');
        },
        () => calls.push('rolled back'),
      ),
    ).rejects.toThrow('changed my mind');
    const done = await store.sessions.transaction(
      async () => {
        await store.sessions.insert(session('kept'));
        // Nested: only the outermost transaction commits.
        await expect(store.sessions.transaction(async () => 'inner', () => calls.push('nested'))).rejects.toThrow();
        calls.push('body');
        return 'result';
      },
      (result) => calls.push(`committed ${result}`),
    );
    calls.push(`resolved ${done}`);
    expect(calls).toEqual(['body', 'committed result', 'resolved result']);
  });

  it('keeps grants, node locks, image tags, operators and their panel sessions, the audit log, subscriptions and deliveries', async () => {
    const store = await freshStore(kind);
    await store.accounts.insert(account('acc'));
    await store.grants.replace('acc', 'location', ['b', 'a']);
    await store.grants.replace('acc', 'image', ['img']);
    await store.grants.replace('acc', 'location', ['c']);
    expect(await store.grants.list('acc')).toEqual({ locations: ['c'], images: ['img'] });
    expect(await store.grants.granted('acc', 'image', 'img')).toBe(true);
    expect(await store.nodeLocks.lockOf('n1')).toBeUndefined();
    await store.nodeLocks.set('n1', true, 1);
    await store.nodeLocks.set('n1', false, 2);
    expect(await store.nodeLocks.lockOf('n1')).toBe(false);
    await store.nodeLocks.setDrain('n1', true, 3);
    expect([await store.nodeLocks.drainOf('n1'), await store.nodeLocks.drainOf('n2')]).toEqual([true, false]);
    await store.nodeLocks.setDrain('n1', false, 4);
    expect(await store.nodeLocks.drainOf('n1')).toBe(false);
    await store.imageTags.register('acc', 'echo', 'pushed', 3, 2);
    await store.imageTags.register('acc', 'echo', 'pushed', 4, 2);
    expect(await store.imageTags.all()).toEqual([{ accountId: 'acc', image: 'echo', tag: 'pushed', registered: 3 }]);
    expect(await store.imageTags.has('acc', 'echo', 'pushed')).toBe(true);
    // Past `keep` tags of an image, the oldest go; other images are not touched.
    await store.imageTags.register('acc', 'doom', 'd1', 4, 2);
    await store.imageTags.register('acc', 'echo', 'second', 5, 2);
    await store.imageTags.register('acc', 'echo', 'third', 6, 2);
    expect((await store.imageTags.all()).map((row) => `${row.image}:${row.tag}`)).toEqual(['doom:d1', 'echo:second', 'echo:third']);

    await store.operators.insert({ id: 'op', email: 'ops@example.com', passwordHash: 'h1', created: 1 });
    await store.operators.insertSession(Buffer.from('cookie'), { operatorId: 'op', csrf: 'x', created: 1, expires: 100 });
    expect(await store.operators.findSession(Buffer.from('cookie'))).toEqual({ operatorId: 'op', email: 'ops@example.com', csrf: 'x', expires: 100 });
    expect(await store.operators.findSessionByCsrf('x')).toEqual({ idHash: Buffer.from('cookie'), operatorId: 'op', email: 'ops@example.com', csrf: 'x', expires: 100 });
    expect(await store.operators.findSessionByCsrf('y')).toBeUndefined();
    await store.operators.setPasswordHash('op', 'h2');
    expect(await store.operators.findSession(Buffer.from('cookie'))).toBeUndefined();
    expect((await store.operators.findByEmail('ops@example.com'))?.passwordHash).toBe('h2');
    await store.audit.record({ accountId: 'acc', at: 1, actor: 'ops@example.com', action: 'user_created', tokenId: null, details: 'd' }, 10);
    expect(await store.audit.list('acc', 10)).toMatchObject([{ action: 'user_created', tokenId: null }]);

    const sub = { id: 'sub', accountId: 'acc', url: 'http://127.0.0.1/hook', created: 1, cursor: 0, attempt: 1, due: 0 };
    expect(await store.subscriptions.insert(sub, Buffer.from('sealed'), { max: 25, keepDeleted: 25 })).toBe('inserted');
    expect(await store.subscriptions.activeForAccount('acc')).toEqual([{ ...sub, sealed: Buffer.from('sealed') }]);
    await store.subscriptions.recordDelivery('sub', { eventId: 7, attempt: 1, at: 5, ok: false, statusCode: 500, error: null }, 1_000);
    await store.subscriptions.retryLater('sub', { cursor: 0, attempt: 2, due: 60 });
    expect(await store.subscriptions.find('acc', 'sub')).toEqual({ ...sub, attempt: 2, due: 60 });
    await store.subscriptions.advance('sub', 7, 70);
    expect(await store.subscriptions.find('acc', 'sub')).toEqual({ ...sub, cursor: 7, attempt: 1, due: 70 });
    // A retry by an instance that read the cursor before another delivered that event does not land.
    await store.subscriptions.retryLater('sub', { cursor: 0, attempt: 3, due: 900 });
    expect(await store.subscriptions.find('acc', 'sub')).toEqual({ ...sub, cursor: 7, attempt: 1, due: 70 });
    // A late finish by an instance that lost the account's lease never moves the cursor back.
    await store.subscriptions.advance('sub', 5, 90);
    expect(await store.subscriptions.find('acc', 'sub')).toEqual({ ...sub, cursor: 7, attempt: 1, due: 70 });
    expect(await store.subscriptions.deliveries('sub', 5)).toMatchObject([{ eventId: 7, ok: false, statusCode: 500 }]);
    expect(await store.subscriptions.lowestCursors()).toEqual(new Map([['acc', 7]]));
    await store.subscriptions.delete('sub', 80);
    expect(await store.subscriptions.accountsWithSubscriptions()).toEqual([]);
  });
  it("keeps an account's newest audit entries only, and leaves other accounts' alone", async () => {
    const store = await freshStore(kind);
    await store.accounts.insert(account('acc'));
    await store.accounts.insert(account('other'));
    const entry = (accountId: string, at: number) => ({ accountId, at, actor: 'API token t', action: 'token_created' as const, tokenId: `t${at}`, details: 'd' });
    await store.audit.record(entry('other', 0), 3);
    for (let at = 1; at <= 7; at++) await store.audit.record(entry('acc', at), 3);
    expect((await store.audit.list('acc', 10)).map((e) => e.at)).toEqual([7, 6, 5]);
    expect((await store.audit.list('other', 10)).map((e) => e.at)).toEqual([0]);
  });

  it("holds an account's subscriptions to the cap in the insert itself, and forgets deleted ones past those kept", async () => {
    const store = await freshStore(kind);
    await store.accounts.insert(account('acc'));
    const cap = { max: 2, keepDeleted: 2 };
    const sub = (id: string, url = `http://127.0.0.1/${id}`) => ({ id, accountId: 'acc', url, created: 1, cursor: 0, attempt: 1, due: 0 });
    // Racing inserts: exactly the cap.
    const raced = await Promise.all(['r1', 'r2', 'r3', 'r4', 'r5'].map((id) => store.subscriptions.insert(sub(id), Buffer.from('s'), cap)));
    expect(raced.filter((r) => r === 'inserted')).toHaveLength(2);
    expect(raced.filter((r) => r === 'full')).toHaveLength(3);
    // One subscription per url, as exactly (a cap that leaves room): a held url is refused, and of racing inserts of a new one, one lands.
    const held = (await store.subscriptions.listForAccount('acc'))[0]!.url;
    const same = await Promise.all(['s1', 's2', 's3'].map((id) => store.subscriptions.insert(sub(id, held), Buffer.from('s'), { max: 25, keepDeleted: 25 })));
    expect(same).toEqual(['duplicate', 'duplicate', 'duplicate']);
    const fresh = await Promise.all(['t1', 't2', 't3'].map((id) => store.subscriptions.insert(sub(id, 'http://127.0.0.1/t'), Buffer.from('s'), { max: 25, keepDeleted: 25 })));
    expect(fresh.filter((r) => r === 'inserted')).toHaveLength(1);
    expect(fresh.filter((r) => r === 'duplicate')).toHaveLength(2);
    for (const { id } of await store.subscriptions.listForAccount('acc')) await store.subscriptions.delete(id, 2);
    // A create and delete loop: each deleted one keeps its delivery log until two newer ones are deleted.
    for (let turn = 1; turn <= 6; turn++) {
      expect(await store.subscriptions.insert(sub(`loop${turn}`, 'http://127.0.0.1/loop'), Buffer.from('s'), cap)).toBe('inserted');
      await store.subscriptions.recordDelivery(`loop${turn}`, { eventId: turn, attempt: 1, at: 100 + turn, ok: true, statusCode: 200, error: null }, 1_000);
      await store.subscriptions.delete(`loop${turn}`, 10 + turn);
    }
    const logs = async () => Promise.all([1, 2, 3, 4, 5, 6].map(async (turn) => (await store.subscriptions.deliveries(`loop${turn}`, 5)).length));
    // loop6's insert kept loop4 and loop5 (deleted, newest); loop6 was deleted after.
    expect(await logs()).toEqual([0, 0, 0, 1, 1, 1]);
    // A delivery finishing after its subscription was purged records nothing (and does not fail).
    await store.subscriptions.recordDelivery('loop1', { eventId: 9, attempt: 1, at: 200, ok: true, statusCode: 200, error: null }, 1_000);
    expect(await logs()).toEqual([0, 0, 0, 1, 1, 1]);
    // The retention purge takes the ones deleted before it, with their logs, however recent those logs.
    await store.subscriptions.pruneDeliveries(16);
    expect(await logs()).toEqual([0, 0, 0, 0, 0, 1]);
    await store.subscriptions.recordDelivery('loop4', { eventId: 9, attempt: 1, at: 300, ok: true, statusCode: 200, error: null }, 1_000);
    expect(await logs()).toEqual([0, 0, 0, 0, 0, 1]);
  });

  it("keeps a subscription's newest delivery records only, and leaves other subscriptions' alone", async () => {
    const store = await freshStore(kind);
    await store.accounts.insert(account('acc'));
    const sub = (id: string) => ({ id, accountId: 'acc', url: `http://127.0.0.1/${id}`, created: 1, cursor: 0, attempt: 1, due: 0 });
    for (const id of ['busy', 'quiet']) expect(await store.subscriptions.insert(sub(id), Buffer.from('s'), { max: 25, keepDeleted: 25 })).toBe('inserted');
    const attempt = (eventId: number) => ({ eventId, attempt: 1, at: 100 + eventId, ok: true, statusCode: 204, error: null });
    await store.subscriptions.recordDelivery('quiet', attempt(0), 3);
    for (let eventId = 1; eventId <= 7; eventId++) await store.subscriptions.recordDelivery('busy', attempt(eventId), 3);
    expect((await store.subscriptions.deliveries('busy', 10)).map((d) => d.eventId)).toEqual([7, 6, 5]);
    expect((await store.subscriptions.deliveries('quiet', 10)).map((d) => d.eventId)).toEqual([0]);
    // The age prune still applies below the count.
    await store.subscriptions.pruneDeliveries(106);
    expect((await store.subscriptions.deliveries('busy', 10)).map((d) => d.eventId)).toEqual([7, 6]);
    expect(await store.subscriptions.deliveries('quiet', 10)).toEqual([]);
  });
});
