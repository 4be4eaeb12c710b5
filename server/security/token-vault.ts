/**
 * Token values: `gsh_` followed by 40 base62 characters (about 238 random bits). Values are
 * looked up by SHA-256 (they are random, so a slow hash adds nothing) and sealed for reveal.
 */
import { hash, randomInt, timingSafeEqual } from 'node:crypto';
import type { TokenVault } from '../domain/ports/tokens.js';
import type { SecretBox } from './secret-box.js';

export const TOKEN_PREFIX = 'gsh_';
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const VALUE_LENGTH = 40;
const WELL_FORMED = /^gsh_[0-9A-Za-z]{20,100}$/;
const HINT_LENGTH = 4;

function randomBase62(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}

export function isWellFormedToken(value: string): boolean {
  return WELL_FORMED.test(value);
}

export function createTokenVault(box: SecretBox): TokenVault {
  return {
    newId: () => `tok_${randomBase62(12)}`,
    newValue: () => TOKEN_PREFIX + randomBase62(VALUE_LENGTH),
    isWellFormed: isWellFormedToken,
    // One-shot: every authenticated request hashes its token, and a Hash object per call costs more than the digest.
    hash: (value) => hash('sha256', value, 'buffer'),
    sameHash: (a, b) => a.length === b.length && timingSafeEqual(a, b),
    seal: (value, tokenId) => box.seal(value, tokenId),
    open: (sealed, tokenId) => box.open(sealed, tokenId),
    hint: (value) => value.slice(-HINT_LENGTH),
    mask: (hint) => `${TOKEN_PREFIX}…${hint}`,
  };
}
