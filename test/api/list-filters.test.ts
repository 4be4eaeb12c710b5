/**
 * List filters are validated against the spec before use (malformed deepObject shapes are 422
 * naming the parameter). Memory across many filter shapes: list-memory.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { expectError } from '../support/http.js';
import { useService } from '../support/service.js';

describe('session list filters', () => {
  const service = useService({ runtime: 'simulated' });

  it.each([
    ['filter=abc', 'query.filter'],
    ['filter=[object Object]', 'query.filter'],
    ['filterNot=abc', 'query.filterNot'],
    ['filter=abc&filter[mode]=ranked', 'query.filter'],
    ['filter[mode]=a&filter[mode]=b', 'query.filter.mode'],
    ['playerCount=3', 'query.playerCount'],
    ['playerCount[eq]=1', 'query.playerCount.eq'],
    ['playerCount[lt]=many', 'query.playerCount.lt'],
  ])('answers 422 to %s, naming %s', async (query, field) => {
    const result = await service.call('GET', `/session?${encodeURI(query)}`);
    expectError(result, 422, 'INVALID_REQUEST', '/session');
    expect(result.json.violations.map((v: { field: string }) => v.field)).toContain(field);
  });

  it('enforces maxProperties: 16 label filters are fine, 17 are 422', async () => {
    const labels = (n: number) => Array.from({ length: n }, (_, i) => `filter[k${i}]=v`).join('&');
    expect((await service.call('GET', `/session?${labels(16)}`)).status).toBe(200);
    const result = await service.call('GET', `/session?${labels(17)}`);
    expectError(result, 422, 'INVALID_REQUEST', '/session');
    expect(result.json.violations).toContainEqual({ field: 'query.filter', description: expect.stringContaining('16') });
  });

  it('treats __proto__ and constructor as plain label names', async () => {
    const result = await service.call('GET', '/session?all=true&filter[__proto__]=x&filter[constructor]=y&filterNot[toString]=z');
    expect(result.status).toBe(200);
    expect(result.json.sessions).toEqual([]);
  });
});
