/**
 * The store is busy, not broken: a request waited its bound for a pooled connection (every one
 * held by legitimate work), or PostgreSQL itself cancelled a statement that waited past its
 * lock_timeout for a row another transaction holds, or ran past its statement_timeout. The
 * database answers; the same request may simply succeed a moment later. The HTTP layer answers
 * 503 with Retry-After (health.ts's isStoreBusy), and it never counts as a store fault: /readyz
 * stays ready, and the connection is kept (the server cancelled the statement itself).
 */
export class StoreBusy extends Error {
  readonly code = 'STORE_BUSY';
}
