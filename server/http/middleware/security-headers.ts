/**
 * The security headers of every answer, refusals included: nothing sniffed, nothing framed, no
 * referrer leaked, and the strictest content policy (JSON needs nothing). Pages that need more set
 * their own policy over this one (site/respond.ts, site/docs.ts). HSTS only when the request came
 * over TLS (directly, or through a trusted proxy that says so): over plain HTTP it means nothing,
 * and on localhost it would pin a developer's browser to HTTPS.
 */
import type { Middleware } from 'koa';

export const SECURITY_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Resource-Policy': 'cross-origin',
} as const;

/** One year, the usual value once a site serves HTTPS for good. */
const HSTS = 'max-age=31536000';

export function securityHeaders(): Middleware {
  return async function securityHeaders(ctx, next) {
    ctx.set(SECURITY_HEADERS);
    if (ctx.secure) ctx.set('Strict-Transport-Security', HSTS);
    await next();
  };
}
