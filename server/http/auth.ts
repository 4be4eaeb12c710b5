/**
 * Bearer authentication. The scopes an operation needs come from the route table (the spec's
 * x-required-scopes); every failure is 401 with a `details` that says which check failed.
 */
import type { AuthFailure, AuthResult, Tokens } from '../domain/tokens.js';
import type { Scope } from '../domain/scopes.js';

const BEARER = /^Bearer +(\S+) *$/i;

export async function authenticateHeader(tokens: Tokens, header: string | undefined, required: readonly Scope[]): Promise<AuthResult> {
  if (header === undefined || header.trim() === '') return { ok: false, reason: 'missing' };
  if (!/^Bearer(\s|$)/i.test(header)) return { ok: false, reason: 'scheme' };
  const match = BEARER.exec(header);
  if (!match) return { ok: false, reason: 'malformed' };
  return tokens.authenticate(match[1]!, required);
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
