/**
 * Subscription secrets at rest: AES-256-GCM under the operator's key. A secret signs every
 * delivery, so the service must read it back (unlike an API key, which is only compared and so is
 * stored hashed); a copy of the database alone gives nobody a secret.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A 32-byte key from the operator's text (any length): its SHA-256. */
export function sealKeyOf(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

export function seal(key: Buffer, plain: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), data]).toString('base64');
}

/** Throws when the key is not the one that sealed it (the tag does not match). */
export function unseal(key: Buffer, sealed: string): string {
  const raw = Buffer.from(sealed, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
  decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
}
