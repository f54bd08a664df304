/** Headers that suit a JSON API: nothing sniffed, nothing framed, no referrer leaked. */
import type { Middleware } from 'koa';
import { outgoing } from './outgoing';

const SECURITY_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Resource-Policy': 'cross-origin',
} as const;

export const apiSecurityHeaders: Middleware = async (ctx, next) => {
  outgoing(ctx).setAll(SECURITY_HEADERS);
  await next();
};
