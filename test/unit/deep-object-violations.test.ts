/**
 * A deepObject query parameter sent flat (`filter=mode:ranked`) is a 422 that says how to send it:
 * ajv's "must be object" left a caller guessing at the bracket syntax (outside check oc3-newcomer).
 */
import { describe, expect, it } from 'vitest';
import { compileValidator, violationsOf } from '../../server/http/validation.js';

describe('deepObject query violations', () => {
  it('names the bracket form of the parameter', () => {
    const query = compileValidator({ type: 'object', properties: { filter: { type: 'object', additionalProperties: { type: 'string' } } } }, 'querystring');
    expect(query({ filter: 'mode:ranked' })).toBe(false);
    expect(violationsOf(query.errors!, 'querystring')).toEqual([{ field: 'query.filter', description: 'must be sent as filter[<key>]=<value>, one per key' }]);
  });

  it('keeps ajv\'s wording for a body field of the wrong type', () => {
    const body = compileValidator({ type: 'object', properties: { labels: { type: 'object' } } }, 'body');
    expect(body({ labels: 'x' })).toBe(false);
    expect(violationsOf(body.errors!, 'body')).toEqual([{ field: 'body.labels', description: 'must be object' }]);
  });
});
