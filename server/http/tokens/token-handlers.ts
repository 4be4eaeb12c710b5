import type { Handlers } from '../../../generated/handlers.js';
import { AUDIT_KEPT_PER_ACCOUNT } from '../../domain/admin.js';
import type { AuditLog } from '../../domain/ports/audit.js';
import type { Principal, Tokens, TokenView } from '../../domain/tokens.js';
import type { TokenRecord } from '../../domain/ports/tokens.js';
import { fail } from '../errors.js';
import { iso, isoOrNull } from '../wire/time.js';

export function tokenBody(view: TokenView) {
  return {
    id: view.id,
    name: view.name,
    scopes: view.scopes,
    token: view.token,
    status: view.status,
    expires_at: isoOrNull(view.expiresAt),
    created: iso(view.created),
    last_used: isoOrNull(view.lastUsed),
  };
}

/** A token just minted: the only answer that carries its value. */
export function tokenCreatedBody(record: TokenRecord, value: string) {
  return { id: record.id, name: record.name, scopes: record.scopes, token: value, expires_at: isoOrNull(record.expiresAt), created: iso(record.created) };
}

export function tokenHandlers(tokens: Tokens, audit: AuditLog, now: () => number): Pick<Handlers, 'createToken' | 'listTokens' | 'revokeToken'> {
  // Token changes through the API land in the account's audit log too, beside the panel's.
  const audited = (principal: Principal, action: 'token_created' | 'token_deleted', tokenId: string, details: string) =>
    audit.record({ accountId: principal.accountId, at: now(), actor: `API token ${principal.tokenId}`, action, tokenId, details }, AUDIT_KEPT_PER_ACCOUNT);
  return {
    async createToken({ body }, context) {
      const result = await tokens.create(context.principal, {
        name: body.name,
        scopes: body.scopes,
        ...(body.expires_after === undefined ? {} : { expiresAfter: body.expires_after }),
      });
      if (!result.ok) {
        if (result.reason === 'too_many') {
          return fail(context, 'CONFLICT', { details: `the account holds ${result.max} unexpired tokens, the most allowed; revoke one first` });
        }
        if (result.reason === 'too_deep') {
          return fail(context, 'CONFLICT', {
            details: `a token minted by this one would have more than ${result.max} issuers above it, the most allowed; mint from one of its issuers`,
          });
        }
        if (result.reason === 'ungrantable') {
          return fail(context, 'UNAUTHORIZED', {
            details: `token cannot grant scope ${result.scopes.join(', ')}: it does not hold it`,
          });
        }
        // Unreachable while the spec's Duration pattern and the grammar agree (a test holds them together).
        return fail(context, 'INVALID_REQUEST', {
          violations: [{ field: 'body.expires_after', description: 'must be a duration such as 30m, 2h or 1h30m' }],
        });
      }
      await audited(context.principal, 'token_created', result.record.id, `${result.record.name} (${result.record.scopes.join(', ')}) through the API`);
      return { status: 201, body: tokenCreatedBody(result.record, result.value) };
    },

    async listTokens(_request, context) {
      return { status: 200, body: { tokens: (await tokens.list(context.principal.accountId)).map(tokenBody) } };
    },

    async revokeToken({ params }, context) {
      if (!(await tokens.revokeAs(context.principal, params.id))) {
        return fail(context, 'RESOURCE_NOT_FOUND', { details: `token ${params.id} is unknown, or not one this token minted` });
      }
      await audited(context.principal, 'token_deleted', params.id, 'revoked through the API');
      return { status: 204 };
    },
  };
}
