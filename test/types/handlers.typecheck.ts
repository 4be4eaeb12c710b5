/**
 * Compile-time checks, run by `npm run typecheck` (tsc): the generated handler interface
 * rejects an implementation that misses an operation or answers with an undocumented status.
 * Each @ts-expect-error fails the typecheck if the error it expects goes away.
 */
import type { Handlers } from '../../generated/handlers.js';
import type { RequestContext } from '../../server/http/context.js';
import { accountHandlers } from '../../server/http/account-handlers.js';
import { tokenHandlers } from '../../server/http/token-handlers.js';

declare const complete: Handlers<RequestContext>;
declare const tokens: Parameters<typeof tokenHandlers>[0];
declare const accounts: Parameters<typeof accountHandlers>[0];
declare const quota: Parameters<typeof accountHandlers>[1];

// A full implementation compiles.
export const full: Handlers<RequestContext> = { ...complete, ...tokenHandlers(tokens), ...accountHandlers(accounts, quota) };

// @ts-expect-error startSession (and every other session operation) is missing.
export const missingOperations: Handlers<RequestContext> = { ...tokenHandlers(tokens), ...accountHandlers(accounts, quota) };

export const undocumentedStatus: Handlers<RequestContext> = {
  ...complete,
  // @ts-expect-error 418 is not a documented response of getAccount.
  async getAccount() {
    return { status: 418, body: { id: 'a', name: 'b', quota: { total: 1, used: 0, remaining: 1 } } };
  },
};

export const wrongBody: Handlers<RequestContext> = {
  ...complete,
  // @ts-expect-error a 200 of getAccount must carry the Account body.
  async getAccount() {
    return { status: 200, body: { id: 'a' } };
  },
};

export const wrongRequestType: Handlers<RequestContext> = {
  ...complete,
  async createToken(request, context) {
    // @ts-expect-error the request body's scopes are Scope values, not numbers.
    const first: number = request.body.scopes[0]!;
    void first;
    return complete.createToken(request, context);
  },
};
