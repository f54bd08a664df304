/**
 * Which compressed copy of a kept answer a request gets. koa-compress compresses whatever else
 * the app answers; kept answers carry their own compressed copies (response-cache.ts), sent with
 * their Content-Encoding already set, which koa-compress leaves alone.
 */
import type { Context } from 'koa';
import { COMPRESS_FROM_BYTES, CONTENT_CODINGS, type CachedResponse, type ContentCoding, type Effort } from './response-cache';

/** The coding the client prefers among ours (RFC 9110 12.5.3, by Koa's negotiator), or null to send the body as it is. */
export function contentCodingFor(ctx: Context, entry: CachedResponse): ContentCoding | null {
  if (entry.bytes < COMPRESS_FROM_BYTES || ctx.method !== 'GET') return null;
  const accepted = ctx.acceptsEncodings(...CONTENT_CODINGS, 'identity');
  return CONTENT_CODINGS.find((coding) => coding === accepted) ?? null;
}

/**
 * A strong ETag names one representation, compressed bytes included (RFC 9110 8.8.3), so each
 * coding gets its own tag, as Apache's `-gzip` suffix does, and a quick copy its own again.
 */
export const etagFor = (etag: string, coding: ContentCoding | null, effort: Effort) =>
  coding ? `${etag.slice(0, -1)}-${coding}${effort === 'quick' ? '-quick' : ''}"` : etag;
