/**
 * How the site answers: security headers per kind of page, and bodies sent with a strong ETag
 * that honours If-None-Match. Everything the pages load comes from this origin, so the policy
 * allows 'self' only, with no 'unsafe-inline' anywhere (scripts and styles are files).
 */
import type { Context } from 'koa';
import { matchesEtag, strongEtag } from '../http/etag';

const POLICY = ["default-src 'self'", "base-uri 'none'", "object-src 'none'", "form-action 'self'", "img-src 'self' data:"];

/** Where a page may be shown: the widgets in any site's frame, the other pages only on their own. */
export type Framing = 'anywhere' | 'nowhere';

/** The content security policy of a page: this origin's files only, framed as `framing` says. */
export function pagePolicy(framing: Framing): string {
  return [...POLICY, framing === 'anywhere' ? 'frame-ancestors *' : "frame-ancestors 'none'"].join('; ');
}

export function siteHeaders(ctx: Context, framing: Framing): void {
  // A frame on any site must be allowed here and not refused by X-Frame-Options, which has no "any".
  ctx.set('Content-Security-Policy', pagePolicy(framing));
  // The default for every answer is DENY (http/middleware/security-headers.ts): a widget lifts it.
  if (framing === 'nowhere') ctx.set('X-Frame-Options', 'DENY');
  else ctx.remove('X-Frame-Options');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Referrer-Policy', 'strict-origin-when-cross-origin');
}

/** Sends `body` with its ETag, or a 304 when the client already holds it. */
export function sendWithEtag(ctx: Context, body: string | Buffer, type: string, cacheControl: string, etag = strongEtag(body.toString())): void {
  ctx.status = 200;
  ctx.set('Cache-Control', cacheControl);
  ctx.set('ETag', etag);
  if (matchesEtag(ctx.get('if-none-match'), etag)) {
    ctx.status = 304;
    return;
  }
  ctx.type = type;
  ctx.body = body;
}
