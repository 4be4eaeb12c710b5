/**
 * The store's floor under a start+stop pair (issue 19's pairs row): what the SQLite statements of
 * a pair cost on their own, through the service's own repositories, with none of HTTP, the
 * domain, the group commit's promises or the read models' callers around them. Per pair, as the
 * service writes it: the start (the id check, the session and its ports, an event), the stop
 * (pending end and status, an event) and the end (ended, exit code, reason, an event, the
 * account's charge), each in a savepoint, CONCURRENCY pairs per BEGIN/COMMIT as group commit
 * batches B1's ten connections. Synchronous NORMAL and temp data in memory, as group-commit.ts
 * sets them; the WAL's fsync is left out (it runs on libuv's thread pool, not on the event loop).
 * Prints the CPU per pair (user + system); compare it with `npm run bench:cpu-pairs` (the whole
 * service, in process) taken in the same minutes. `npm run bench:store-floor`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAccountRepository } from '../server/store/account-repository.js';
import { createSessionRepository } from '../server/store/session-repository.js';
import { openDatabase } from '../server/store/sqlite.js';
import { account, session } from '../test/support/store-records.js';

const PAIRS = Number(process.env.PAIRS ?? 4000);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 10);

const dir = mkdtempSync(join(tmpdir(), 'store-floor-'));
const db = openDatabase(join(dir, 'service.db'));
db.pragma('synchronous = NORMAL');
db.pragma('temp_store = MEMORY');
const accounts = createAccountRepository(db);
const sessions = createSessionRepository(db);
accounts.insert(account('acc'));

let n = 0;
const start = db.transaction((id: string) => {
  sessions.exists('acc', id);
  const record = session(id, { key: id, created: Date.now(), ports: [
    { name: 'game', type: 'udp', container: 7777, host: 10_000 + ((2 * n) % 40_000) },
    { name: 'query', type: 'tcp', container: 7778, host: 10_001 + ((2 * n) % 40_000) },
  ] });
  sessions.insert(record);
  sessions.appendEvent(record, null, Date.now());
  return record;
});
const stop = db.transaction((record: ReturnType<typeof start>) => {
  const changes = { pendingEndReason: 'stopped' as const, status: 'shuttingdown' as const };
  sessions.update(record.key, changes);
  sessions.appendEvent({ ...record, ...changes }, record.status, Date.now());
});
const end = db.transaction((record: ReturnType<typeof start>) => {
  const changes = { ended: Date.now(), exitCode: 0, endReason: 'stopped' as const, status: 'exited' as const, pendingEndReason: null };
  sessions.update(record.key, changes);
  sessions.appendEvent({ ...record, ...changes }, 'shuttingdown', Date.now());
  accounts.addUsedSeconds('acc', 1);
});
const batch = db.transaction((count: number) => {
  const started = Array.from({ length: count }, () => start(`pair-${n++}`));
  for (const record of started) stop(record);
  for (const record of started) end(record);
});

const run = (pairs: number) => {
  for (let done = 0; done < pairs; done += CONCURRENCY) batch(CONCURRENCY);
};
run(500);
const results: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  const before = process.cpuUsage();
  run(PAIRS);
  const used = process.cpuUsage(before);
  results.push((used.user + used.system) / PAIRS);
  console.log(`round ${round + 1}: ${Math.round(results.at(-1)!)} µs CPU per pair (user ${Math.round(used.user / PAIRS)}, system ${Math.round(used.system / PAIRS)}), ${CONCURRENCY} pairs per COMMIT`);
}
console.log(`least: ${Math.round(Math.min(...results))} µs CPU per pair in the store's statements alone`);
db.close();
rmSync(dir, { recursive: true, force: true });
