/**
 * Compile-time checks, run by `npm run typecheck` (tsc): the generated handler interface
 * rejects an implementation that misses an operation or answers with an undocumented status.
 * Each @ts-expect-error fails the typecheck if the error it expects goes away.
 */
import type { Handlers } from '../../generated/handlers.js';
import { accountHandlers } from '../../server/http/account/account-handlers.js';
import { tokenHandlers } from '../../server/http/tokens/token-handlers.js';

declare const complete: Handlers;
declare const tokens: Parameters<typeof tokenHandlers>[0];
declare const audit: Parameters<typeof tokenHandlers>[1];
declare const accounts: Parameters<typeof accountHandlers>[0];
declare const quota: Parameters<typeof accountHandlers>[1];

// A full implementation compiles.
export const full: Handlers = { ...complete, ...tokenHandlers(tokens, audit, Date.now), ...accountHandlers(accounts, quota) };

// @ts-expect-error startSession (and every other session operation) is missing.
export const missingOperations: Handlers = { ...tokenHandlers(tokens, audit, Date.now), ...accountHandlers(accounts, quota) };

export const undocumentedStatus: Handlers = {
  ...complete,
  // @ts-expect-error 418 is not a documented response of getAccount.
  async getAccount() {
    return { status: 418, body: { id: 'a', name: 'b', quota: { total: 1, used: 0, remaining: 1 } } };
  },
};

export const wrongBody: Handlers = {
  ...complete,
  // @ts-expect-error a 200 of getAccount must carry the Account body.
  async getAccount() {
    return { status: 200, body: { id: 'a' } };
  },
};

export const wrongRequestType: Handlers = {
  ...complete,
  async createToken(request, context) {
    // @ts-expect-error the request body's scopes are Scope values, not numbers.
    const first: number = request.body.scopes[0]!;
    void first;
    return complete.createToken(request, context);
  },
};

export const schemeContexts: Handlers = {
  ...complete,
  async getAccount(request, context) {
    // A bearer operation's context always carries the token's principal: no `!` needed.
    const accountId: string = context.principal.accountId;
    void accountId;
    // @ts-expect-error a bearer operation has no panel operator.
    void context.operator;
    return complete.getAccount(request, context);
  },
  async getAdminSession(request, context) {
    // An adminSession operation's context always carries the signed-in operator.
    const email: string = context.operator.email;
    void email;
    // @ts-expect-error an adminSession operation has no bearer principal.
    void context.principal;
    return complete.getAdminSession(request, context);
  },
  async signIn(request, context) {
    // @ts-expect-error an operation without security knows nobody.
    void context.operator;
    return complete.signIn(request, context);
  },
};
