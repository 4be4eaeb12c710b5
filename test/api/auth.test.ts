import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../support/http.js';
import { useService } from '../support/service.js';

describe('authentication over real HTTP', () => {
  let clock = Date.now();
  const service = useService({}, { now: () => clock });

  const mint = async (body: object) => {
    const created = await service.call('POST', '/token', { body });
    expect(created.status).toBe(201);
    return created.json as { id: string; token: string };
  };

  async function details(headers: Record<string, string>, path = '/account') {
    const result = await service.call('GET', path, { token: null, headers });
    expectError(result, 401, 'UNAUTHORIZED', path);
    expect(result.headers.get('www-authenticate')).toBe('Bearer realm="session-host"');
    return result.json.details as string;
  }

  it('answers each kind of failure with 401, the full error body, its own details and a Bearer challenge', async () => {
    const revoked = await mint({ name: 'to revoke', scopes: ['session:read'] });
    expect((await service.call('DELETE', `/token/${revoked.id}`)).status).toBe(204);
    const expiring = await mint({ name: 'short', scopes: ['session:read'], expires_after: '1m' });
    const reader = await mint({ name: 'reader', scopes: ['session:read'] });
    clock += 61_000;

    const seen = {
      missing: await details({}),
      basic: await details({ Authorization: 'Basic dXNlcjpwYXNz' }),
      garbage: await details({ Authorization: 'Bearer not-a-token' }),
      unknown: await details({ Authorization: 'Bearer gsh_0000000000000000000000000000000000000000' }),
      revoked: await details({ Authorization: `Bearer ${revoked.token}` }),
      expired: await details({ Authorization: `Bearer ${expiring.token}` }),
      scope: await details({ Authorization: `Bearer ${reader.token}` }, '/token'),
    };
    expect(seen).toEqual({
      missing: 'missing Authorization header',
      basic: 'Authorization header must use the Bearer scheme',
      garbage: 'malformed bearer token',
      unknown: 'unknown token',
      revoked: 'token has been revoked',
      expired: 'token has expired',
      scope: 'token lacks scope token:write',
    });
  });

  it('accepts a valid token for an operation that needs no particular scope', async () => {
    const reader = await mint({ name: 'reader', scopes: ['session:read'] });
    const account = await service.call('GET', '/account', { token: reader.token });
    expect(account.status).toBe(200);
    expect(account.json.quota).toEqual({ total: 6000, used: 0, remaining: 6000 });
  });

  it('reads the scopes an operation needs from the spec (x-required-scopes)', async () => {
    const reader = await mint({ name: 'reader', scopes: ['session:read'] });
    // GET /token needs token:write; the reader's token lacks it.
    expectError(await service.call('GET', '/token', { token: reader.token }), 401, 'UNAUTHORIZED', '/token');
    const writer = await mint({ name: 'writer', scopes: ['token:write'] });
    expect((await service.call('GET', '/token', { token: writer.token })).status).toBe(200);
  });

  it('authenticates before looking at the body', async () => {
    const result = await service.call('POST', '/token', { token: null, body: '{not json' });
    expectError(result, 401, 'UNAUTHORIZED', '/token');
  });

  it('stops derived tokens when their issuer is revoked', async () => {
    const parent = await mint({ name: 'parent', scopes: ['token:write', 'session:read'] });
    const child = await service.call('POST', '/token', { token: parent.token, body: { name: 'child', scopes: ['session:read'] } });
    expect(child.status).toBe(201);
    expect((await service.call('GET', '/account', { token: child.json.token })).status).toBe(200);
    expect((await service.call('DELETE', `/token/${parent.id}`)).status).toBe(204);
    const after = await service.call('GET', '/account', { token: child.json.token });
    expectError(after, 401, 'UNAUTHORIZED', '/account');
    expect(after.json.details).toBe('token has been revoked');
  });
});
