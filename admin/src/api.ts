/**
 * The panel's API client: openapi-fetch typed by the generated `paths`, so the panel is the
 * spec's first integrator. The session cookie travels by itself (same origin, HttpOnly); the
 * CSRF token from sign-in goes in X-CSRF-Token on every call. The service asks for it on reads
 * too, as the browser also sends the cookie to every other port of this host (a game server's):
 * the token is kept in this origin's localStorage, which pages of other ports cannot read, so it
 * outlives a reload without the service handing it to whoever holds the cookie.
 */
import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from '../../generated/types';
import type { Error as ApiError, Scope } from '../../generated/types';

export type {
  AccountSessionList,
  AuditEntry,
  ImageCatalog,
  Location,
  Session,
  SessionStatus,
  Token,
  TokenCreated,
  Overview,
  User,
  WarmPool,
} from '../../generated/types';
export type { ApiError, Scope };

const CSRF_KEY = 'session-host-admin-csrf';
let onSignedOut: () => void = () => {};

export function setCsrfToken(token: string | undefined): void {
  if (token === undefined) localStorage.removeItem(CSRF_KEY);
  else localStorage.setItem(CSRF_KEY, token);
}
export function whenSignedOut(handler: () => void): void {
  onSignedOut = handler;
}

const panelAuth: Middleware = {
  onRequest({ request }) {
    const csrfToken = localStorage.getItem(CSRF_KEY);
    if (csrfToken) request.headers.set('X-CSRF-Token', csrfToken);
    return request;
  },
  onResponse({ response, request }) {
    // A lapsed session anywhere but at sign-in itself sends the operator back to sign in.
    if (response.status === 401 && !(request.method === 'POST' && new URL(request.url).pathname === '/admin/api/auth')) onSignedOut();
    return response;
  },
};

export const api = createClient<paths>({ baseUrl: window.location.origin, credentials: 'same-origin' });
api.use(panelAuth);

/** The error's message for people: the details, or the violations, or the code. */
export function describeError(error: unknown): string {
  const body = error as Partial<ApiError> | undefined;
  if (body?.violations?.length) return body.violations.map((v) => `${v.field} ${v.description}`).join('; ');
  return body?.details ?? body?.message ?? 'Request failed';
}

/** Scopes grouped by what they are about, for the Add token form; operator-only ones are offered for operator accounts only. */
export const scopeGroups: { label: string; scopes: Scope[]; operatorOnly?: boolean }[] = [
  { label: 'Sessions', scopes: ['session:start', 'session:read', 'session:stop'] },
  { label: 'Output', scopes: ['logs:read', 'artifact:read'] },
  { label: 'Fleet', scopes: ['regions:read'] },
  { label: 'Integration', scopes: ['events:write', 'webhook:repohost'] },
  { label: 'Tokens', scopes: ['token:write'] },
  // The metrics are the whole service's: the service refuses this scope to other accounts (422).
  { label: 'Monitoring', scopes: ['metrics:read'], operatorOnly: true },
];
