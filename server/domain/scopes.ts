/**
 * The scope rules: what a token needs to call an operation, and what it may grant to a token it
 * issues. Which scope each operation needs is written once, in the spec (x-required-scopes).
 */
import { scopeValues as allScopes, type Scope } from '../../generated/types.js';

export { allScopes, type Scope };

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
