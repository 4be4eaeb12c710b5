import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Handlers } from '../../generated/handlers.js';
import { routes } from '../../generated/routes.js';
import { Tokens } from '../../server/domain/tokens.js';
import { createApp } from '../../server/http/app.js';
import { SecretBox } from '../../server/security/secret-box.js';
import { createTokenVault } from '../../server/security/token-vault.js';
import { openDatabase } from '../../server/store/sqlite.js';
import { StoreBusy } from '../../server/store/store-busy.js';
import { DatabaseUnreachable } from '../../server/store/postgres/watch.js';
import { createSqliteStore } from '../../server/store/sqlite-store.js';
import { bootstrap } from '../../server/bootstrap.js';
import { Operators } from '../../server/domain/operators.js';
import { operatorSecrets } from '../../server/security/passwords.js';
import { contractFetch } from '../support/contract.js';
import { caller, expectError } from '../support/http.js';
import { exampleRequests, urlOf, type ExampleRequest } from '../support/examples.js';
import { TEST_BOOTSTRAP_TOKEN } from '../support/service.js';

const SECRET_DETAIL = 'disk /var/lib/secret.db is corrupt at page 42';

describe('an unexpected failure', () => {
  const contract = contractFetch();
  let app: ReturnType<typeof createApp>;
  let call: ReturnType<typeof caller>;
  const logged: string[] = [];
  const answers: Partial<Record<string, () => Promise<unknown>>> = {};
  /** Admin operations authenticate with the panel's cookie and CSRF token instead. */
  let panelHeaders: Record<string, string> = {};

  beforeAll(async () => {
    const store = createSqliteStore(openDatabase(':memory:'));
    const tokens = new Tokens(store.tokens, createTokenVault(SecretBox.fromKey(Buffer.alloc(32, 7))), { isAccountActive: async () => true }, Date.now);
    await bootstrap(store.accounts, tokens, { bootstrapToken: TEST_BOOTSTRAP_TOKEN, quotaMinutes: 1, now: Date.now() });
    const operators = new Operators(store.operators, operatorSecrets, Date.now);
    await operators.bootstrap('admin@example.com', 'test-admin-password');
    const signedIn = await operators.signIn('admin@example.com', 'test-admin-password', '127.0.0.1');
    if (!signedIn.ok) throw new Error('could not sign in');
    panelHeaders = { Cookie: `gsh_admin=${signedIn.sessionId}`, 'X-CSRF-Token': signedIn.session.csrf };
    // Every handler fails the way a broken disk or a bug would, unless a test answers for it.
    const failing = Object.fromEntries(
      routes.map((r) => [r.operationId, async () => (answers[r.operationId] ?? (() => Promise.reject(new Error(SECRET_DETAIL))))()]),
    );
    app = createApp({
      tokens,
      operators,
      handlers: failing as unknown as Handlers,
      logger: { level: 'error', stream: { write: (line: string) => logged.push(line) } },
    });
    const url = await app.listen({ host: '127.0.0.1', port: 0 });
    call = caller(url, TEST_BOOTSTRAP_TOKEN, contract);
  });
  afterAll(async () => {
    await app.close();
    expect(contract.violations).toEqual([]);
  });

  /** Sends each request's example (as the operator for admin ones), in turn, and hands its answer to `check`. */
  async function eachOperation(requests: readonly ExampleRequest[], check: (response: Response, what: string) => Promise<void>): Promise<void> {
    for (const request of requests) {
      const response = await contract.fetch(urlOf(app.listeningOrigin, request), {
        method: request.method,
        headers: {
          Authorization: `Bearer ${TEST_BOOTSTRAP_TOKEN}`,
          ...(request.path.startsWith('/admin/api/') ? panelHeaders : {}),
          ...(request.body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
      });
      await check(response, `${request.method} ${request.path}`);
    }
  }

  it('answers 500 from every operation, keeping the contract', async () => {
    await eachOperation(exampleRequests, async (response, what) => {
      expect(response.status, what).toBe(500);
      expect(((await response.json()) as { code: string }).code).toBe('INTERNAL_ERROR');
    });
  });

  /** Every operation whose handler fails with `error` answers 503 SERVICE_UNAVAILABLE with Retry-After, its details matching `details`. */
  async function answers503(error: () => Error, details: RegExp): Promise<void> {
    const busyOnes = exampleRequests.filter((request) => (request.route.responses['503']?.schema as { $ref?: string } | undefined)?.$ref === 'Error#');
    // Every operation but the health checks (GET /readyz's 503 is its own Readiness body).
    expect(routes.length - busyOnes.length).toBe(2);
    for (const request of busyOnes) answers[request.route.operationId] = () => Promise.reject(error());
    try {
      await eachOperation(busyOnes, async (response, what) => {
        expect(response.status, what).toBe(503);
        expect(Number(response.headers.get('retry-after')), what).toBeGreaterThanOrEqual(1);
        const body = (await response.json()) as { code: string; details: string };
        expect(body.code, what).toBe('SERVICE_UNAVAILABLE');
        expect(body.details, what).toMatch(details);
      });
    } finally {
      for (const request of busyOnes) delete answers[request.route.operationId];
    }
  }

  it('answers 503 SERVICE_UNAVAILABLE with Retry-After from every operation whose store is busy, keeping the contract', async () => {
    await answers503(() => new StoreBusy('the database is busy: no pooled connection was free within 25000 ms'), /^the database is busy: .*; retry after Retry-After seconds$/);
  });

  it('answers 503 with Retry-After, not 500, from every operation whose store found its disk full (SQLite, the file system, PostgreSQL)', async () => {
    for (const code of ['SQLITE_FULL', 'ENOSPC', '53100']) {
      await answers503(() => Object.assign(new Error('database or disk is full'), { code }), /^the service's storage is full: nothing of this request was kept; retry after Retry-After seconds$/);
    }
  });

  it('answers 503 with Retry-After, not 500, from every operation whose database could not be reached before anything was sent', async () => {
    await answers503(
      () => new DatabaseUnreachable('the database could not be reached (connect ECONNREFUSED 127.0.0.1:5432)'),
      /^the database could not be reached: nothing of this request was done; retry after Retry-After seconds$/,
    );
  });

  it('answers 500 INTERNAL_ERROR with a generic body, and logs the cause under the same identifier', async () => {
    const result = await call('GET', '/account');
    expectError(result, 500, 'INTERNAL_ERROR', '/account');
    expect(result.json.message).toBe('Internal error');
    expect(result.json.details).toBe('quote the identifier to support');
    expect(result.text).not.toContain('corrupt');
    // The cause is in the log, under the identifier the caller got.
    const lines = logged.map((line) => JSON.parse(line) as { identifier?: string });
    const cause = lines.find((line) => line.identifier === result.json.identifier && JSON.stringify(line).includes(SECRET_DETAIL));
    expect(cause).toBeDefined();
  });

  it('sends only the documented fields, even when a handler returns more (top level and inside a named schema)', async () => {
    answers.getAccount = async () => ({
      status: 200,
      body: { id: 'acc_1', name: 'Studio', internalNote: SECRET_DETAIL, max_sessions: null, quota: { total: 60, used: 0, remaining: 60, costCentre: SECRET_DETAIL } },
    });
    try {
      const result = await call('GET', '/account');
      expect(result.status).toBe(200);
      expect(result.json).toEqual({ id: 'acc_1', name: 'Studio', max_sessions: null, quota: { total: 60, used: 0, remaining: 60 } });
      expect(result.text).not.toContain('corrupt');
    } finally {
      delete answers.getAccount;
    }
  });
});
