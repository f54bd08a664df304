/**
 * Standard Webhooks signatures: `v1,` + base64 HMAC-SHA256 of `{id}.{timestamp}.{body}`, keyed
 * with the bytes the `whsec_` secret encodes. The same recipe any receiver follows to check them.
 */
import { createHmac, randomBytes } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';
/** Standard Webhooks asks for 24 to 64 random bytes; 32 is what the common libraries make. */
const SECRET_BYTES = 32;

export function newSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString('base64')}`;
}

/** The HMAC key a secret stands for: the bytes after `whsec_`. */
export function secretBytes(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
}

export function sign(secret: string, id: string, timestamp: number, body: string): string {
  return `v1,${createHmac('sha256', secretBytes(secret)).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** The headers of one attempt: the timestamp is the attempt's, so a retry is signed afresh. */
export function signedHeaders(secret: string, id: string, timestamp: number, body: string): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': sign(secret, id, timestamp, body),
  };
}
