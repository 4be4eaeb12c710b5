import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../generated/routes.js';
import { allScopes } from '../../server/domain/scopes.js';
import { contractFetch } from '../support/contract.js';
import { exampleRequests, urlOf } from '../support/examples.js';
import { caller, expectError } from '../support/http.js';
import { startService, type RunningService } from '../support/service.js';
import { waitForStatus } from '../support/sessions.js';

describe('security matrix', () => {
  const contract = contractFetch();
  const logLines: string[] = [];
  let running: RunningService;
  let call: ReturnType<typeof caller>;
  const secrets: string[] = [];

  beforeAll(async () => {
    running = await startService({ runtime: 'simulated' }, {
      logger: { level: 'trace', stream: { write: (line: string) => logLines.push(line) } },
    });
    call = caller(running.url, running.token, contract);
    secrets.push(running.token);
  });
  afterAll(async () => {
    await running.close();
    expect(contract.violations).toEqual([]);
  });

  it('answers 401 to every operation called with a token lacking exactly the scope it needs', async () => {
    const scoped = routes.filter((r) => r.requiredScopes.length > 0);
    expect(scoped.length).toBeGreaterThan(15);
    for (const request of exampleRequests.filter((r) => r.route.requiredScopes.length > 0)) {
      const others = allScopes.filter((s) => !request.route.requiredScopes.includes(s));
      const minted = await call('POST', '/token', { body: { name: 'lacking', scopes: others } });
      secrets.push(minted.json.token);
      const response = await contract.fetch(urlOf(running.url, request), {
        method: request.method,
        headers: {
          Authorization: `Bearer ${minted.json.token}`,
          ...(request.body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
      });
      const body = (await response.json()) as { code: string; details: string };
      expect(response.status, `${request.method} ${request.path}`).toBe(401);
      expect(body).toMatchObject({ code: 'UNAUTHORIZED', details: `token lacks scope ${request.route.requiredScopes.join(', ')}` });
    }
  });

  it("keeps one account's sessions, logs, artifacts, tokens and subscriptions invisible to another (404, not 403)", async () => {
    const other = await running.service.onboard({ name: 'Rival Studio', quotaMinutes: 100, operator: false });
    secrets.push(other.token);
    const rival = caller(running.url, other.token, contract);

    await call('POST', '/session', { body: { id: 'mine', location: 'local-a', image: 'echo', labels: { team: 'a' } } });
    await waitForStatus(call, 'mine', ['running']);
    const token = await call('POST', '/token', { body: { name: 'mine', scopes: ['session:read'] } });
    secrets.push(token.json.token);
    const subscription = await call('POST', '/subscription', { body: { url: 'http://127.0.0.1:9/hook' } });
    secrets.push(subscription.json.secret);

    const attempts: [string, string, unknown?][] = [
      ['GET', '/session/mine'],
      ['DELETE', '/session/mine'],
      ['GET', '/logs?id=mine'],
      ['GET', '/artifacts?session=mine'],
      ['PUT', '/session/player/join', { session: 'mine', players: ['spy'] }],
      ['DELETE', '/session/player/leave', { session: 'mine', players: ['spy'] }],
      ['DELETE', `/token/${token.json.id}`],
      ['DELETE', `/subscription/${subscription.json.id}`],
      ['GET', `/subscription/${subscription.json.id}/delivery`],
    ];
    for (const [method, path, body] of attempts) {
      const result = await rival(method, path, body === undefined ? {} : { body });
      expectError(result, 404, 'RESOURCE_NOT_FOUND', path.split('?')[0]!);
    }
    expect((await rival('GET', '/session?all=true')).json.sessions).toEqual([]);
    expect((await rival('GET', '/subscription')).json.subscriptions).toEqual([]);
    expect((await rival('GET', '/token')).json.tokens.map((t: { name: string }) => t.name)).toEqual(['first token']);

    // Still there for its owner.
    expect((await call('GET', '/session/mine')).json.status).toBe('running');
    expect((await call('GET', `/subscription/${subscription.json.id}/delivery`)).status).toBe(200);
    await call('DELETE', '/session/mine');
  });

  it('never writes a token value to the log, even at trace level and for failed requests', async () => {
    await call('GET', '/account', { token: 'gsh_ThisIsNotARealTokenButLooksLikeOne000000' });
    await call('POST', '/token', { body: `{"name": "${running.token}"` });
    expect(logLines.length).toBeGreaterThan(50);
    const log = logLines.join('\n');
    for (const secret of [...secrets, 'gsh_ThisIsNotARealTokenButLooksLikeOne000000']) expect(log.includes(secret), secret.slice(0, 8)).toBe(false);
    expect(log).not.toMatch(/gsh_[0-9A-Za-z]{20,}/);
    expect(log).not.toMatch(/whsec_/);
  });
});

/**
 * The abuse matrix (issue 15): one row per way a caller could grow the service or reach past
 * it, each answered with a bounded 4xx. Deeper tests per row: test/api/list-filters,
 * list-memory, request-limits, sign-in-throttle, stream-revocation; test/unit/egress-guard,
 * webhook-dispatcher.
 */
describe('abuse matrix', () => {
  const contract = contractFetch();
  let running: RunningService;
  let call: ReturnType<typeof caller>;

  beforeAll(async () => {
    // No operator allowance: webhooks to internal addresses are refused as in production.
    running = await startService({ runtime: 'simulated', webhookAllowedNetworks: [] });
    call = caller(running.url, running.token, contract);
  });
  afterAll(async () => {
    await running.close();
    expect(contract.violations).toEqual([]);
  });

  it.each([
    ['GET', '/session?filter=abc', undefined, 422, 'query.filter'],
    ['GET', '/session?filter=%5Bobject%20Object%5D', undefined, 422, 'query.filter'],
    ['GET', '/session?playerCount=3', undefined, 422, 'query.playerCount'],
    ['GET', '/session?playerCount[eq]=1', undefined, 422, 'query.playerCount.eq'],
    ['GET', `/session?${Array.from({ length: 17 }, (_, i) => `filter[k${i}]=v`).join('&')}`, undefined, 422, 'query.filter'],
    ['POST', '/subscription', { url: 'http://127.0.0.1:8080/hook' }, 422, 'body.url'],
    ['POST', '/subscription', { url: 'http://0x7f000001/hook' }, 422, 'body.url'],
    ['POST', '/subscription', { url: 'http://169.254.169.254/latest/meta-data' }, 422, 'body.url'],
    ['POST', '/subscription', { url: 'http://[::1]/hook' }, 422, 'body.url'],
    ['POST', '/session', { id: 'proto', location: 'local-a', image: 'echo', version: '__proto__' }, 404, undefined],
    ['POST', '/session', { id: 'ctor', location: 'local-a', image: 'echo', version: 'constructor' }, 404, undefined],
  ] as const)('%s %s is answered %s', async (method, path, body, status, field) => {
    const result = await call(method, path, body === undefined ? {} : { body });
    expect(result.status).toBe(status);
    if (field) expect(result.json.violations.map((v: { field: string }) => v.field)).toContain(field);
    expect(result.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('answers the panel path /admin/%25zz without a 5xx (decoded once), nosniff', async () => {
    // Plain fetch: panel pages are not operations of the contract.
    const result = await fetch(`${running.url}/admin/%25zz`);
    expect(result.status).toBeLessThan(500);
    expect(result.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('refuses events:write alone on POST /subscription (deliveries carry whole sessions)', async () => {
    const minted = await call('POST', '/token', { body: { name: 'events only', scopes: ['events:write'] } });
    const result = await call('POST', '/subscription', { token: minted.json.token, body: { url: 'https://hooks.example.com/x' } });
    expectError(result, 401, 'UNAUTHORIZED', '/subscription');
  });

  it('lets a token revoke only itself and what it minted', async () => {
    const a = await call('POST', '/token', { body: { name: 'a', scopes: ['token:write'] } });
    const b = await call('POST', '/token', { body: { name: 'b', scopes: ['token:write'] } });
    expectError(await call('DELETE', `/token/${a.json.id}`, { token: b.json.token }), 404, 'RESOURCE_NOT_FOUND', `/token/${a.json.id}`);
    expect((await call('DELETE', `/token/${b.json.id}`, { token: b.json.token })).status).toBe(204);
  });

  it('refuses an oversized sign-in body and deep nesting before parsing', async () => {
    expect((await call('POST', '/admin/api/auth', { token: null, body: { email: 'a@b.c', password: 'x'.repeat(10_000) } })).status).toBe(413);
    expect((await call('POST', '/token', { body: `{"name":${'['.repeat(1000)}${']'.repeat(1000)}}` })).status).toBe(422);
  });
});
