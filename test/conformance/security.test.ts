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
    const other = running.service.onboard({ name: 'Rival Studio', quotaMinutes: 100, operator: false });
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
