/**
 * The admin panel's credentials: the session cookie and the CSRF token every call carries in
 * X-CSRF-Token, reads too. A browser sends a host's cookies to every port of that host (cookies
 * know no ports, and SameSite compares sites, not origins), so a game server listening on the
 * panel's host name got the operator's cookie the moment the operator's browser opened any page
 * of it: with the cookie alone, GET /admin/api/auth handed out the CSRF token and with it the
 * whole panel. The CSRF token is kept by the panel in its origin's storage, which other ports
 * cannot read. Bearer tokens are not panel credentials.
 */
import type { Operators } from '../../domain/operators.js';
import type { OperatorIdentity } from '../context.js';

export const ADMIN_COOKIE = 'gsh_admin';

export type PanelAuth = { ok: true; operator: OperatorIdentity } | { ok: false; details: string };

/**
 * A page on another port of the host can set its own `gsh_admin` for the host (cookies know no
 * ports), as many as it likes, on longer paths so that browsers send them first. The session is
 * therefore found by the CSRF token, and then must be one of the cookies sent, however many there
 * are. Only to say why a request was refused are cookies looked up one by one, a few of them.
 */
const SESSION_COOKIES_DESCRIBED = 8;
/** Our session ids and CSRF tokens: 32 random bytes, base64url. */
const SECRET = /^[A-Za-z0-9_-]{43}$/;

/** The values of a cookie in a Cookie header, in the order sent (ours are base64url: no quoting or decoding needed). */
function cookieValues(header: string | undefined, name: string): string[] {
  const values: string[] = [];
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at !== -1 && part.slice(0, at).trim() === name) values.push(part.slice(at + 1).trim());
  }
  return values;
}

export async function authenticatePanel(
  operators: Operators,
  request: { cookieHeader: string | undefined; csrfHeader: string | string[] | undefined },
): Promise<PanelAuth> {
  const csrf = typeof request.csrfHeader === 'string' ? request.csrfHeader : '';
  const sent = [...new Set(cookieValues(request.cookieHeader, ADMIN_COOKIE).filter((value) => SECRET.test(value)))];
  if (sent.length > 0 && SECRET.test(csrf)) {
    const session = await operators.sessionByCsrf(csrf, sent);
    if (session) return { ok: true, operator: session };
  }
  for (const sessionId of sent.slice(0, SESSION_COOKIES_DESCRIBED)) {
    if (await operators.session(sessionId)) return { ok: false, details: 'missing or wrong X-CSRF-Token header' };
  }
  return { ok: false, details: 'not signed in to the admin panel: session cookie missing, unknown or expired' };
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
