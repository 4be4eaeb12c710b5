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
