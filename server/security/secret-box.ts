/**
 * AES-256-GCM sealing of secrets stored at rest (token values), so the panel can reveal them
 * while a copy of the database alone reveals nothing. The key lives outside the database: in
 * the SECRET_KEY environment variable (base64, 32 bytes) or in a key file created on first run.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;

export class SecretBox {
  private constructor(private readonly key: Buffer) {}

  static fromKey(key: Buffer): SecretBox {
    if (key.length !== KEY_BYTES) throw new Error(`the secret key must be ${KEY_BYTES} bytes`);
    return new SecretBox(key);
  }

  /** Read the key file, creating it (mode 0600) with a random key when it does not exist. */
  static fromKeyFile(path: string): SecretBox {
    if (!existsSync(path)) {
      writeFileSync(path, randomBytes(KEY_BYTES).toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
    }
    return SecretBox.fromKey(Buffer.from(readFileSync(path, 'utf8').trim(), 'base64'));
  }

  /** iv | tag | ciphertext. `context` is bound as associated data (a sealed value moved to another row fails to open). */
  seal(plaintext: string, context: string): Buffer {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(context));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), ciphertext]);
  }

  open(sealed: Buffer, context: string): string {
    const decipher = createDecipheriv('aes-256-gcm', this.key, sealed.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(sealed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  }
}
