/**
 * Checks a webhook delivery as Standard Webhooks signs it: `Webhook-Signature` holds one or more
 * `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`, keyed with the bytes of the `whsec_`
 * secret. Web Crypto's `verify` compares in constant time; a timestamp further than the tolerance
 * from now (5 minutes by default) is refused, so a captured delivery cannot be replayed later.
 */

export interface VerifyOptions {
  /** How far `Webhook-Timestamp` may be from now, in seconds (default 300). */
  toleranceSeconds?: number;
  /** Now, for tests (default: the clock). */
  now?: Date;
}

export interface WebhookEvent<T = unknown> {
  id: string;
  type: 'rate.published' | 'rate.revised' | 'monex.session' | 'threshold.crossed' | 'ping';
  createdAt: string;
  data: T;
}

export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

type HeadersLike = Record<string, string | string[] | undefined> | { get(name: string): string | null };

function header(headers: HeadersLike, name: string): string | null {
  if (typeof (headers as { get?: unknown }).get === 'function') return (headers as { get(name: string): string | null }).get(name);
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * Verifies a delivery and returns its event. `body` must be the raw text received (not parsed and
 * written again); `headers` a Headers object or a plain record (Node's `req.headers`).
 * Throws WebhookVerificationError when anything does not match.
 */
export async function verifyWebhook<T = unknown>(body: string, headers: HeadersLike, secret: string, options: VerifyOptions = {}): Promise<WebhookEvent<T>> {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) throw new WebhookVerificationError('Missing Webhook-Id, Webhook-Timestamp or Webhook-Signature');
  if (!/^\d{1,12}$/.test(timestamp)) throw new WebhookVerificationError('Webhook-Timestamp is not Unix seconds');
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (Math.abs(now - Number(timestamp)) > (options.toleranceSeconds ?? 300))
    throw new WebhookVerificationError('Webhook-Timestamp is too old or in the future');
  let keyBytes: Uint8Array<ArrayBuffer>;
  try {
    keyBytes = fromBase64(secret.startsWith('whsec_') ? secret.slice(6) : secret);
  } catch {
    throw new WebhookVerificationError('The secret is not whsec_ followed by base64');
  }
  const key = await crypto.subtle.importKey('raw', keyBytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
  const signed = new TextEncoder().encode(`${id}.${timestamp}.${body}`);
  for (const entry of signatures.split(' ')) {
    const [version, value] = entry.split(',', 2);
    if (version !== 'v1' || !value) continue;
    let signature: Uint8Array<ArrayBuffer>;
    try {
      signature = fromBase64(value);
    } catch {
      continue;
    }
    if (await crypto.subtle.verify('HMAC', key, signature, signed)) return JSON.parse(body) as WebhookEvent<T>;
  }
  throw new WebhookVerificationError('No Webhook-Signature matches the body and the secret');
}

/** A line on one side of the rate, for `threshold.crossed`. */
export interface WebhookThreshold {
  side: 'buy' | 'sell';
  above?: number;
  below?: number;
}

export type WebhookEventType = 'rate.published' | 'rate.revised' | 'monex.session' | 'threshold.crossed';

export interface NewWebhook {
  url: string;
  events: WebhookEventType[];
  /** The currency of rate.published and threshold.crossed (default USD). */
  currency?: string;
  threshold?: WebhookThreshold;
}

export interface Webhook {
  id: string;
  url: string;
  events: WebhookEventType[];
  currency: string;
  threshold: WebhookThreshold | null;
  createdAt: string;
  /** Disabled after 5 failed deliveries in a row. */
  disabled: boolean;
  disabledAt: string | null;
  consecutiveFailures: number;
}

export interface CreatedWebhook extends Omit<Webhook, 'disabled' | 'disabledAt' | 'consecutiveFailures'> {
  /** `whsec_…`: shown this once. */
  secret: string;
}

export interface WebhookDelivery {
  id: number;
  eventId: string;
  type: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  nextAttemptAt: string | null;
  lastStatus: number | null;
  lastLatencyMs: number | null;
  lastError: string | null;
  lastResponse: string | null;
  lastAttemptAt: string | null;
  createdAt: string;
}
