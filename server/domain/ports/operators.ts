/** Where admin-panel operators and their panel sessions are kept, and the crypto they use. */

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
  count(): Promise<number>;
  insert(operator: OperatorRecord): Promise<void>;
  findByEmail(email: string): Promise<OperatorRecord | undefined>;
  /** A new password hash; its panel sessions end with the old password. */
  setPasswordHash(operatorId: string, passwordHash: string): Promise<void>;
  insertSession(idHash: Buffer, session: { operatorId: string; csrf: string; created: number; expires: number }): Promise<void>;
  findSession(idHash: Buffer): Promise<PanelSessionRecord | undefined>;
  /** The session whose CSRF token this is, with the hash of its id (one indexed lookup however many cookies a request sends). */
  findSessionByCsrf(csrf: string): Promise<(PanelSessionRecord & { idHash: Buffer }) | undefined>;
  deleteSession(idHash: Buffer): Promise<void>;
  deleteExpiredSessions(now: number): Promise<void>;
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
