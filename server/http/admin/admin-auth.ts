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

/** The value of one cookie in a Cookie header (ours is base64url: no quoting or decoding needed). */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at !== -1 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
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
  const sessionId = cookieValue(request.cookieHeader, ADMIN_COOKIE);
  const session = sessionId ? await operators.session(sessionId) : undefined;
  if (!sessionId || !session) return { ok: false, details: 'not signed in to the admin panel: session cookie missing, unknown or expired' };
  const csrf = typeof request.csrfHeader === 'string' ? request.csrfHeader : '';
  if (!sameText(csrf, session.csrf)) return { ok: false, details: 'missing or wrong X-CSRF-Token header' };
  return { ok: true, operator: { ...session, sessionId } };
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
