/**
 * Bearer authentication. The scopes an operation needs come from the route table (the spec's
 * x-required-scopes); every failure is 401 with a `details` that says which check failed.
 */
import type { AuthFailure, AuthResult, Tokens } from '../domain/tokens.js';
import type { Scope } from '../domain/scopes.js';

const BEARER = /^Bearer +(\S+) *$/i;

/** The bearer value an Authorization header carries, or why it carries none (synchronous: the read path's first check). */
function bearerValue(header: string | undefined): string | AuthFailure {
  if (header === undefined || header.trim() === '') return { reason: 'missing' };
  if (!/^Bearer(\s|$)/i.test(header)) return { reason: 'scheme' };
  const match = BEARER.exec(header);
  return match ? match[1]! : { reason: 'malformed' };
}

/**
 * Authenticate an Authorization header for an operation's scopes: at once (no promise) when the
 * token's verdict is cached, as nearly every request of a busy client is; else a promise.
 */
export function authenticateHeader(tokens: Tokens, header: string | undefined, required: readonly Scope[]): AuthResult | Promise<AuthResult> {
  const value = bearerValue(header);
  if (typeof value !== 'string') return { ok: false, ...value };
  return tokens.authenticateCached(value, required) ?? tokens.authenticate(value, required);
}

export function describeAuthFailure(failure: AuthFailure): string {
  switch (failure.reason) {
    case 'missing':
      return 'missing Authorization header';
    case 'scheme':
      return 'Authorization header must use the Bearer scheme';
    case 'malformed':
      return 'malformed bearer token';
    case 'unknown':
      return 'unknown token';
    case 'revoked':
      return 'token has been revoked';
    case 'disabled':
      return 'token is disabled';
    case 'expired':
      return 'token has expired';
    case 'issuer_invalid':
      return 'the token that issued this token is no longer valid';
    case 'account_disabled':
      return 'account is disabled';
    case 'insufficient_scope':
      return `token lacks scope ${failure.missing.join(', ')}`;
  }
}
