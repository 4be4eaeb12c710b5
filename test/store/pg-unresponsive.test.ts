/**
 * A PostgreSQL that stops answering (frozen, partitioned: no error, the kernel just keeps
 * retransmitting) must not hang requests: each statement has a deadline, a connection whose
 * statement overran is destroyed (never handed to the next request), /readyz says the store is
 * down within seconds, and everything works again, on its own, once the database answers.
 *
 * The freeze is a TCP proxy in front of a real cluster that stops forwarding (both ways, new
 * connections too, as a stopped postmaster whose kernel still accepts them), then delivers what it
 * held: unlike SIGSTOP on the cluster, it freezes only this test's service, not the other test
 * files sharing the cluster.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startFreezableProxy, type FreezableProxy } from '../support/cluster/freezable-proxy.js';
import { eventually } from '../support/eventually.mjs';
import pg from 'pg';
import { openPostgres, WATCH_TIMINGS } from '../../server/store/postgres/database.js';
import { DatabaseUnresponsive } from '../../server/store/postgres/watch.js';
import { createDatabase } from '../support/postgres.mjs';
import { startService, type RunningService } from '../support/service.js';

/** A request that got no answer within this is a hang (the statements' deadline is 10 s, the pool wait 25 s). */
const HANG_CAP_MS = 90_000;

interface Answer {
  status: number;
  body: { code?: string; status?: string; problems?: { component: string }[] };
}

