/**
 * A 422 for a value outside an enum names the allowed values. ajv's own message, "must be equal
 * to one of the allowed values", left a caller who typed a wrong scope or status to find the
 * list in the spec (outside check oc3-newcomer).
 */
import { describe, expect, it } from 'vitest';
import { compileValidator, violationsOf } from '../../server/http/validation.js';

describe('enum violations', () => {
  it('lists the allowed values of a body field and of a query parameter', () => {
    const body = compileValidator({ type: 'object', properties: { scopes: { type: 'array', items: { type: 'string', enum: ['session:read', 'session:start'] } } } }, 'body');
    expect(body({ scopes: ['session:write'] })).toBe(false);
    expect(violationsOf(body.errors!, 'body')).toEqual([{ field: 'body.scopes[0]', description: 'must be one of: session:read, session:start' }]);

    const query = compileValidator({ type: 'object', properties: { status: { type: 'string', enum: ['created', 'running'] } } }, 'querystring');
    expect(query({ status: 'run' })).toBe(false);
    expect(violationsOf(query.errors!, 'querystring')).toEqual([{ field: 'query.status', description: 'must be one of: created, running' }]);
  });
});
