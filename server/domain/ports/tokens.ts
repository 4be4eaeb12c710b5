/** Where tokens are kept, and the crypto that makes and checks their values. */
import type { Scope } from '../../../generated/types.js';

export interface TokenRecord {
  id: string;
  accountId: string;
  /** The token that created this one; null for bootstrap and operator-made tokens. */
  issuerId: string | null;
  name: string;
  scopes: Scope[];
  /** Last characters of the value, for the masked form. */
  hint: string;
  created: number;
  expiresAt: number | null;
  disabled: boolean;
  revokedAt: number | null;
  lastUsed: number | null;
}

export interface TokenCap {
  max: number;
  now: number;
  /**
   * Ended (revoked or expired) tokens of the account kept beside the new one, counted in tokens: chains
   * (an ended token with what it issued) created last first, whole or cut below a kept token's issuers;
   * the rest are deleted. Ended issuers of a token that has not ended always stay, uncounted.
   */
  keepEnded: number;
}

export interface TokenRepository {
  insert(record: TokenRecord, secret: { hash: Buffer; sealed: Buffer }): Promise<void>;
  /**
   * Insert unless the token's account already holds `cap.max` tokens that still count (neither
   * revoked nor expired at `cap.now`): the count and the insert are one step, whatever runs beside
   * it (other requests, other instances on the same database). False when refused.
   */
  insertWithin(record: TokenRecord, secret: { hash: Buffer; sealed: Buffer }, cap: TokenCap): Promise<boolean>;
  /**
   * Delete the tokens that had ended (were revoked or expired) by `endedBy`, whole chains in one
   * step, but never an issuer of a token that had not.
   */
  purgeEnded(endedBy: number): Promise<void>;
  findById(id: string): Promise<TokenRecord | undefined>;
  findByHash(hash: Buffer): Promise<(TokenRecord & { hash: Buffer }) | undefined>;
  /** Tokens of the account that are not revoked, newest first. */
  listActive(accountId: string): Promise<TokenRecord[]>;
  /** Revoke the token and every token it issued, transitively. */
  revokeWithDescendants(id: string, at: number): Promise<void>;
  recordLastUsed(uses: ReadonlyMap<string, number>): Promise<void>;
  setDisabled(id: string, disabled: boolean): Promise<void>;
  /** The AES-GCM sealed value of the token. */
  sealed(id: string): Promise<Buffer | undefined>;
}

/** Creates, hashes and seals token values; implemented with node:crypto in security/. */
export interface TokenVault {
  newId(): string;
  newValue(): string;
  /** True when the text has the shape of a token value (prefix, alphabet, length). */
  isWellFormed(value: string): boolean;
  hash(value: string): Buffer;
  /** Constant-time comparison of two hashes. */
  sameHash(a: Buffer, b: Buffer): boolean;
  seal(value: string, tokenId: string): Buffer;
  open(sealed: Buffer, tokenId: string): string;
  hint(value: string): string;
  mask(hint: string): string;
}

export interface AccountGate {
  isAccountActive(accountId: string): Promise<boolean>;
}
