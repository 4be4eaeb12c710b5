import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scopeValues } from '../../generated/types.js';
import { MAX_DELEGATION_DEPTH } from '../../server/domain/tokens.js';
import { expectError } from '../support/http.js';
import { useService } from '../support/service.js';

describe('tokens over real HTTP', () => {
  const start = Date.parse('2026-11-22T10:00:00.000Z');
  let clock = start;
  const service = useService({}, { now: () => clock });

  it.each([
    ['1h30m', 90],
    ['45m', 45],
    ['2h', 120],
  ])('accepts expires_after %s and sets expires_at %i minutes ahead', async (expiresAfter, minutes) => {
    const created = await service.call('POST', '/token', {
      body: { name: 'timed', scopes: ['session:read'], expires_after: expiresAfter },
    });
    expect(created.status).toBe(201);
    expect(created.json.expires_at).toBe(new Date(clock + minutes * 60_000).toISOString());
    expect(created.json.created).toBe(new Date(clock).toISOString());
  });

  it('mints a token holding every scope there is (as the bootstrap token does)', async () => {
    const created = await service.call('POST', '/token', { body: { name: 'all', scopes: [...scopeValues] } });
    expect(created.status).toBe(201);
    expect([...created.json.scopes].sort()).toEqual([...scopeValues].sort());
  });

  it('leaves expires_at null when expires_after is omitted', async () => {
    const created = await service.call('POST', '/token', { body: { name: 'forever', scopes: ['session:read'] } });
    expect(created.status).toBe(201);
    expect(created.json.expires_at).toBeNull();
    expect(created.json.token).toMatch(/^gsh_[0-9A-Za-z]{40}$/);
  });

  it.each(['90', '1x', 'm', '0m', '1h1h'])('refuses expires_after %j with 422 naming the field', async (expiresAfter) => {
    const result = await service.call('POST', '/token', {
      body: { name: 'bad', scopes: ['session:read'], expires_after: expiresAfter },
    });
    expectError(result, 422, 'INVALID_REQUEST', '/token');
    expect(result.json.violations).toContainEqual({
      field: 'body.expires_after',
      description: 'must be a duration such as 30m, 2h or 1h30m',
    });
  });

  it('refuses to delegate scopes the issuer does not hold', async () => {
    const limited = await service.call('POST', '/token', { body: { name: 'limited', scopes: ['token:write', 'session:read'] } });
    const result = await service.call('POST', '/token', {
      token: limited.json.token,
      body: { name: 'escalate', scopes: ['session:read', 'session:start'] },
    });
    expectError(result, 401, 'UNAUTHORIZED', '/token');
    expect(result.json.details).toContain('session:start');
  });

  it('lets a token:write token grant webhook:repohost without holding it', async () => {
    const writer = await service.call('POST', '/token', { body: { name: 'writer', scopes: ['token:write'] } });
    const result = await service.call('POST', '/token', {
      token: writer.json.token,
      body: { name: 'registry', scopes: ['webhook:repohost'] },
    });
    expect(result.status).toBe(201);
    expect(result.json.scopes).toEqual(['webhook:repohost']);
  });

  it('caps a derived token at its issuer expiry', async () => {
    const issuer = await service.call('POST', '/token', {
      body: { name: 'issuer', scopes: ['token:write', 'session:read'], expires_after: '30m' },
    });
    const longer = await service.call('POST', '/token', {
      token: issuer.json.token,
      body: { name: 'longer', scopes: ['session:read'], expires_after: '2h' },
    });
    expect(longer.status).toBe(201);
    expect(longer.json.expires_at).toBe(issuer.json.expires_at);
    const unbounded = await service.call('POST', '/token', {
      token: issuer.json.token,
      body: { name: 'unbounded', scopes: ['session:read'] },
    });
    expect(unbounded.json.expires_at).toBe(issuer.json.expires_at);
  });

  it('lists tokens masked, newest first, with status and last use', async () => {
    const created = await service.call('POST', '/token', { body: { name: 'listed', scopes: ['session:read'] } });
    await service.call('GET', '/account', { token: created.json.token });
    const listed = await service.call('GET', '/token');
    expect(listed.status).toBe(200);
    const entry = listed.json.tokens.find((t: { id: string }) => t.id === created.json.id);
    expect(entry).toMatchObject({ name: 'listed', status: 'active', scopes: ['session:read'] });
    expect(entry.token).toBe(`gsh_…${created.json.token.slice(-4)}`);
    expect(entry.last_used).toBe(new Date(clock).toISOString());
    expect(listed.text).not.toContain(created.json.token);
    const times = listed.json.tokens.map((t: { created: string }) => t.created);
    expect(times).toEqual([...times].sort().reverse());
  });

  it('shows an expired token as expired', async () => {
    const created = await service.call('POST', '/token', { body: { name: 'brief', scopes: ['session:read'], expires_after: '1m' } });
    clock += 2 * 60_000;
    const entry = (await service.call('GET', '/token')).json.tokens.find((t: { id: string }) => t.id === created.json.id);
    expect(entry.status).toBe('expired');
  });

  it('revokes a token (204), then no longer lists it and answers 404 for it', async () => {
    const created = await service.call('POST', '/token', { body: { name: 'doomed', scopes: ['session:read'] } });
    expect((await service.call('DELETE', `/token/${created.json.id}`)).status).toBe(204);
    const listed = await service.call('GET', '/token');
    expect(listed.json.tokens.map((t: { id: string }) => t.id)).not.toContain(created.json.id);
    expectError(await service.call('DELETE', `/token/${created.json.id}`), 404, 'RESOURCE_NOT_FOUND', `/token/${created.json.id}`);
    expectError(await service.call('DELETE', '/token/tok_unknown'), 404, 'RESOURCE_NOT_FOUND', '/token/tok_unknown');
  });

  it('refuses bodies that miss required fields, add unknown ones, or repeat scopes', async () => {
    for (const body of [
      { scopes: ['session:read'] },
      { name: 'x' },
      { name: 'x', scopes: [] },
      { name: 'x', scopes: ['session:read', 'session:read'] },
      { name: 'x', scopes: ['nope:scope'] },
      { name: 'x', scopes: ['session:read'], admin: true },
      { name: 42, scopes: ['session:read'] },
    ]) {
      const result = await service.call('POST', '/token', { body });
      expectError(result, 422, 'INVALID_REQUEST', '/token');
      expect(result.json.violations.length, JSON.stringify(body)).toBeGreaterThan(0);
    }
  });

  it(`mints down a chain of at most ${MAX_DELEGATION_DEPTH} issuers above a token, then 409 naming the limit; a token nearer the root still mints`, async () => {
    // The bootstrap token is a root (no issuer): the chain's tokens have 1, 2, ... issuers above them.
    const chain: string[] = [];
    for (let depth = 1; depth <= MAX_DELEGATION_DEPTH; depth++) {
      const minted = await service.call('POST', '/token', { token: chain.at(-1), body: { name: `depth ${depth}`, scopes: ['token:write'] } });
      expect(minted.status, `depth ${depth}`).toBe(201);
      chain.push(minted.json.token);
    }
    const refused = await service.call('POST', '/token', { token: chain.at(-1), body: { name: 'too deep', scopes: ['token:write'] } });
    expectError(refused, 409, 'CONFLICT', '/token');
    expect(refused.json.details).toContain(`more than ${MAX_DELEGATION_DEPTH} issuers above it`);
    // Nothing was minted; the deepest token still works, and its issuer still mints (beside it).
    expect((await service.call('GET', '/token', { token: chain.at(-1) })).status).toBe(200);
    expect((await service.call('POST', '/token', { token: chain.at(-2), body: { name: 'sibling', scopes: ['token:write'] } })).status).toBe(201);
  });
});
