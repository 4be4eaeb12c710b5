import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SessionRecord } from '../../server/domain/ports/sessions.js';
import { createAccountRepository } from '../../server/store/account-repository.js';
import { createSessionRepository } from '../../server/store/session-repository.js';
import { openDatabase } from '../../server/store/sqlite.js';
import { LiveSessions } from '../../server/store/live-sessions.js';

const session = fc.record({
  n: fc.nat(40),
  // Ids are unique per account only: the same id in both accounts, often at the same instant.
  account: fc.constantFrom('acc', 'acc2'),
  created: fc.integer({ min: 1, max: 20 }),
  location: fc.constantFrom('a', 'b'),
  status: fc.constantFrom('created', 'running') as fc.Arbitrary<SessionRecord['status']>,
  labels: fc.dictionary(fc.constantFrom('mode', 'map'), fc.constantFrom('x', 'y'), { maxKeys: 2 }),
  players: fc.uniqueArray(fc.constantFrom('p1', 'p2', 'p3'), { maxLength: 3 }),
});
const filter = fc.record({
  location: fc.option(fc.constantFrom('a', 'b'), { nil: undefined }),
  status: fc.option(fc.constantFrom('created', 'running') as fc.Arbitrary<SessionRecord['status']>, { nil: undefined }),
  labels: fc.dictionary(fc.constantFrom('mode', 'map'), fc.constantFrom('x', 'y'), { maxKeys: 1 }),
  notLabels: fc.dictionary(fc.constantFrom('mode', 'map'), fc.constantFrom('x', 'y'), { maxKeys: 1 }),
  playersLessThan: fc.option(fc.nat(4), { nil: undefined }),
  playersMoreThan: fc.option(fc.nat(3), { nil: undefined }),
  limit: fc.option(fc.integer({ min: 1, max: 10 }), { nil: undefined }),
  afterIndex: fc.option(fc.nat(40), { nil: undefined }),
  /** Undefined: every account (the admin listing). */
  account: fc.constantFrom('acc', 'acc2', undefined),
});

describe('the live-session read model', () => {
  it('lists exactly what the SQL listing lists, for any sessions and filter', () => {
    fc.assert(
      fc.property(fc.uniqueArray(session, { selector: (s) => `${s.account}/${s.n}`, maxLength: 25 }), filter, (sessions, f) => {
        const db = openDatabase(':memory:');
        const accounts = createAccountRepository(db);
        for (const id of ['acc', 'acc2']) {
          accounts.insert({ id, name: id, email: null, quotaMinutes: 1, usedSeconds: 0, operator: false, disabled: false, created: 0 });
        }
        const repository = createSessionRepository(db);
        for (const s of sessions) {
          const key = `${s.account}-s${s.n}`;
          repository.insert({
            id: `s${s.n}`, accountId: s.account, key, image: 'echo', tag: 'latest', location: s.location, nodeId: s.location, host: 'h',
            created: s.created, ports: [], status: 'created', labels: s.labels, args: [], restart: false, expires: null,
            pendingEndReason: null, ended: null, exitCode: null, endReason: null, runningSince: null, players: [],
          });
          if (s.status !== 'created') repository.update(key, { status: s.status });
          if (s.players.length) repository.join(key, s.players, 0);
        }
        const order = (s: (typeof sessions)[number]) => [s.created, `s${s.n}`, s.account] as const;
        const sorted = [...sessions].sort((a, b) => {
          const [x, y] = [order(a), order(b)];
          return x[0] - y[0] || (x[1] < y[1] ? -1 : x[1] > y[1] ? 1 : x[2] < y[2] ? -1 : 1);
        });
        const cursor = f.afterIndex === undefined || sorted.length === 0 ? undefined : sorted[f.afterIndex % sorted.length]!;
        const base = {
          accountId: f.account, labels: f.labels, notLabels: f.notLabels,
          ...(f.location ? { location: f.location } : {}), ...(f.status ? { status: f.status } : {}),
          ...(f.playersLessThan === undefined ? {} : { playersLessThan: f.playersLessThan }),
          ...(f.playersMoreThan === undefined ? {} : { playersMoreThan: f.playersMoreThan }),
          ...(f.limit === undefined ? {} : { limit: f.limit }),
          ...(cursor ? { after: { created: cursor.created, id: `s${cursor.n}`, accountId: cursor.account } } : {}),
        };
        // Only live sessions exist, so the SQL listing (all: true) and the read model (all: false) must agree.
        const inMemory = repository.list({ ...base, all: false }).map((s) => `${s.accountId}/${s.id}`);
        const inSql = repository.list({ ...base, all: true }).map((s) => `${s.accountId}/${s.id}`);
        db.close();
        expect(inMemory).toEqual(inSql);
      }),
      { numRuns: 300 },
    );
  });
});

const record = (n: number, accountId: string, labels: Record<string, string>): SessionRecord => ({
  // Ids are per account: both accounts may have `s${n}`, each its own session.
  id: `s${n}`, accountId, key: `${accountId}/s${n}`, image: 'echo', tag: 'latest', location: 'a', nodeId: 'a', host: 'h', created: n % 7,
  ports: [], status: 'created', labels, args: [], restart: false, expires: null, pendingEndReason: null,
  ended: null, exitCode: null, endReason: null, runningSince: null, players: [],
});

describe('the read model\'s index of accounts and labels', () => {
  it('lists what a walk of every live session finds, through inserts, label changes and deletes', () => {
    const op = fc.record({
      n: fc.nat(30),
      accountId: fc.constantFrom('acc1', 'acc2'),
      labels: fc.dictionary(fc.constantFrom('mode', 'map'), fc.constantFrom('x', 'y'), { maxKeys: 2 }),
      remove: fc.boolean(),
    });
    const query = fc.record({
      accountId: fc.option(fc.constantFrom('acc1', 'acc2'), { nil: undefined }),
      labels: fc.dictionary(fc.constantFrom('mode', 'map'), fc.constantFrom('x', 'y'), { maxKeys: 2 }),
      limit: fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }),
    });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), query, (ops, q) => {
        const live = new LiveSessions([]);
        const truth = new Map<string, SessionRecord>();
        for (const o of ops) {
          const r = record(o.n, o.accountId, o.labels);
          if (o.remove) {
            live.delete(r.key);
            truth.delete(r.key);
          } else {
            live.put(r);
            truth.set(r.key, r);
          }
        }
        const expected = [...truth.values()]
          .filter((s) => (q.accountId === undefined || s.accountId === q.accountId) && Object.entries(q.labels).every(([k, v]) => s.labels[k] === v))
          .sort((a, b) => b.created - a.created || (a.id !== b.id ? (a.id < b.id ? 1 : -1) : a.accountId < b.accountId ? 1 : -1))
          .slice(0, q.limit ?? Infinity)
          .map((s) => s.key);
        const found = live.list({ all: false, notLabels: {}, ...q }).map((s) => s.key);
        expect(found).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });

  it('walks only the sessions carrying a filtered label, however many others are live', () => {
    const live = new LiveSessions([]);
    for (let n = 0; n < 10_000; n++) live.put(record(n, 'acc1', { shard: `s${n % 100}` }));
    expect(live.candidates({ accountId: 'acc1', labels: { shard: 's7' } })).toHaveLength(100);
    expect(live.candidates({ accountId: 'acc1', labels: { shard: 'nowhere' } })).toHaveLength(0);
    // No selective filter: the account's list is the whole fleet here.
    expect(live.candidates({ accountId: 'acc1', labels: {} })).toHaveLength(10_000);
  });
});
