/**
 * Cursor paging, the same for every list: the cursor is the (created, id) of the last item of a
 * page, with its account where ids repeat across accounts (sessions), opaque to callers; the store is asked for one more item than the page holds, which tells
 * whether another page follows.
 */
import type { Violation } from '../errors.js';

export interface Position {
  created: number;
  id: string;
  accountId?: string;
}

export function encodeCursor(position: Position): string {
  const tuple = position.accountId === undefined ? [position.created, position.id] : [position.created, position.id, position.accountId];
  return Buffer.from(JSON.stringify(tuple)).toString('base64url');
}

export function decodeCursor(cursor: string): Position | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!Array.isArray(value) || !Number.isSafeInteger(value[0]) || typeof value[1] !== 'string') return undefined;
    if (value.length === 2) return { created: value[0] as number, id: value[1] };
    if (value.length === 3 && typeof value[2] === 'string') return { created: value[0] as number, id: value[1], accountId: value[2] };
  } catch {
    // Fall through: not a cursor we issued.
  }
  return undefined;
}

/** The `cursor` query parameter as a position to page after, or the violation to answer 422 with. */
export function pageAfter(cursor: string | undefined): { ok: true; after?: Position } | { ok: false; violation: Violation } {
  if (cursor === undefined) return { ok: true };
  const after = decodeCursor(cursor);
  if (!after) return { ok: false, violation: { field: 'query.cursor', description: 'is not a cursor this service issued' } };
  return { ok: true, after };
}

/** What to ask the store for: one more than the page (no limit: everything). */
export function fetchLimit(limit: number | undefined): { limit?: number } {
  return limit === undefined ? {} : { limit: limit + 1 };
}

/** The page out of what the store found (asked with fetchLimit), and the cursor of the next one. */
export function pageOf<T extends Position>(found: readonly T[], limit: number | undefined): { page: T[]; nextCursor: string | null } {
  if (limit === undefined || found.length <= limit) return { page: [...found], nextCursor: null };
  const page = found.slice(0, limit);
  return { page, nextCursor: encodeCursor(page[page.length - 1]!) };
}
