/**
 * Event pruning keeps the replay window per account: an account's undelivered events are held
 * back for its own subscriptions only, so one idle subscription cannot pin everyone's log.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cappedFloors } from '../../server/events/event-hold.js';
import { createSessionRepository } from '../../server/store/session-repository.js';
import { openDatabase, type Db } from '../../server/store/sqlite.js';

/** Runs `test` on a fresh database in a temporary directory, closed and removed after it whether it passed or not. */
async function withEventLog(test: (db: Db) => void | Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'pruning-'));
  const db = openDatabase(join(dir, 'service.db'));
  try {
    await test(db);
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('event pruning', () => {
  it("holds back only the account's own undelivered events", () =>
    withEventLog((db) => {
      const insert = db.prepare("INSERT INTO session_events (account_id, session_id, status, at, session) VALUES (?, 's', 'running', ?, '{}')");
      // 200 events, alternating between two accounts: ids 1..200, odd ones the idle account's.
      for (let i = 1; i <= 200; i++) insert.run(i % 2 === 1 ? 'acc_idle' : 'acc_busy', i);
      const repository = createSessionRepository(db);
      // acc_idle has a subscription stuck at event 1; acc_busy has none.
      repository.pruneEvents({ count: 20, sinceMs: 0, floors: new Map([['acc_idle', 1]]) });
      const left = db.prepare('SELECT account_id, count(*) AS n, min(id) AS oldest FROM session_events GROUP BY account_id ORDER BY account_id').all();
      expect(left).toEqual([
        // The busy account's log is back to the window (ids 182..200, its even ones)...
        { account_id: 'acc_busy', n: 10, oldest: 182 },
        // ...while the idle account keeps what its subscription has yet to receive (after id 1).
        { account_id: 'acc_idle', n: 99, oldest: 3 },
      ]);
    }));

  it('caps what a stuck subscription holds back: past the cap its account is pruned like any other', () =>
    withEventLog(async (db) => {
      const insert = db.prepare("INSERT INTO session_events (account_id, session_id, status, at, session) VALUES (?, 's', 'running', ?, '{}')");
      for (let i = 1; i <= 200; i++) insert.run('acc_stuck', i);
      const repository = createSessionRepository(db);
      // Stuck at event 1, holding at most 50 events behind the latest (200).
      const held = { count: 50, bytes: Number.MAX_SAFE_INTEGER };
      const floors = cappedFloors(new Map([['acc_stuck', 1]]), repository.oldestHoldable(held));
      expect(floors).toEqual(new Map([['acc_stuck', 150]]));
      await repository.pruneEvents({ count: 20, sinceMs: 0, floors });
      expect(db.prepare('SELECT count(*) AS n, min(id) AS oldest FROM session_events').get()).toEqual({ n: 50, oldest: 151 });
      // A floor within the cap is kept as it is.
      expect(cappedFloors(new Map([['acc_stuck', 180]]), repository.oldestHoldable(held))).toEqual(new Map([['acc_stuck', 180]]));
    }));

  it("counts what a subscription holds in its account's own events: other accounts' traffic does not push them out", () =>
    withEventLog(async (db) => {
      const insert = db.prepare("INSERT INTO session_events (account_id, session_id, status, at, session) VALUES (?, 's', 'running', ?, '{}')");
      // acc_b's 10 events (its receiver is down, its cursor at 0), then 500 of acc_a's and acc_c's.
      for (let i = 1; i <= 10; i++) insert.run('acc_b', i);
      for (let i = 11; i <= 510; i++) insert.run(i % 2 ? 'acc_a' : 'acc_c', i);
      const repository = createSessionRepository(db);
      // Holding 50 of its own: all 10 are kept, though the service's latest is 500 ahead.
      const floors = cappedFloors(new Map([['acc_b', 0]]), repository.oldestHoldable({ count: 50, bytes: Number.MAX_SAFE_INTEGER }));
      await repository.pruneEvents({ count: 20, sinceMs: 0, floors });
      expect(db.prepare("SELECT count(*) AS n FROM session_events WHERE account_id = 'acc_b'").get()).toEqual({ n: 10 });
      // A reader of acc_c resuming from before its pruned events is not in the window: the window
      // starts after the highest id pruned, not at acc_b's held ones below it.
      expect(await repository.oldestEventId()).toBe(491);
    }));

  it("holds an account's events up to its own bytes, which other accounts' large events do not push out", () =>
    withEventLog((db) => {
      const insert = db.prepare("INSERT INTO session_events (account_id, session_id, status, at, session, bytes) VALUES (?, 's', 'running', ?, '{}', ?)");
      // acc_b: 10 events of 100 bytes, undelivered; then acc_a: 10 of 1,000 bytes.
      for (let i = 1; i <= 10; i++) insert.run('acc_b', i, 100);
      for (let i = 11; i <= 20; i++) insert.run('acc_a', i, 1000);
      const repository = createSessionRepository(db);
      // The service keeps 2,500 bytes; acc_b's subscription holds up to 500 of its own (its newest 5).
      const floors = cappedFloors(new Map([['acc_b', 0]]), repository.oldestHoldable({ count: 100, bytes: 500 }));
      expect(floors).toEqual(new Map([['acc_b', 5]]));
      repository.pruneEvents({ count: 100, sinceMs: 0, bytes: 2500, floors });
      const left = db.prepare('SELECT account_id, count(*) AS n, min(id) AS oldest FROM session_events GROUP BY account_id ORDER BY account_id').all();
      expect(left).toEqual([
        { account_id: 'acc_a', n: 2, oldest: 19 },
        { account_id: 'acc_b', n: 5, oldest: 6 },
      ]);
    }));
});
