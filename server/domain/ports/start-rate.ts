/** Limits how fast an account starts sessions in a location. */
export interface StartRateLimiter {
  take(accountId: string, location: string): Promise<{ ok: true } | { ok: false; retryAfterMs: number }>;
}
