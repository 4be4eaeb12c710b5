/**
 * Operator passwords: scrypt (node:crypto) with a random salt, stored as
 * `scrypt$<N>$<r>$<p>$<salt b64>$<hash b64>`; verified in constant time.
 */
import { createHash, randomBytes, randomUUID, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import type { OperatorSecrets } from '../domain/ports/operators.js';

const PARAMS = { N: 16384, r: 8, p: 1 };
const KEY_BYTES = 32;

function scrypt(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCallback(password, salt, KEY_BYTES, { ...options, maxmem: 64 * 1024 * 1024 }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, N, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const key = await scrypt(password, Buffer.from(salt, 'base64'), { N: Number(N), r: Number(r), p: Number(p) });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** A password for the first operator when ADMIN_PASSWORD is not set: 20 base64url characters. */
export function generatePassword(): string {
  return randomBytes(15).toString('base64url');
}

/** The crypto the Operators domain needs, from node:crypto. */
export const operatorSecrets: OperatorSecrets = {
  hashPassword,
  verifyPassword,
  generatePassword,
  newSecret: () => randomBytes(32).toString('base64url'),
  hashSessionId: (id) => createHash('sha256').update(id).digest(),
  newId: () => `op_${randomUUID().replaceAll('-', '').slice(0, 12)}`,
};
