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
        `INSERT INTO sessions (id, account_id, image, tag, location, node_id, host, created, status, labels, args, restart, ended)
         VALUES (?, 'acc', 'echo', 'latest', 'local-a', 'n1', '127.0.0.1', 0, ?, '{"team":"a"}', '[]', 0, ?)`,
      );
      session.run('live', 'running', null);
      session.run('old', 'exited', 1_000);
      session.run('recent', 'exited', 9_000);
      for (const id of ['live', 'old', 'recent']) {
        db.prepare("INSERT INTO session_ports (session_id, node_id, name, type, container, port, live) VALUES (?, 'n1', 'game', 'tcp', 7777, ?, 0)").run(id, id.length + 20000);
        db.prepare("INSERT INTO session_players (session_id, player, joined) VALUES (?, 'p1', 0)").run(id);
      }
      const repository = createSessionRepository(db);
      expect(repository.purgeEnded(5_000)).toBe(1);
      const left = (table: string, column: string) => db.prepare(`SELECT ${column} FROM ${table} ORDER BY 1`).pluck().all();
      expect(left('sessions', 'id')).toEqual(['live', 'recent']);
      expect(left('session_ports', 'session_id')).toEqual(['live', 'recent']);
      expect(left('session_players', 'session_id')).toEqual(['live', 'recent']);
      expect(repository.find('old')).toBeUndefined();
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
