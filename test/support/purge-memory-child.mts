/**
 * Run as its own process by test/store/purge-memory.test.ts (its high-water RSS is then its own):
 * a store with `count` sessions ended long ago, purged by the retention's purgeEnded. Prints
 * { purged, rssGrowthMiB }: how far the purge raised the process's peak resident memory.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../server/store/sqlite.js';
import { createSqliteStore } from '../../server/store/sqlite-store.js';
import { account, session } from './store-records.js';

const count = Number(process.argv[2]);
const dir = mkdtempSync(join(tmpdir(), 'purge-memory-'));
const db = openDatabase(join(dir, 'service.db'));
const store = createSqliteStore(db);
await store.accounts.insert(account('acc'));
await store.sessions.insert(session('model'));
// Copies of the model, ended at 5, each with its port, written directly (a store call each would take minutes).
const columns = (db.pragma('table_info(sessions)') as { name: string }[]).map((c) => c.name);
const value = (c: string) => (c === 'id' || c === 'key' ? `'ended-session-' || n` : c === 'ended' ? '5' : c);
db.exec(`WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < ${count})
  INSERT INTO sessions (${columns.join(', ')}) SELECT ${columns.map(value).join(', ')} FROM g, (SELECT * FROM sessions WHERE id = 'model')`);
db.exec(`INSERT INTO session_ports (account_id, session_id, node_id, name, type, container, port, live)
  SELECT account_id, id, node_id, 'game', 'udp', 7777, 20000, 0 FROM sessions WHERE ended = 5`);
const before = process.resourceUsage().maxRSS;
const purged = (await store.sessions.purgeEnded(10)).sessions;
const rssGrowthMiB = (process.resourceUsage().maxRSS - before) / 1024;
db.close();
rmSync(dir, { recursive: true, force: true });
console.log(JSON.stringify({ purged, rssGrowthMiB }));
