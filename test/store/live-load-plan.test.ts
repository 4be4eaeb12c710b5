/**
 * The live read model's load (every live session, oldest first) reads an index over live sessions
 * in both stores: it runs at start-up and, in SQLite, after every rolled-back transaction, while
 * the sessions table also keeps every ended session for the retention window (7 days by default).
 * A plan that scans the table costs time in proportion to those (91 ms at 300k ended, against
 * 0.9 ms through the index).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LIVE_SESSIONS as PG_LIVE_SESSIONS } from '../../server/store/postgres/sessions.js';
import { openPostgresStore } from '../../server/store/postgres/store.js';
import { LIVE_SESSIONS } from '../../server/store/session-repository.js';
import { openDatabase } from '../../server/store/sqlite.js';
import { createSqliteStore } from '../../server/store/sqlite-store.js';
import type { Store } from '../../server/store/store.js';
import { useDatabase } from '../support/use-database.js';
import { account, session } from '../support/store-records.js';

/** Copies of session `model`, ended, as many as `count`, in one statement (columns as the table has them). */
const endedCopies = (columns: string[], count: number, series: string) => {
  const value = (c: string) => (c === 'id' || c === 'key' ? `'ended-' || n` : c === 'ended' ? '5' : c === 'created' ? 'n' : c);
  return `INSERT INTO sessions (${columns.join(', ')}) SELECT ${columns.map(value).join(', ')} FROM ${series}, (SELECT * FROM sessions WHERE id = 'live0') model`;
};

async function addSessions(store: Store) {
  await store.accounts.insert(account('acc'));
  for (let i = 0; i < 20; i++) await store.sessions.insert(session(`live${i}`, { ports: [], created: 1_000_000 + i }));
}

describe('the live read model load', () => {
  const dir = mkdtempSync(join(tmpdir(), 'live-load-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is an index range scan in SQLite, in the order it asks for', async () => {
    const db = openDatabase(join(dir, 'service.db'));
    try {
      await addSessions(createSqliteStore(db));
      const columns = (db.pragma('table_info(sessions)') as { name: string }[]).map((c) => c.name);
      db.exec(endedCopies(columns, 20_000, '(WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < 20000) SELECT n FROM g)'));
      db.exec('ANALYZE');
      const plan = (db.prepare(`EXPLAIN QUERY PLAN ${LIVE_SESSIONS}`).all() as { parent: number; detail: string }[])
        .filter((step) => step.parent === 0 && !step.detail.startsWith('CORRELATED'))
        .map((step) => step.detail);
      // One pass over the index, no sort after it ("USE TEMP B-TREE FOR ORDER BY").
      expect(plan).toEqual(['SCAN s USING INDEX sessions_live']);
      expect((db.prepare(LIVE_SESSIONS).all() as { id: string }[]).map((r) => r.id)).toEqual(Array.from({ length: 20 }, (_, i) => `live${i}`));
    } finally {
      db.close();
    }
  });

  describe('in PostgreSQL', () => {
    const database = useDatabase('live_load');
    let store: Store | undefined;
    afterAll(async () => store?.close());

    it('reads a partial index over live sessions, not the table', async () => {
      store = await openPostgresStore(database.url, { poolSize: 1 });
      await addSessions(store);
      const { rows } = await database.admin.query<{ column_name: string }>(
        "SELECT column_name FROM information_schema.columns WHERE table_name = 'sessions' ORDER BY ordinal_position",
      );
      await database.admin.query(endedCopies(rows.map((r) => r.column_name), 20_000, 'generate_series(1, 20000) n'));
      await database.admin.query('ANALYZE sessions');
      const [{ 'QUERY PLAN': plan }] = (await database.admin.query(`EXPLAIN (FORMAT JSON) ${PG_LIVE_SESSIONS}`)).rows;
      const scans: string[] = [];
      const walk = (node: { 'Node Type': string; 'Relation Name'?: string; 'Index Name'?: string; Plans?: unknown[] }) => {
        if (node['Relation Name'] === 'sessions') scans.push(`${node['Node Type']} ${node['Index Name'] ?? ''}`.trim());
        (node.Plans as (typeof node)[] | undefined)?.forEach(walk);
      };
      walk(plan[0].Plan);
      // sessions_live or another partial index on live sessions (then with a sort of those few).
      expect(scans).toEqual([expect.stringMatching(/^Index Scan( Backward)? sessions_live/)]);
    });
  });
});
