/**
 * The admin panel's API (/admin/api, tag Admin): thin handlers over Operators (sign-in),
 * Admin (accounts, tokens, audit), Sessions and Catalog (fleet). The onRequest hook has
 * already checked the session cookie and, on changes, the CSRF token.
 */
import type { Handlers } from '../../../generated/handlers.js';
import type { Admin, UserView } from '../../domain/admin.js';
import type { AuditEntry } from '../../domain/ports/audit.js';
import type { Catalog } from '../../domain/catalog.js';
import type { Operators, PanelSession } from '../../domain/operators.js';
import type { AnySessionResult, Sessions } from '../../domain/sessions.js';
import type { OverviewHistory } from '../../observability/overview.js';
import { clearedSessionCookie, sessionCookie } from './admin-auth.js';
import type { RequestContext } from '../context.js';
import { fail } from '../errors.js';
import { sessionBody } from '../session-view.js';
import { tokenBody, tokenCreatedBody } from '../tokens/token-handlers.js';
import { fetchLimit, pageAfter, pageOf } from '../wire/paging.js';
import { iso } from '../wire/time.js';

type AdminOperations =
  | 'signIn'
  | 'getAdminSession'
  | 'signOut'
  | 'listUsers'
  | 'createUser'
  | 'getUser'
  | 'updateUser'
  | 'listUserTokens'
  | 'createUserToken'
  | 'updateUserToken'
  | 'deleteUserToken'
  | 'revealUserToken'
  | 'listUserAudit'
  | 'listFleetLocations'
  | 'updateNode'
  | 'listAllSessions'
  | 'stopAnySession'
  | 'tailSessionLogs'
  | 'listImages'
  | 'getOverview';

const LOG_TAIL_BYTES = 64 * 1024;

function userBody(user: UserView) {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    operator: user.operator,
    disabled: user.disabled,
    created: iso(user.created),
    quota: { total: user.quotaMinutes, used: user.usage.usedSeconds / 60, remaining: user.usage.remainingSeconds / 60 },
    max_sessions: user.maxSessions ?? null,
    locations: user.locations,
    images: user.images,
  };
}

function auditBody(entry: AuditEntry) {
  return { id: entry.id, at: iso(entry.at), actor: entry.actor, action: entry.action, token_id: entry.tokenId, details: entry.details };
}

/** A session the panel named that is unknown, or whose id several accounts use (name the account). */
function anySessionMissing(context: RequestContext, id: string, found: Exclude<AnySessionResult, { ok: true }>) {
  return found.reason === 'not_found'
    ? fail(context, 'RESOURCE_NOT_FOUND', { details: `session ${id} is unknown` })
    : fail(context, 'CONFLICT', { details: `session id ${id} is used by the accounts ${found.accounts.join(', ')}: pass account` });
}

function sessionOfPanel(session: PanelSession) {
  return { email: session.email, csrf_token: session.csrf, expires_at: iso(session.expiresAt) };
}

