/**
 * Operators of the admin panel: the first one from bootstrap, sign-in with email and password
 * (attempts limited), panel sessions with a CSRF token each, sign-out. No HTTP, no SQL: the
 * store is OperatorRepository and the crypto comes in as OperatorSecrets.
 */

export interface OperatorRecord {
  id: string;
  email: string;
  passwordHash: string;
  created: number;
}

export interface PanelSessionRecord {
  operatorId: string;
  email: string;
  csrf: string;
  expires: number;
}

export interface OperatorRepository {
  count(): number;
  insert(operator: OperatorRecord): void;
  findByEmail(email: string): OperatorRecord | undefined;
  /** A new password hash; its panel sessions end with the old password. */
  setPasswordHash(operatorId: string, passwordHash: string): void;
  insertSession(idHash: Buffer, session: { operatorId: string; csrf: string; created: number; expires: number }): void;
  findSession(idHash: Buffer): PanelSessionRecord | undefined;
  deleteSession(idHash: Buffer): void;
  deleteExpiredSessions(now: number): void;
}

export interface OperatorSecrets {
  hashPassword(password: string): Promise<string>;
  verifyPassword(password: string, stored: string): Promise<boolean>;
  generatePassword(): string;
  /** A random, URL-safe secret (session ids, CSRF tokens). */
  newSecret(): string;
  /** SHA-256 of a session id: the database never holds the cookie value. */
  hashSessionId(id: string): Buffer;
  newId(): string;
}

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
/** Failed sign-ins allowed per email and per client address in a window. */
export const SIGN_IN_LIMIT = { failures: 10, windowMs: 15 * 60 * 1000 };

export class Operators {
  /** Failed attempts by `email:<email>` and `client:<address>`: their times, oldest first. */
  private readonly failures = new Map<string, number[]>();
  /** Verified against when the email is unknown, so both failures take as long. */
  private decoyHash: Promise<string> | undefined;

  constructor(
    private readonly repository: OperatorRepository,
    private readonly secrets: OperatorSecrets,
    private readonly now: () => number,
  ) {}

  /** On a data directory without operators: create the first; returns the password when generated. */
  async bootstrap(email: string, password: string | undefined): Promise<{ email: string; generatedPassword?: string } | undefined> {
    if (this.repository.count() > 0) return undefined;
    const chosen = password ?? this.secrets.generatePassword();
    await this.add(email, chosen);
    return password === undefined ? { email, generatedPassword: chosen } : { email };
  }

  /** A forgotten password replaced (`session-host admin reset-password`); returns it when generated, false for an unknown email. */
  async resetPassword(email: string, password: string | undefined): Promise<{ generatedPassword?: string } | false> {
    const operator = this.repository.findByEmail(email.toLowerCase());
    if (!operator) return false;
    const chosen = password ?? this.secrets.generatePassword();
    this.repository.setPasswordHash(operator.id, await this.secrets.hashPassword(chosen));
    return password === undefined ? { generatedPassword: chosen } : {};
  }

  async add(email: string, password: string): Promise<void> {
    this.repository.insert({
      id: this.secrets.newId(),
      email: email.toLowerCase(),
      passwordHash: await this.secrets.hashPassword(password),
      created: this.now(),
    });
  }

  async signIn(email: string, password: string, client: string): Promise<SignInResult> {
    const keys = [`email:${email.toLowerCase()}`, `client:${client}`];
    const now = this.now();
    const retryAfterMs = Math.max(0, ...keys.map((key) => this.blockedFor(key, now)));
    if (retryAfterMs > 0) return { ok: false, reason: 'rate_limited', retryAfterMs };

    const operator = this.repository.findByEmail(email.toLowerCase());
    this.decoyHash ??= this.secrets.hashPassword(this.secrets.generatePassword());
    const matches = await this.secrets.verifyPassword(password, operator?.passwordHash ?? (await this.decoyHash));
    if (!operator || !matches) {
      for (const key of keys) this.failures.set(key, [...this.recent(key, now), now]);
      return { ok: false, reason: 'invalid' };
    }
    this.failures.delete(keys[0]!);
    this.repository.deleteExpiredSessions(now);
    const sessionId = this.secrets.newSecret();
    const session = { operatorId: operator.id, email: operator.email, csrf: this.secrets.newSecret(), expiresAt: now + SESSION_LIFETIME_MS };
    this.repository.insertSession(this.secrets.hashSessionId(sessionId), {
      operatorId: operator.id,
      csrf: session.csrf,
      created: now,
      expires: session.expiresAt,
    });
    return { ok: true, sessionId, session };
  }

  /** The live panel session of a cookie value, if any. */
  session(sessionId: string): PanelSession | undefined {
    const found = this.repository.findSession(this.secrets.hashSessionId(sessionId));
    if (!found || found.expires <= this.now()) return undefined;
    return { operatorId: found.operatorId, email: found.email, csrf: found.csrf, expiresAt: found.expires };
  }

  signOut(sessionId: string): void {
    this.repository.deleteSession(this.secrets.hashSessionId(sessionId));
  }

  private recent(key: string, now: number): number[] {
    return (this.failures.get(key) ?? []).filter((at) => at > now - SIGN_IN_LIMIT.windowMs);
  }

  /** How long until the key may try again (0: now). */
  private blockedFor(key: string, now: number): number {
    const recent = this.recent(key, now);
    if (recent.length < SIGN_IN_LIMIT.failures) return 0;
    return recent[recent.length - SIGN_IN_LIMIT.failures]! + SIGN_IN_LIMIT.windowMs - now;
  }
}
