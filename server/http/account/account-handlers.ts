import type { Handlers } from '../../../generated/handlers.js';
import { accountView } from '../../domain/accounts.js';
import type { AccountRepository } from '../../domain/ports/accounts.js';
import type { Quota } from '../../domain/quota.js';

export function accountHandlers(accounts: AccountRepository, quota: Quota): Pick<Handlers, 'getAccount'> {
  return {
    async getAccount(_request, context) {
      const account = await accounts.findById(context.principal.accountId);
      // Authentication just checked the account exists and is active.
      if (!account) throw new Error(`account ${context.principal.accountId} vanished after authentication`);
      return { status: 200, body: accountView(account, await quota.usage(account.id)) };
    },
  };
}
