/** Instants on the wire: epoch milliseconds inside, the spec's `date-time` (ISO 8601, UTC) outside. */
export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** For the spec's nullable dates (`expires_at: null` is "never"). */
export function isoOrNull(ms: number | null): string | null {
  return ms === null ? null : iso(ms);
}
