/**
 * The admin panel's credentials: the session cookie and the CSRF token every call carries in
 * X-CSRF-Token, reads too. A browser sends a host's cookies to every port of that host (cookies
 * know no ports, and SameSite compares sites, not origins), so a game server listening on the
 * panel's host name got the operator's cookie the moment the operator's browser opened any page
 * of it: with the cookie alone, GET /admin/api/auth handed out the CSRF token and with it the
 * whole panel. The CSRF token is kept by the panel in its origin's storage, which other ports
 * cannot read. Bearer tokens are not panel credentials.
 */
import { timingSafeEqual } from 'node:crypto';
import type { Operators } from '../../domain/operators.js';
import type { OperatorIdentity } from '../context.js';

export const ADMIN_COOKIE = 'gsh_admin';

export type PanelAuth = { ok: true; operator: OperatorIdentity } | { ok: false; details: string };

/**
 * Session cookies of ours a request may carry that are looked up: a page on another port of the
 * host can set its own `gsh_admin` for the host (cookies know no ports), on longer paths so that
 * browsers send it first; taking only the first value then signed the operator out for as long
 * as that cookie lived, signing in again or not. Each value costs a store lookup, so a few are
 * tried, of the shape ours have (32 random bytes, base64url), not every one a request carries.
 */
const MAX_SESSION_COOKIES = 8;
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

/** The values of a cookie in a Cookie header, in the order sent (ours are base64url: no quoting or decoding needed). */
function cookieValues(header: string | undefined, name: string): string[] {
  const values: string[] = [];
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at !== -1 && part.slice(0, at).trim() === name) values.push(part.slice(at + 1).trim());
  }
  return values;
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export async function authenticatePanel(
  operators: Operators,
  request: { cookieHeader: string | undefined; csrfHeader: string | string[] | undefined },
): Promise<PanelAuth> {
  const csrf = typeof request.csrfHeader === 'string' ? request.csrfHeader : '';
  let signedIn = false;
  const sent = new Set(cookieValues(request.cookieHeader, ADMIN_COOKIE).filter((value) => SESSION_ID.test(value)));
  for (const sessionId of [...sent].slice(0, MAX_SESSION_COOKIES)) {
    const session = await operators.session(sessionId);
    if (!session) continue;
    signedIn = true;
    // The session the CSRF token is of: another one sent along (set by someone else) is not it.
    if (sameText(csrf, session.csrf)) return { ok: true, operator: { ...session, sessionId } };
  }
  return signedIn
    ? { ok: false, details: 'missing or wrong X-CSRF-Token header' }
    : { ok: false, details: 'not signed in to the admin panel: session cookie missing, unknown or expired' };
}

export function sessionCookie(value: string, options: { secure: boolean; expires?: Date }): string {
  return [
    `${ADMIN_COOKIE}=${value}`,
    'Path=/admin',
    ...(options.expires ? [`Expires=${options.expires.toUTCString()}`] : []),
    'HttpOnly',
    'SameSite=Strict',
    ...(options.secure ? ['Secure'] : []),
  ].join('; ');
}

export function clearedSessionCookie(secure: boolean): string {
  return sessionCookie('', { secure, expires: new Date(0) });
}
