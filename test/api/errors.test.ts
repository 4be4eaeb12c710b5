import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../support/http.js';
import { useService } from '../support/service.js';

describe('errors keep the spec error body', () => {
  const service = useService();

  it('answers an unknown route with 404', async () => {
    const result = await service.call('GET', '/no/such/route');
    expectError(result, 404, 'RESOURCE_NOT_FOUND', '/no/such/route');
    expect(result.json.details).toContain('/no/such/route');
  });

  it('answers a path with broken percent-encoding with 404 in the error body', async () => {
    const result = await service.call('GET', '/session/%E0%A4%A');
    expectError(result, 404, 'RESOURCE_NOT_FOUND', '/session/%E0%A4%A');
  });

  it('answers malformed JSON with 422', async () => {
    const result = await service.call('POST', '/token', { body: '{"name": "x", "scopes": [' });
    expectError(result, 422, 'INVALID_REQUEST', '/token');
    expect(result.json.violations).toEqual([{ field: 'body', description: 'must be a JSON document' }]);
  });

  it('answers an empty JSON body with 422', async () => {
    const result = await service.call('POST', '/token', { body: '', headers: { 'Content-Type': 'application/json' } });
    expectError(result, 422, 'INVALID_REQUEST', '/token');
  });

  it('answers a prototype-pollution body with 422, not 500', async () => {
    const result = await service.call('POST', '/token', { body: '{"name":"x","scopes":["session:read"],"__proto__":{"a":1}}' });
    expectError(result, 422, 'INVALID_REQUEST', '/token');
  });

  it('answers a wrong content type with 415', async () => {
    const result = await service.call('POST', '/token', { body: 'name=x', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    expectError(result, 415, 'UNSUPPORTED_MEDIA_TYPE', '/token');
  });

  it('answers an oversized body with 413', async () => {
    const result = await service.call('POST', '/token', { body: { name: 'x'.repeat(1_100_000), scopes: ['session:read'] } });
    expectError(result, 413, 'PAYLOAD_TOO_LARGE', '/token');
  });

  it('ignores a body sent to an operation that takes none', async () => {
    // DELETE /token/{id} documents no 415: a stray body must not change its answer.
    const plain = await service.call('DELETE', '/token/tok_unknown', { body: 'whatever', headers: { 'Content-Type': 'text/plain' } });
    expectError(plain, 404, 'RESOURCE_NOT_FOUND', '/token/tok_unknown');
    const json = await service.call('DELETE', '/token/tok_unknown', { body: '{broken' });
    expectError(json, 404, 'RESOURCE_NOT_FOUND', '/token/tok_unknown');
  });

  it('sends API-Version on every response and a fresh identifier on every error', async () => {
    const first = await service.call('GET', '/nope');
    const second = await service.call('GET', '/nope');
    expect(first.json.identifier).not.toBe(second.json.identifier);
    expect((await service.call('GET', '/account')).headers.get('api-version')).toMatch(/^\d+\.\d+\.\d+$/);
  });
});
