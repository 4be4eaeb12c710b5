/**
 * A PostgreSQL that answers but is busy is not a dead one. A request whose row stays locked by
 * another transaction, or that finds every pooled connection in use for its whole wait, answers
 * 503 SERVICE_UNAVAILABLE with Retry-After (nothing of it done), and /readyz stays ready: the
 * server cancels the lock wait itself (lock_timeout, under the client deadline) before the client
 * deadline would destroy the connection and take the database for unresponsive.
 *
 * The timeouts are the tests' (seconds, not the production 8, 9 and 10 s); what is shown is their
 * order, not a timing.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { openPostgres } from '../../server/store/postgres/database.js';
import { StoreBusy } from '../../server/store/store-busy.js';
import { createDatabase } from '../support/postgres.mjs';
import { startService, type RunningService } from '../support/service.js';

const POSTGRES = join(process.env.SESSION_HOST_POSTGRES_BIN ?? '/usr/lib/postgresql/15/bin', 'postgres');
const missing = existsSync(POSTGRES) ? undefined : `no ${POSTGRES} (apt-get install postgresql)`;

interface Answer {
  status: number;
  retryAfter: string | null;
  body: { code?: string; details?: string; status?: string; sessions?: { id: string }[] };
}

async function ask(running: RunningService, path: string, body?: unknown): Promise<Answer> {
  const response = await fetch(`${running.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${running.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(120_000),
  });
  const text = await response.text();
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: text ? (JSON.parse(text) as Answer['body']) : {} };
}

const start = (id: string) => ({ id, location: 'local-a', image: 'echo', restart: false });

describe.skipIf(missing)(`a busy PostgreSQL${missing ? ` (skipped: ${missing})` : ''}`, () => {
  let running: RunningService | undefined;
  let holder: pg.Client | undefined;
  afterEach(async () => {
    await holder?.end().catch(() => {});
    holder = undefined;
    await running?.close();
    running = undefined;
  });

  it('answers a start whose account row another transaction holds with 503 and Retry-After (the server gives up on the lock first), and stays ready', { timeout: 180_000 }, async () => {
    const url = await createDatabase('lock_wait');
    // The lock timeout well under the client deadline, as in production (8 s under 10 s).
    running = await startService(
      { databaseUrl: url, runtime: 'simulated' },
      { postgres: { statementDeadlineMs: 6000, serverTimeouts: { lockMs: 500, statementMs: 5000 } } },
    );
    expect((await ask(running, '/readyz')).status).toBe(200);

    // Another transaction (an instance frozen mid-start, an operator's session) holds every account row.
    holder = new pg.Client({ connectionString: url });
    await holder.connect();
    await holder.query('BEGIN');
    expect((await holder.query('SELECT id FROM accounts FOR UPDATE')).rowCount).toBeGreaterThan(0);

    const refused = await ask(running, '/session', start('locked-out'));
    expect(refused.status).toBe(503);
    expect(refused.body.code).toBe('SERVICE_UNAVAILABLE');
    expect(refused.body.details).toMatch(/locked by another transaction past lock_timeout/);
    expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
    // Not taken for a database that stopped answering: ready, with no problem recorded.
    expect(running.service.health.readiness()).toEqual({ ready: true, problems: [] });
    expect((await ask(running, '/readyz')).status).toBe(200);

    // Nothing of it was written, and once the row is free the same start goes through.
    await holder.query('ROLLBACK');
    expect((await ask(running, '/session')).body.sessions?.map((s) => s.id)).toEqual([]);
    expect((await ask(running, '/session', start('locked-out'))).status).toBe(201);
    expect(running.service.health.readiness().ready).toBe(true);
  });

  it('answers a start that finds every pooled connection in use for its whole wait with 503 and Retry-After, writing nothing', { timeout: 180_000 }, async () => {
    const url = await createDatabase('pool_full');
    running = await startService({ databaseUrl: url, runtime: 'simulated' }, { postgres: { poolSize: 1, poolWaitMs: 500 } });
    const service = running;
    expect((await ask(service, '/session')).status).toBe(200);

    // The one pooled connection held busy by a transaction until released.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let began!: () => void;
    const begun = new Promise<void>((resolve) => (began = resolve));
    const busy = service.service.store.sessions.transaction(async () => {
      await service.service.store.accounts.findById('nobody');
      began();
      await released;
    });
    try {
      await begun;
      const refused = await ask(service, '/session', start('no-connection'));
      expect(refused.status).toBe(503);
      expect(refused.body.code).toBe('SERVICE_UNAVAILABLE');
      expect(refused.body.details).toMatch(/no pooled connection was free within 500 ms/);
      expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
      expect((await ask(service, '/readyz')).status).toBe(200);
    } finally {
      release();
      await busy;
    }
    // Nothing written: no session, and the same start goes through now.
    const raw = new pg.Client({ connectionString: url });
    await raw.connect();
    try {
      expect((await raw.query('SELECT id FROM sessions')).rows).toEqual([]);
    } finally {
      await raw.end();
    }
    expect((await ask(service, '/session', start('no-connection'))).status).toBe(201);
    expect(service.service.health.readiness().ready).toBe(true);
  });

  it('gives a statement outside a transaction the same server-side lock timeout: StoreBusy, the connection kept, nothing told', { timeout: 180_000 }, async () => {
    const url = await createDatabase('lock_single');
    const database = await openPostgres(url, { poolSize: 1, statementDeadlineMs: 6000, serverTimeouts: { lockMs: 500, statementMs: 5000 } });
    const told: Error[] = [];
    database.onUnresponsive((error) => told.push(error));
    holder = new pg.Client({ connectionString: url });
    await holder.connect();
    try {
      await database.sql.run('CREATE TABLE counters (id INTEGER PRIMARY KEY, n INTEGER NOT NULL)');
      await database.sql.run('INSERT INTO counters VALUES (1, 0)');
      const backend = async () => (await database.sql.rows<{ pid: number }>('SELECT pg_backend_pid() AS pid'))[0]!.pid;
      const before = await backend();
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM counters WHERE id = 1 FOR UPDATE');
      // A single statement (a quota tick's kind), on the pool's one connection: set at connect, no SET LOCAL.
      const refused = await database.sql.run('UPDATE counters SET n = n + 1 WHERE id = 1').catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(StoreBusy);
      expect((refused as Error & { cause?: { code?: string } }).cause?.code).toBe('55P03');
      await holder.query('ROLLBACK');
      // The same connection (the pool has one) answers the next statement: it was kept, not destroyed.
      expect(await backend()).toBe(before);
      expect(await database.sql.run('UPDATE counters SET n = n + 1 WHERE id = 1')).toBe(1);
      expect(told).toEqual([]);
    } finally {
      await database.close();
    }
  });
});
