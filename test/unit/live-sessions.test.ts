import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SessionRecord } from '../../server/domain/session-record.js';
import { createAccountRepository } from '../../server/store/account-repository.js';
import { createSessionRepository } from '../../server/store/session-repository.js';
import { openDatabase } from '../../server/store/sqlite.js';

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
