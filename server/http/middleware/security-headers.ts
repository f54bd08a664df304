/** Headers that suit a JSON API: nothing sniffed, nothing framed, no referrer leaked. */
import type { Middleware } from 'koa';

export const API_SECURITY_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Resource-Policy': 'cross-origin',
} as const;

/** Sets the API's security headers on every answer under `prefix`, refusals included. */
export function apiSecurityHeaders(prefix: string): Middleware {
  return async function apiSecurityHeaders(ctx, next) {
    if (ctx.path.startsWith(prefix)) ctx.set(API_SECURITY_HEADERS);
    await next();
  };
}
