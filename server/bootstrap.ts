/**
 * First run on a new data directory: an operator account holding one token with every scope.
 * Its value is BOOTSTRAP_TOKEN when set; otherwise a fresh one is returned to be shown once.
 */
import { randomUUID } from 'node:crypto';
import type { AccountRepository } from './domain/accounts.js';
import { allScopes } from './domain/scopes.js';
import type { Tokens } from './domain/tokens.js';

export interface BootstrapResult {
  accountId: string;
  /** The token value when it was generated here (never when it came from BOOTSTRAP_TOKEN). */
  generatedToken?: string;
}

export function bootstrap(
  accounts: AccountRepository,
  tokens: Tokens,
  options: { bootstrapToken: string | undefined; quotaMinutes: number; now: number },
): BootstrapResult | undefined {
  if (accounts.count() > 0) return undefined;
  const accountId = `acc_${randomUUID().slice(0, 8)}`;
  accounts.insert({
    id: accountId,
    name: 'Operator',
    email: null,
    quotaMinutes: options.quotaMinutes,
    usedSeconds: 0,
    operator: true,
    disabled: false,
    created: options.now,
  });
  const spec = { accountId, issuerId: null, name: 'bootstrap', scopes: [...allScopes], expiresAt: null };
  if (options.bootstrapToken) {
    tokens.mint(spec, options.bootstrapToken);
    return { accountId };
  }
  return { accountId, generatedToken: tokens.mint(spec).value };
}
