import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, fetchLimit, pageAfter, pageOf } from '../../server/http/wire/paging.js';

const items = (n: number) => Array.from({ length: n }, (_, i) => ({ created: 1_000 + i, id: `s${i}` }));

describe('cursor paging', () => {
  it('asks the store for one more than the page, and everything without a limit', () => {
    expect(fetchLimit(10)).toEqual({ limit: 11 });
    expect(fetchLimit(undefined)).toEqual({});
  });

  it('gives the next cursor only when the store found more than the page', () => {
    expect(pageOf(items(3), 3)).toEqual({ page: items(3), nextCursor: null });
    const { page, nextCursor } = pageOf(items(4), 3);
    expect(page).toEqual(items(3));
    expect(decodeCursor(nextCursor!)).toEqual({ created: 1_002, id: 's2' });
    expect(pageOf(items(4), undefined).nextCursor).toBeNull();
  });

  it('reads back its own cursors and refuses any other text as a violation of query.cursor', () => {
    expect(pageAfter(encodeCursor({ created: 5, id: 'x' }))).toEqual({ ok: true, after: { created: 5, id: 'x' } });
    expect(pageAfter(undefined)).toEqual({ ok: true });
    for (const bad of ['not-a-cursor', Buffer.from('[1.5,"x"]').toString('base64url'), Buffer.from('{"a":1}').toString('base64url')]) {
      expect(pageAfter(bad)).toEqual({ ok: false, violation: { field: 'query.cursor', description: 'is not a cursor this service issued' } });
    }
  });
});
