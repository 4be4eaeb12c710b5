import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SessionRecord } from '../../server/domain/ports/sessions.js';
import { createAccountRepository } from '../../server/store/account-repository.js';
import { createSessionRepository } from '../../server/store/session-repository.js';
import { openDatabase } from '../../server/store/sqlite.js';
import { LiveSessions } from '../../server/store/live-sessions.js';

const session = fc.record({
  n: fc.nat(40),
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
});

describe('the live-session read model', () => {
  it('lists exactly what the SQL listing lists, for any sessions and filter', () => {
    fc.assert(
      fc.property(fc.uniqueArray(session, { selector: (s) => s.n, maxLength: 25 }), filter, (sessions, f) => {
        const db = openDatabase(':memory:');
        createAccountRepository(db).insert({ id: 'acc', name: 'A', email: null, quotaMinutes: 1, usedSeconds: 0, operator: false, disabled: false, created: 0 });
        const repository = createSessionRepository(db);
        for (const s of sessions) {
          const id = `s${s.n}`;
          repository.insert({
            id, accountId: 'acc', image: 'echo', tag: 'latest', location: s.location, nodeId: s.location, host: 'h', created: s.created,
            ports: [], status: 'created', labels: s.labels, args: [], restart: false, expires: null, pendingEndReason: null,
            ended: null, exitCode: null, endReason: null, runningSince: null, players: [],
          });
          if (s.status !== 'created') repository.update(id, { status: s.status });
          if (s.players.length) repository.join(id, s.players, 0);
        }
        const sorted = [...sessions].sort((a, b) => a.created - b.created || (`s${a.n}` < `s${b.n}` ? -1 : 1));
        const cursor = f.afterIndex === undefined || sorted.length === 0 ? undefined : sorted[f.afterIndex % sorted.length]!;
        const base = {
          accountId: 'acc', labels: f.labels, notLabels: f.notLabels,
          ...(f.location ? { location: f.location } : {}), ...(f.status ? { status: f.status } : {}),
          ...(f.playersLessThan === undefined ? {} : { playersLessThan: f.playersLessThan }),
          ...(f.playersMoreThan === undefined ? {} : { playersMoreThan: f.playersMoreThan }),
          ...(f.limit === undefined ? {} : { limit: f.limit }),
          ...(cursor ? { after: { created: cursor.created, id: `s${cursor.n}` } } : {}),
        };
        // Only live sessions exist, so the SQL listing (all: true) and the read model (all: false) must agree.
        const inMemory = repository.list({ ...base, all: false }).map((s) => s.id);
        const inSql = repository.list({ ...base, all: true }).map((s) => s.id);
        db.close();
        expect(inMemory).toEqual(inSql);
      }),
      { numRuns: 300 },
    );
  });
});

const record = (n: number, accountId: string, labels: Record<string, string>): SessionRecord => ({
  id: `s${n}`, accountId, image: 'echo', tag: 'latest', location: 'a', nodeId: 'a', host: 'h', created: n % 7,
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
            live.delete(r.id);
            truth.delete(r.id);
          } else {
            live.put(r);
            truth.set(r.id, r);
          }
        }
        const expected = [...truth.values()]
          .filter((s) => (q.accountId === undefined || s.accountId === q.accountId) && Object.entries(q.labels).every(([k, v]) => s.labels[k] === v))
          .sort((a, b) => b.created - a.created || (a.id < b.id ? 1 : -1))
          .slice(0, q.limit ?? Infinity)
          .map((s) => s.id);
        const found = live.list({ all: false, notLabels: {}, ...q }).map((s) => s.id);
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
