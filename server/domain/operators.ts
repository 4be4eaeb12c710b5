import { SignInThrottle } from './sign-in-throttle.js';
import type { OperatorRecord, OperatorRepository, OperatorSecrets } from './ports/operators.js';

/**
 * Operators of the admin panel: the first one from bootstrap, sign-in with email and password
 * (attempts bounded by SignInThrottle), panel sessions with a CSRF token each, sign-out. No HTTP, no SQL: the
 * store is OperatorRepository and the crypto comes in as OperatorSecrets.
 */

export interface PanelSession {
  operatorId: string;
  email: string;
  csrf: string;
  expiresAt: number;
}

export type SignInResult =
  | { ok: true; sessionId: string; session: PanelSession }
  | { ok: false; reason: 'invalid' }
  | { ok: false; reason: 'rate_limited'; retryAfterMs: number };

export const SESSION_LIFETIME_MS = 12 * 60 * 60 * 1000;

export class Operators {
  private readonly throttle: SignInThrottle;
  /** Verified against when the email is unknown, so both failures take as long. */
  private decoyHash: Promise<string> | undefined;

  constructor(
    private readonly repository: OperatorRepository,
    private readonly secrets: OperatorSecrets,
    private readonly now: () => number,
    /** Monotonic milliseconds, for the throttle's waits. */
    monotonic: () => number = () => performance.now(),
  ) {
    this.throttle = new SignInThrottle(monotonic);
  }

  /** On a data directory without operators: create the first; returns the password when generated. */
  async bootstrap(email: string, password: string | undefined): Promise<{ email: string; generatedPassword?: string } | undefined> {
    if ((await this.repository.count()) > 0) return undefined;
    const chosen = password ?? this.secrets.generatePassword();
    await this.add(email, chosen);
    return password === undefined ? { email, generatedPassword: chosen } : { email };
  }

  /** A forgotten password replaced (`session-host admin reset-password`); returns it when generated, false for an unknown email. */
  async resetPassword(email: string, password: string | undefined): Promise<{ generatedPassword?: string } | false> {
    const operator = await this.repository.findByEmail(email.toLowerCase());
    if (!operator) return false;
    const chosen = password ?? this.secrets.generatePassword();
    await this.repository.setPasswordHash(operator.id, await this.secrets.hashPassword(chosen));
    return password === undefined ? { generatedPassword: chosen } : {};
  }

  async add(email: string, password: string): Promise<void> {
    await this.repository.insert({
      id: this.secrets.newId(),
      email: email.toLowerCase(),
      passwordHash: await this.secrets.hashPassword(password),
      created: this.now(),
    });
  }

  /** `gone` (the client left) takes an attempt that waits for a password check out of the line. */
  async signIn(email: string, password: string, client: string, gone?: AbortSignal): Promise<SignInResult> {
    const normalized = email.toLowerCase();
    const admission = await this.throttle.admit(normalized, client, gone);
    if (!admission.ok) return { ok: false, reason: 'rate_limited', retryAfterMs: admission.retryAfterMs };
    let matches = false;
    let operator: OperatorRecord | undefined;
    try {
      operator = await this.repository.findByEmail(normalized);
      this.decoyHash ??= this.secrets.hashPassword(this.secrets.generatePassword());
      matches = await this.secrets.verifyPassword(password, operator?.passwordHash ?? (await this.decoyHash));
    } finally {
      admission.finish(matches && operator !== undefined);
    }
    if (!operator || !matches) return { ok: false, reason: 'invalid' };
    const now = this.now();
    await this.repository.deleteExpiredSessions(now);
    const sessionId = this.secrets.newSecret();
    const session = { operatorId: operator.id, email: operator.email, csrf: this.secrets.newSecret(), expiresAt: now + SESSION_LIFETIME_MS };
    await this.repository.insertSession(this.secrets.hashSessionId(sessionId), {
      operatorId: operator.id,
      csrf: session.csrf,
      created: now,
      expires: session.expiresAt,
    });
    return { ok: true, sessionId, session };
  }

  /** The live panel session of a cookie value, if any. */
  async session(sessionId: string): Promise<PanelSession | undefined> {
    const found = await this.repository.findSession(this.secrets.hashSessionId(sessionId));
    if (!found || found.expires <= this.now()) return undefined;
    return { operatorId: found.operatorId, email: found.email, csrf: found.csrf, expiresAt: found.expires };
  }

  /**
   * The live panel session whose CSRF token is `csrf`, if one of `sessionIds` (the cookie values
   * a request sent, in any number) is its id. Looked up by the token, not by the cookies: a page
   * on another port of the host can plant as many cookies of our name as it likes, and each
   * cookie looked up would be a store query.
   */
  async sessionByCsrf(csrf: string, sessionIds: readonly string[]): Promise<(PanelSession & { sessionId: string }) | undefined> {
    const found = await this.repository.findSessionByCsrf(csrf);
    if (!found || found.expires <= this.now()) return undefined;
    const sessionId = sessionIds.find((id) => this.secrets.hashSessionId(id).equals(found.idHash));
    if (sessionId === undefined) return undefined;
    return { operatorId: found.operatorId, email: found.email, csrf: found.csrf, expiresAt: found.expires, sessionId };
  }

  async signOut(sessionId: string): Promise<void> {
    await this.repository.deleteSession(this.secrets.hashSessionId(sessionId));
  }
}
