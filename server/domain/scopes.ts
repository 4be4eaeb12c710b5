/**
 * The scope rules: what a token needs to call an operation, and what it may grant to a token it
 * issues. Which scope each operation needs is written once, in the spec (x-required-scopes).
 */
import { scopeValues as allScopes, type Scope } from '../../generated/types.js';

export { allScopes, type Scope };

/**
 * Scopes only an operator account's tokens may hold: `GET /metrics` is the whole service's (every
 * account's id and quota use, the fleet's load), so a tenant's token with it read the others'
 * (outside check 9, F11).
 */
export const OPERATOR_ONLY_SCOPES: ReadonlySet<Scope> = new Set<Scope>(['metrics:read']);

/** The requested scopes an account may not hold at all (operator-only ones, for an account that is not an operator). */
export function scopesBeyondAccount(operator: boolean, requested: readonly Scope[]): Scope[] {
  return operator ? [] : requested.filter((scope) => OPERATOR_ONLY_SCOPES.has(scope));
}

/** Every scope an account's tokens may hold (an onboarded account's first token holds them all). */
export function accountScopes(operator: boolean): Scope[] {
  return allScopes.filter((scope) => scopesBeyondAccount(operator, [scope]).length === 0);
}

/** The required scopes the token does not hold. */
export function missingScopes(held: ReadonlySet<Scope>, required: readonly Scope[]): Scope[] {
  return required.filter((scope) => !held.has(scope));
}

/**
 * The requested scopes an issuer may not grant. A token delegates only what it holds, except
 * that `token:write` also lets it grant `webhook:repohost` (so an operator can hand a registry
 * a token that can only notify pushes).
 */
export function ungrantableScopes(issuer: ReadonlySet<Scope>, requested: readonly Scope[]): Scope[] {
  return requested.filter(
    (scope) => !issuer.has(scope) && !(scope === 'webhook:repohost' && issuer.has('token:write')),
  );
}
