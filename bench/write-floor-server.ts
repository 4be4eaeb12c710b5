/**
 * The write floor for B1's pairs row (issue 19): a bare Fastify app whose `POST /session` and
 * `DELETE /session/{id}` make exactly the writes our service makes for a start+stop pair, with the
 * same durability, and nothing else: the start (the id check, the session and its two ports, an
 * event), the stop (pending end and status, an event) and, once the session has exited 500 ms
 * later as B1's simulated sessions do, the end (ended, exit code, reason, an event, the account's
 * charge). Each is a savepoint in the service's own group commit (server/store/group-commit.ts:
 * one COMMIT and one fsync off the event loop per batch, nobody answered before the fsync of its
 * write), through the service's own repositories and schema. No authentication beyond comparing
 * the bearer token, no validation, no domain, no runtime, no logging; it answers the bodies our
 * service answered (argv: a JSON file of { created }).
 *
 * What it measures: how many pairs per second this machine gives the pair's statements and their
 * fsyncs behind HTTP at all, whatever the code around them; ours/floor is what our layers cost.
 */
import Fastify from 'fastify';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SessionRecord } from '../server/domain/ports/sessions.js';
import { createAccountRepository } from '../server/store/account-repository.js';
import { GroupCommit } from '../server/store/group-commit.js';
import { createSessionRepository } from '../server/store/session-repository.js';
import { openDatabase } from '../server/store/sqlite.js';
import { account, session } from '../test/support/store-records.js';

const bodies = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as { created: object; token: string };
const EXIT_MS = 500;

const dir = mkdtempSync(join(tmpdir(), 'session-host-write-floor-'));
const db = openDatabase(join(dir, 'service.db'));
const commits = new GroupCommit(db, () => false, () => {});
const accounts = createAccountRepository(db);
const sessions = createSessionRepository(db);
accounts.insert(account('acc'));

let portCursor = 0;
const live = new Map<string, SessionRecord>();
/** Host ports of sessions not ended yet (a load run's last starts are never stopped): never given twice. */
const held = new Set<number>();
function freePortPair(): number {
  for (;;) {
    const host = 10_000 + ((2 * portCursor++) % 40_000);
    if (!held.has(host)) return host;
  }
}

const start = db.transaction((id: string): SessionRecord | undefined => {
  if (sessions.exists('acc', id)) return undefined;
  const host = freePortPair();
  const record = session(id, {
    key: id,
    created: Date.now(),
    ports: [
      { name: 'game', type: 'udp', container: 7777, host },
      { name: 'query', type: 'tcp', container: 7778, host: host + 1 },
    ],
  });
  sessions.insert(record);
  sessions.appendEvent(record, null, Date.now());
  return record;
});
const stop = db.transaction((record: SessionRecord) => {
  const changes = { pendingEndReason: 'stopped' as const, status: 'shuttingdown' as const };
  sessions.update(record.key, changes);
  sessions.appendEvent({ ...record, ...changes }, record.status, Date.now());
});
const end = db.transaction((record: SessionRecord) => {
  const changes = { ended: Date.now(), exitCode: 0, endReason: 'stopped' as const, status: 'exited' as const, pendingEndReason: null };
  sessions.update(record.key, changes);
  sessions.appendEvent({ ...record, ...changes }, 'shuttingdown', Date.now());
  accounts.addUsedSeconds('acc', 1);
});

const app = Fastify({ logger: false });
// Counted as failures by the bench (its non-2xx row); the cause goes to stderr.
app.setErrorHandler((error, _request, reply) => {
  console.error(error);
  return reply.code(500).send();
});
app.addHook('onRequest', async (request, reply) => {
  if (request.headers.authorization !== `Bearer ${bodies.token}`) return reply.code(401).send();
});
app.post('/session', async (request, reply) => {
  const id = (request.body as { id: string }).id;
  const record = await commits.write(() => start(id));
  if (!record) return reply.code(409).send();
  live.set(id, record);
  held.add(record.ports[0]!.host);
  return reply.code(201).send(bodies.created);
});
app.delete('/session/:id', async (request, reply) => {
  const record = live.get((request.params as { id: string }).id);
  if (!record) return reply.code(404).send();
  live.delete(record.id);
  await commits.write(() => stop(record));
  setTimeout(() => void commits.write(() => end(record)).then(() => held.delete(record.ports[0]!.host)), EXIT_MS);
  return reply.code(204).send();
});

const url = await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`write floor listening on ${url}\n`);
process.once('SIGTERM', () =>
  void app.close().then(async () => {
    await commits.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  }),
);
