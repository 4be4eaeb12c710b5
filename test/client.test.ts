import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, createSessionHostClient, unwrap } from '../client/index.js';
import { contractFetch } from './support/contract.js';
import { usePrism } from './support/prism.js';
import { startService, type RunningService } from './support/service.js';

describe('the typed client against the real service', () => {
  const contract = contractFetch();
  let running: RunningService;

  beforeAll(async () => {
    running = await startService();
  });
  afterAll(async () => {
    await running.close();
    expect(contract.violations).toEqual([]);
  });

  const client = (token?: string) =>
    createSessionHostClient({ baseUrl: running.url, fetch: contract.fetch, ...(token ? { token } : {}) });

  it('creates, lists and revokes a token and reads the account', async () => {
    const api = client(running.token);
    const created = unwrap(await api.POST('/token', { body: { name: 'sdk', scopes: ['session:read'], expires_after: '2h' } }));
    expect(created.scopes).toEqual(['session:read']);

    const account = unwrap(await client(created.token).GET('/account'));
    expect(account.quota.remaining).toBe(account.quota.total);

    const listed = unwrap(await api.GET('/token'));
    expect(listed.tokens.map((t) => t.id)).toContain(created.id);

    const revoked = await api.DELETE('/token/{id}', { params: { path: { id: created.id } } });
    expect(revoked.response.status).toBe(204);
  });

  it('turns an error into an ApiError carrying code, statusCode and identifier', async () => {
    const result = await client('gsh_0000000000000000000000000000000000000000').GET('/account');
    expect(result.error?.code).toBe('UNAUTHORIZED');
    let thrown: unknown;
    try {
      unwrap(result);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ApiError);
    const apiError = thrown as ApiError;
    expect(apiError).toMatchObject({ statusCode: 401, code: 'UNAUTHORIZED', details: 'unknown token' });
    expect(apiError.identifier).toBe(result.error?.identifier);
    expect(apiError.message).toContain(apiError.identifier);
  });

  it('reports the violations of a 422', async () => {
    const result = await client(running.token).POST('/token', {
      body: { name: 'bad', scopes: ['session:read'], expires_after: '0m' },
    });
    expect(() => unwrap(result)).toThrow(ApiError);
    expect(result.error?.violations?.[0]?.field).toBe('body.expires_after');
  });
});

describe('the typed client against the Prism mock of the spec', () => {
  const prism = usePrism();

  it("gets the spec's examples back, typed", async () => {
    const api = createSessionHostClient({ baseUrl: prism.url, token: 'gsh_MockMockMockMockMockMockMock' });
    const account = unwrap(await api.GET('/account'));
    expect(account).toEqual({ id: 'acc_operator', name: 'Operator', quota: { total: 6000, used: 12.5, remaining: 5987.5 } });
    const created = unwrap(await api.POST('/token', { body: { name: 'matchmaker', scopes: ['session:start'] } }));
    expect(created.token).toMatch(/^gsh_/);
    const sessions = unwrap(await api.GET('/session'));
    expect(sessions.sessions[0]?.status).toBe('running');
  });

  it('gets a 401 ApiError from the mock without a token', async () => {
    const api = createSessionHostClient({ baseUrl: prism.url });
    const result = await api.GET('/account');
    expect(result.response.status).toBe(401);
    expect(() => unwrap(result)).toThrow(ApiError);
  });

  it('gets a 422 from the mock for a body that breaks the schema', async () => {
    const api = createSessionHostClient({ baseUrl: prism.url, token: 'gsh_MockMockMockMockMockMockMock' });
    // @ts-expect-error the body misses the required scopes, which the types also forbid.
    const result = await api.POST('/token', { body: { name: 'no scopes' } });
    expect(result.response.status).toBe(422);
  });
});