async function ask(running: RunningService, path: string, options: { token?: string; method?: string; body?: unknown } = {}): Promise<Answer> {
  const response = await fetch(`${running.url}${path}`, {
    method: options.method ?? 'GET',
    headers: {
      authorization: `Bearer ${options.token ?? running.token}`,
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: AbortSignal.timeout(HANG_CAP_MS),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Answer['body']) : {} };
}

/** Poll until `done` accepts (a condition, not a timing: the cap only stops a test that would wait forever). */
const until = <T>(what: string, probe: () => Promise<T>, done: (value: T) => boolean) =>
  eventually(probe, { until: done, what, timeoutMs: HANG_CAP_MS, intervalMs: 200 });

const POSTGRES = join(process.env.SESSION_HOST_POSTGRES_BIN ?? '/usr/lib/postgresql/15/bin', 'postgres');
const missing = existsSync(POSTGRES) ? undefined : `no ${POSTGRES} (apt-get install postgresql)`;

describe.skipIf(missing)(`a PostgreSQL that stops answering${missing ? ` (skipped: ${missing})` : ''}`, () => {
  let proxy: FreezableProxy | undefined;
  let running: RunningService | undefined;
  afterAll(async () => {
    proxy?.thaw();
    await running?.close();
    await proxy?.close();
  });

  it('fails requests within a bound (no hang, pool not held), reports not-ready, and recovers once it answers', { timeout: 8 * HANG_CAP_MS }, async () => {
    const database = new URL(await createDatabase('unresponsive'));
    proxy = await startFreezableProxy(Number(database.port));
    database.port = String(proxy.port);
    running = await startService({ databaseUrl: database.toString(), runtime: 'simulated' });
    const service = running;
    expect((await ask(service, '/session')).status).toBe(200);
    expect((await ask(service, '/readyz')).status).toBe(200);

    proxy.freeze();
    try {
      // More requests than pooled connections (10): the stuck ones must not hold the rest.
      const unknownToken = 'gsh_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
      const batch = [
        ...Array.from({ length: 8 }, () => ask(service, '/session')),
        ...Array.from({ length: 4 }, (_, i) => ask(service, `/session/missing${i}`)),
        ...Array.from({ length: 4 }, () => ask(service, '/session', { token: unknownToken })),
      ];
      // Meanwhile /readyz turns not-ready (the ping's doing: see the next test).
      const readiness = await until('/readyz to say the store is down', () => ask(service, '/readyz'), (answer) => answer.status === 503);
      expect(readiness.body.status).toBe('degraded');
      expect(readiness.body.problems?.map((p) => p.component)).toContain('store');
      // Every request was answered (none hit the hang cap: fetch would have thrown), as a server error in the error body's shape.
      for (const answer of await Promise.all(batch)) {
        expect(answer.status).toBeGreaterThanOrEqual(500);
        expect(answer.body.code).toEqual(expect.any(String));
      }
      // Requests arriving while it is known down are answered too (at once: nothing is tried).
      for (const answer of await Promise.all(Array.from({ length: 12 }, () => ask(service, '/session')))) {
        expect(answer.status).toBeGreaterThanOrEqual(500);
        expect(answer.body.code).toEqual(expect.any(String));
      }
    } finally {
      proxy.thaw();
    }

    // Back on its own: ready again, and requests (more than the pool holds) are served.
    await until('/readyz to be ready again', () => ask(service, '/readyz'), (answer) => answer.status === 200);
    await until('requests to succeed again', () => ask(service, '/session'), (answer) => answer.status === 200);
    for (const answer of await Promise.all(Array.from({ length: 20 }, () => ask(service, '/session')))) expect(answer.status).toBe(200);
    expect((await ask(service, '/session', { token: 'gsh_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' })).status).toBe(401);
  });

  it('finds a silent database by its ping: tells before any statement overran, fails the waiting and new statements at once, and serves again once it answers', { timeout: 4 * HANG_CAP_MS }, async () => {
    const url = new URL(await createDatabase('silent'));
    const silent = await startFreezableProxy(Number(url.port));
    url.port = String(silent.port);
    // A statement deadline longer than the test waits for the ping: whatever is told comes from the ping.
    const database = await openPostgres(url.toString(), { poolSize: 1, statementDeadlineMs: 2 * HANG_CAP_MS });
    const told: Error[] = [];
    database.onUnresponsive((error) => told.push(error));
    try {
      expect(await database.sql.rows('SELECT 1 AS one')).toEqual([{ one: 1 }]);
      silent.freeze();
      const inFlight = database.sql.rows('SELECT 2 AS two').catch((error: unknown) => error);
      const waiting = database.sql.rows('SELECT 3 AS three').catch((error: unknown) => error);
      await until('the ping to find the database silent', async () => told.length, (count) => count > 0);
      expect(told[0]).toBeInstanceOf(DatabaseUnresponsive);
      expect(told[0]!.message).toMatch(new RegExp(`^the database did not answer within ${WATCH_TIMINGS.deadlineMs} ms`));
      // The statement waiting for the (only) connection gives up now, not after the pool's 25 s wait.
      expect(await waiting).toMatchObject({ message: expect.stringMatching(/gave up waiting for a connection$/) });
      // A new one is refused without trying.
      await expect(database.sql.rows('SELECT 4')).rejects.toThrow(/refused without trying until it answers again$/);
      silent.thaw();
      // Sent before the freeze and under its deadline: answered once the database answers.
      expect(await inFlight).toEqual([{ two: 2 }]);
      await until('statements to be served again', () => database.sql.rows<{ one: number }>('SELECT 1 AS one').catch(() => []), (rows) => rows.length === 1);
    } finally {
      silent.thaw();
      await database.close();
      await silent.close();
    }
  });

  it('destroys a connection whose statement overran its deadline, rather than handing it to the next statement', { timeout: 4 * HANG_CAP_MS }, async () => {
    const url = await createDatabase('overrun');
    // One pooled connection: were it given back, the next statement would queue behind the sleep and overrun too.
    const database = await openPostgres(url, { poolSize: 1, statementDeadlineMs: 5000 });
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await expect(database.sql.rows('SELECT pg_sleep(600) AS overrun')).rejects.toBeInstanceOf(DatabaseUnresponsive);
      expect(await database.sql.rows<{ one: number }>('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    } finally {
      // The server still sleeps for the connection it lost: ended here, not left on the shared cluster.
      await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE '%pg_sleep(600) AS overrun%' AND pid <> pg_backend_pid()`);
      await admin.end();
      await database.close();
    }
  });
});
