/**
 * Onboarding: a new account with a runtime quota and its first token, holding every scope the
 * account may hold (operator-only ones for operators only).
 * The bootstrap operator is onboarded this way; so are studios, by operators (the admin panel).
 */
import { randomUUID } from 'node:crypto';
import type { AccountRepository } from './ports/accounts.js';
import { accountScopes } from './scopes.js';
import type { Tokens } from './tokens.js';

export interface Onboarding {
  name: string;
  email?: string;
  quotaMinutes: number;
  operator: boolean;
  /** The first token's name (default `first token`) and value (generated when absent). */
  tokenName?: string;
  tokenValue?: string;
}

export function newAccountId(): string {
  return `acc_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
}

export async function onboardAccount(
  accounts: AccountRepository,
  tokens: Tokens,
  onboarding: Onboarding,
  now: number,
): Promise<{ accountId: string; token: string }> {
  const accountId = newAccountId();
  await accounts.insert({
    id: accountId,
    name: onboarding.name,
    email: onboarding.email ?? null,
    quotaMinutes: onboarding.quotaMinutes,
    usedSeconds: 0,
    operator: onboarding.operator,
    disabled: false,
    created: now,
  });
  const spec = { accountId, issuerId: null, name: onboarding.tokenName ?? 'first token', scopes: accountScopes(onboarding.operator), expiresAt: null };
  return { accountId, token: (await tokens.mint(spec, onboarding.tokenValue)).value };
}
