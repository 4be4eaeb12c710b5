/**
 * Retention: sessions that ended before the retention window are forgotten, with their ports
 * and players; live ones and recently ended ones stay.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSessionRepository } from '../../server/store/session-repository.js';
import { openDatabase } from '../../server/store/sqlite.js';

describe('session retention', () => {
  it('purges ended sessions older than the cutoff, and only those', () => {
    const dir = mkdtempSync(join(tmpdir(), 'retention-'));
    const db = openDatabase(join(dir, 'service.db'));
    try {
      db.pragma('foreign_keys = OFF');
      const session = db.prepare(
        `INSERT INTO sessions (id, account_id, key, image, tag, location, node_id, host, created, status, labels, args, restart, ended)
         VALUES (?, ?, ?, 'echo', 'latest', 'local-a', 'n1', '127.0.0.1', 0, ?, '{"team":"a"}', '[]', 0, ?)`,
      );
      session.run('live', 'acc', 'k-live', 'running', null);
      session.run('old', 'acc', 'k-old', 'exited', 1_000);
      session.run('recent', 'acc', 'k-recent', 'exited', 9_000);
      // Another account's session with the same id as the purged one, ended recently: kept, with its ports and players.
      session.run('old', 'other', 'k-other-old', 'exited', 9_000);
      let port = 20000;
      for (const [account, id] of [['acc', 'live'], ['acc', 'old'], ['acc', 'recent'], ['other', 'old']]) {
        db.prepare("INSERT INTO session_ports (account_id, session_id, node_id, name, type, container, port, live) VALUES (?, ?, 'n1', 'game', 'tcp', 7777, ?, 0)").run(account, id, port++);
        db.prepare("INSERT INTO session_players (account_id, session_id, player, joined) VALUES (?, ?, 'p1', 0)").run(account, id);
      }
      const repository = createSessionRepository(db);
      expect(repository.purgeEnded(5_000).sessions).toBe(1);
      const left = (table: string, column: string) =>
        db.prepare(`SELECT account_id || '/' || ${column} FROM ${table} ORDER BY 1`).pluck().all();
      const kept = ['acc/live', 'acc/recent', 'other/old'];
      expect(left('sessions', 'id')).toEqual(kept);
      expect(left('session_ports', 'session_id')).toEqual(kept);
      expect(left('session_players', 'session_id')).toEqual(kept);
      expect(repository.find('k-old')).toBeUndefined();
      expect(repository.findOwned('acc', 'old')).toBeUndefined();
      expect(repository.findOwned('other', 'old')).toMatchObject({ accountId: 'other', players: ['p1'] });
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
