/**
 * First run on a new data directory: an operator account holding one token with every scope.
 * Its value is BOOTSTRAP_TOKEN when set; otherwise a fresh one is returned to be shown once.
 */
import type { AccountRepository } from './domain/ports/accounts.js';
import { onboardAccount } from './domain/onboarding.js';
import type { Tokens } from './domain/tokens.js';

export interface BootstrapResult {
  accountId: string;
  /** The token value when it was generated here (never when it came from BOOTSTRAP_TOKEN). */
  generatedToken?: string;
}

export async function bootstrap(
  accounts: AccountRepository,
  tokens: Tokens,
  options: { bootstrapToken: string | undefined; quotaMinutes: number; now: number },
): Promise<BootstrapResult | undefined> {
  if ((await accounts.count()) > 0) return undefined;
  const { accountId, token } = await onboardAccount(
    accounts,
    tokens,
    {
      name: 'Operator',
      quotaMinutes: options.quotaMinutes,
      operator: true,
      tokenName: 'bootstrap',
      ...(options.bootstrapToken ? { tokenValue: options.bootstrapToken } : {}),
    },
    options.now,
  );
  return options.bootstrapToken ? { accountId } : { accountId, generatedToken: token };
}
