/**
 * The migration to per-account session ids carries existing data: every session, port and
 * player is kept, each session's key is its old (then global) id, which is what its supervisor
 * directory or container already carries, and afterwards another account may use that id.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrations } from '../../server/store/migrations.js';
import { createSessionRepository } from '../../server/store/session-repository.js';
import { openDatabase } from '../../server/store/sqlite.js';

const PER_ACCOUNT = migrations.find((m) => m.name === 'session ids unique per account')!.version;

describe('the migration to per-account session ids', () => {
  it('keeps sessions, ports and players, with the old id as the key', () => {
    const dir = mkdtempSync(join(tmpdir(), 'id-migration-'));
    const path = join(dir, 'service.db');
    try {
      // A data directory as the version before left it.
      const old = new Database(path);
      old.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied INTEGER NOT NULL)');
      for (const m of migrations.filter((m) => m.version < PER_ACCOUNT)) {
        old.exec(m.sql);
        old.prepare('INSERT INTO schema_migrations VALUES (?, ?, 0)').run(m.version, m.name);
      }
      for (const id of ['acc', 'other']) old.prepare("INSERT INTO accounts (id, name, quota_minutes, created) VALUES (?, ?, 10, 0)").run(id, id);
      old.prepare(
        `INSERT INTO sessions (id, account_id, image, tag, location, node_id, host, created, status, labels, args, restart)
         VALUES ('match-1', 'acc', 'echo', 'latest', 'local-a', 'n1', '127.0.0.1', 5, 'running', '{"mode":"x"}', '[]', 0)`,
      ).run();
      old.prepare("INSERT INTO session_ports (session_id, node_id, name, type, container, port) VALUES ('match-1', 'n1', 'game', 'udp', 7777, 20001)").run();
      old.prepare("INSERT INTO session_players (session_id, player, joined) VALUES ('match-1', 'p1', 6)").run();
      old.close();

      const db = openDatabase(path);
      const repository = createSessionRepository(db);
      expect(repository.find('match-1')).toMatchObject({
        id: 'match-1', accountId: 'acc', key: 'match-1', status: 'running', labels: { mode: 'x' }, players: ['p1'],
        ports: [{ name: 'game', type: 'udp', container: 7777, host: 20001 }],
      });
      expect(repository.exists('acc', 'match-1')).toBe(true);
      expect(repository.exists('other', 'match-1')).toBe(false);
      // The port stays held: another session cannot take it on that node.
      expect(() => db.prepare("INSERT INTO session_ports (account_id, session_id, node_id, name, type, container, port) VALUES ('acc', 'match-1', 'n1', 'x', 'udp', 1, 20001)").run()).toThrow(/UNIQUE/);
      expect(db.pragma('foreign_key_check')).toEqual([]);
      db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