export function adminHandlers(deps: {
  operators: Operators;
  admin: Admin;
  sessions: Sessions;
  catalog: Catalog;
  overview: OverviewHistory;
  now: () => number;
}): Pick<Handlers, AdminOperations> {
  const { operators, admin, sessions, catalog } = deps;
  const noUser = (context: RequestContext, id: string) => fail(context, 'RESOURCE_NOT_FOUND', { details: `account ${id} is unknown` });
  const noToken = (context: RequestContext, id: string) => fail(context, 'RESOURCE_NOT_FOUND', { details: `token ${id} is unknown` });

  return {
    async signIn({ body }, context) {
      const result = await operators.signIn(body.email, body.password, context.clientAddress, context.signal);
      if (!result.ok) {
        if (result.reason === 'rate_limited') {
          return {
            ...fail(context, 'TOO_MANY_REQUESTS', { details: 'too many sign-in attempts; try again later' }),
            headers: { 'Retry-After': String(Math.max(1, Math.ceil(result.retryAfterMs / 1000))) } as Record<string, string>,
          };
        }
        // One answer for an unknown email and a wrong password.
        return fail(context, 'UNAUTHORIZED', { details: 'wrong email or password' });
      }
      return {
        status: 200,
        body: sessionOfPanel(result.session),
        headers: { 'Set-Cookie': sessionCookie(result.sessionId, { secure: context.secure, expires: new Date(result.session.expiresAt) }) },
      };
    },

    async getAdminSession(_request, context) {
      return { status: 200, body: sessionOfPanel(context.operator) };
    },

    async signOut(_request, context) {
      await operators.signOut(context.operator.sessionId);
      return { status: 204, headers: { 'Set-Cookie': clearedSessionCookie(context.secure) } };
    },

    async listUsers({ query }, context) {
      const cursor = pageAfter(query.cursor);
      if (!cursor.ok) return fail(context, 'INVALID_REQUEST', { violations: [cursor.violation] });
      const limit = query.limit ?? 50;
      const found = await admin.listUsers({ ...(query.q ? { q: query.q } : {}), limit: limit + 1, ...(cursor.after ? { after: cursor.after } : {}) });
      const { page, nextCursor } = pageOf(found, limit);
      return { status: 200, body: { users: page.map(userBody), next_cursor: nextCursor } };
    },

    async createUser({ body }, context) {
      const result = await admin.createUser(context.operator.email, {
        name: body.name,
        email: body.email,
        quotaMinutes: body.quota_minutes,
        ...(body.locations ? { locations: body.locations } : {}),
        ...(body.images ? { images: body.images } : {}),
      });
      if (result.ok) return { status: 201, body: userBody(result.user) };
      if (result.reason === 'email_taken') return fail(context, 'CONFLICT', { details: `an account with email ${body.email} exists` });
      if (result.reason === 'unknown_grant') {
        return fail(context, 'INVALID_REQUEST', { violations: [{ field: `body.${result.field}`, description: `${result.name} is not in the fleet` }] });
      }
      throw new Error(`unexpected result ${result.reason}`);
    },

    async getUser({ params }, context) {
      const user = await admin.getUser(params.id);
      return user ? { status: 200, body: userBody(user) } : noUser(context, params.id);
    },

    async updateUser({ params, body }, context) {
      const result = await admin.updateUser(context.operator.email, params.id, {
        ...(body.name === undefined ? {} : { name: body.name }),
        ...(body.quota_minutes === undefined ? {} : { quotaMinutes: body.quota_minutes }),
        ...(body.disabled === undefined ? {} : { disabled: body.disabled }),
        ...(body.max_sessions === undefined ? {} : { maxSessions: body.max_sessions }),
        ...(body.locations === undefined ? {} : { locations: body.locations }),
        ...(body.images === undefined ? {} : { images: body.images }),
      });
      if (result.ok) return { status: 200, body: userBody(result.user) };
      if (result.reason === 'unknown_grant') {
        return fail(context, 'INVALID_REQUEST', { violations: [{ field: `body.${result.field}`, description: `${result.name} is not in the fleet` }] });
      }
      return noUser(context, params.id);
    },

    async listUserTokens({ params }, context) {
      const tokens = await admin.listUserTokens(params.id);
      return tokens ? { status: 200, body: { tokens: tokens.map(tokenBody) } } : noUser(context, params.id);
    },

    async createUserToken({ params, body }, context) {
      const result = await admin.createUserToken(context.operator.email, params.id, {
        name: body.name,
        scopes: body.scopes,
        ...(body.expires_after === undefined ? {} : { expiresAfter: body.expires_after }),
      });
      if (result.ok) return { status: 201, body: tokenCreatedBody(result.record, result.value) };
      if (result.reason === 'not_found') return noUser(context, params.id);
      if (result.reason === 'operator_only') {
        return fail(context, 'INVALID_REQUEST', {
          violations: [{ field: 'body.scopes', description: `${result.scopes.join(', ')}: only an operator account's tokens may hold it (the metrics are the whole service's)` }],
        });
      }
      return fail(context, 'INVALID_REQUEST', { violations: [{ field: 'body.expires_after', description: 'must be a duration such as 30m, 2h or 1h30m' }] });
    },

    async updateUserToken({ params, body }, context) {
      const view = await admin.updateUserToken(context.operator.email, params.id, params.tokenId, body.disabled);
      return view ? { status: 200, body: tokenBody(view) } : noToken(context, params.tokenId);
    },

    async deleteUserToken({ params }, context) {
      return (await admin.deleteUserToken(context.operator.email, params.id, params.tokenId)) ? { status: 204 } : noToken(context, params.tokenId);
    },

    async revealUserToken({ params }, context) {
      const value = await admin.revealUserToken(context.operator.email, params.id, params.tokenId);
      return value === undefined ? noToken(context, params.tokenId) : { status: 200, body: { id: params.tokenId, token: value } };
    },

    async listUserAudit({ params }, context) {
      const entries = await admin.listUserAudit(params.id);
      return entries ? { status: 200, body: { entries: entries.map(auditBody) } } : noUser(context, params.id);
    },

    async listFleetLocations() {
      return { status: 200, body: { locations: await sessions.fleetLocations() } };
    },

    async updateNode({ params, body }, context) {
      if (!(await catalog.setNode(params.id, body, deps.now()))) {
        return fail(context, 'RESOURCE_NOT_FOUND', { details: `node ${params.id} is unknown` });
      }
      const node = (await sessions.fleetLocations()).flatMap((l) => l.nodes).find((n) => n.id === params.id)!;
      return { status: 200, body: node };
    },

    async listAllSessions({ query }, context) {
      const cursor = pageAfter(query.cursor);
      if (!cursor.ok) return fail(context, 'INVALID_REQUEST', { violations: [cursor.violation] });
      const found = await sessions.list({
        accountId: query.account || undefined,
        all: query.all ?? false,
        ...(query.location ? { location: query.location } : {}),
        ...(query.image ? { image: query.image } : {}),
        ...(query.tag ? { tag: query.tag } : {}),
        ...(query.host ? { host: query.host } : {}),
        ...(query.status ? { status: query.status } : {}),
        labels: {},
        notLabels: {},
        ...fetchLimit(query.limit),
        ...(cursor.after ? { after: cursor.after } : {}),
      });
      const { page, nextCursor } = pageOf(found, query.limit);
      return { status: 200, body: { sessions: page.map((session) => ({ ...sessionBody(session), account: session.accountId })), next_cursor: nextCursor } };
    },

    async stopAnySession({ params, query }, context) {
      const found = await sessions.findAny(params.id, query.account);
      if (!found.ok) return anySessionMissing(context, params.id, found);
      const result = await sessions.stop(found.session.accountId, found.session.id);
      if (result.ok) return { status: 204 };
      return result.reason === 'not_found'
        ? fail(context, 'RESOURCE_NOT_FOUND', { details: `session ${params.id} is unknown` })
        : fail(context, 'CONFLICT', { details: `session ${params.id} has already ended` });
    },

    async tailSessionLogs({ params, query }, context) {
      const found = await sessions.findAny(params.id, query.account);
      if (!found.ok) return anySessionMissing(context, params.id, found);
      return { status: 200, body: await sessions.tailLogs(found.session, LOG_TAIL_BYTES) };
    },

    async listImages() {
      const registered = await catalog.registeredTags();
      return {
        status: 200,
        body: {
          images: catalog.allImages().map((image) => ({
            name: image.name,
            default_tag: image.defaultTag,
            public: image.public,
            accounts: image.accounts ?? [],
            tags: [
              ...Object.keys(image.tags).map((name) => ({ name, source: 'fleet' as const, account: null, registered: null })),
              ...registered
                .filter((t) => t.image === image.name)
                .map((t) => ({ name: t.tag, source: 'registry' as const, account: t.accountId, registered: iso(t.registered) })),
            ],
          })),
        },
      };
    },

    async getOverview() {
      return { status: 200, body: deps.overview.view() };
    },
  };
}
