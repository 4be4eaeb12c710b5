import { describe, expect, it } from 'vitest';
import { apiVersion } from '../../generated/routes.js';
import { checkResponse } from '../support/contract.js';

const json = { 'content-type': 'application/json; charset=utf-8', 'api-version': apiVersion };
const base = 'http://127.0.0.1:1';

describe('the response contract checker', () => {
  it('accepts a response that keeps the contract', () => {
    const body = JSON.stringify({ id: 'acc_1', name: 'A', max_sessions: null, quota: { total: 1, used: 0, remaining: 1 } });
    expect(checkResponse('GET', `${base}/account`, 200, new Headers(json), body)).toEqual([]);
  });

  it('catches a body that breaks the schema', () => {
    const body = JSON.stringify({ id: 'acc_1', name: 'A', quota: { total: 'many' } });
    expect(checkResponse('GET', `${base}/account`, 200, new Headers(json), body)).not.toEqual([]);
  });

  it('catches an undocumented status, a missing API-Version and a missing Retry-After', () => {
    expect(checkResponse('GET', `${base}/account`, 418, new Headers(json), '{}')[0]).toMatch(/not documented/);
    expect(checkResponse('DELETE', `${base}/token/x`, 204, new Headers(), '')[0]).toMatch(/API-Version/);
    const error = JSON.stringify({
      statusCode: 420, code: 'CAPACITY_UNAVAILABLE', message: 'm', details: 'full', path: '/session', identifier: 'i',
      timestamp: '2026-11-22T10:00:00.000Z',
    });
    expect(checkResponse('POST', `${base}/session`, 420, new Headers(json), error)).toEqual([
      'POST /session -> 420: 420 without Retry-After',
    ]);
  });

  it("catches a bearer operation's 401 without its challenge; the panel's cookie 401 needs none", () => {
    const error = (path: string) => JSON.stringify({
      statusCode: 401, code: 'UNAUTHORIZED', message: 'm', details: 'd', path, identifier: 'i', timestamp: '2026-11-22T10:00:00.000Z',
    });
    expect(checkResponse('GET', `${base}/account`, 401, new Headers(json), error('/account'))).toEqual([
      'GET /account -> 401: 401 without a Bearer challenge in WWW-Authenticate',
    ]);
    const challenged = new Headers({ ...json, 'www-authenticate': 'Bearer realm="session-host"' });
    expect(checkResponse('GET', `${base}/account`, 401, challenged, error('/account'))).toEqual([]);
    expect(checkResponse('GET', `${base}/admin/api/user`, 401, new Headers(json), error('/admin/api/user'))).toEqual([]);
  });

  it('catches an error body without details (the service sends it on every error)', () => {
    const error = JSON.stringify({ statusCode: 404, code: 'RESOURCE_NOT_FOUND', message: 'm', path: '/account', identifier: 'i', timestamp: '2026-11-22T10:00:00.000Z' });
    expect(checkResponse('GET', `${base}/session/x`, 404, new Headers(json), error).join()).toMatch(/details/);
  });
});
