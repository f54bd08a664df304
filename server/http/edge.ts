/**
 * The middlewares every request goes through before a router, in order: request id, metrics and
 * the access line, compression, CORS, security headers, the error envelope. `createApp` uses them,
 * and the bench's floor baseline (bench/baseline.ts) puts the same list in front of a constant.
 */
import cors from '@koa/cors';
import type Koa from 'koa';
import type { Logger } from '../logger';
import { compressLarge } from './middleware/compress-large';
import { errorEnvelope } from './middleware/error-envelope';
import { type RequestMetrics, recordRequest } from './middleware/record-request';
import { requestId } from './middleware/request-id';
import { securityHeaders } from './middleware/security-headers';

/** Headers a browser script may read from our answers. */
const EXPOSED_HEADERS = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'X-Quota-Limit',
  'X-Quota-Remaining',
  'X-Quota-Reset',
  'Retry-After',
  'ETag',
  'X-Request-Id',
];

export interface EdgeDeps {
  logger: Logger;
  metrics: RequestMetrics;
  /** Origins a browser may call from; `*` for any. */
  corsOrigins: readonly string[];
}

/**
 * The origin to allow, or '' for none. A request without `Origin` gets no CORS headers: a browser
 * sends one on every cross-origin request, and only a browser reads them, so the spreadsheets,
 * SDKs and servers that make most calls are spared two headers (one of them 140 bytes) on every
 * answer. `Vary: Origin` stays on every answer, so a cache never gives one kind to the other.
 */
function corsOrigin(allowed: readonly string[]) {
  if (allowed.includes('*')) return (ctx: Koa.Context) => (ctx.get('origin') ? '*' : '');
  return (ctx: Koa.Context) => (allowed.includes(ctx.get('origin')) ? ctx.get('origin') : '');
}

export function edgeMiddlewares(deps: EdgeDeps): Koa.Middleware[] {
  return [
    requestId(),
    recordRequest({ logger: deps.logger, metrics: deps.metrics }),
    compressLarge(),
    cors({
      origin: corsOrigin(deps.corsOrigins),
      allowMethods: ['GET', 'HEAD', 'OPTIONS', 'POST'],
      allowHeaders: ['x-api-key', 'authorization', 'content-type', 'if-none-match', 'mcp-protocol-version'],
      exposeHeaders: EXPOSED_HEADERS,
      maxAge: 600,
    }),
    securityHeaders(),
    errorEnvelope(deps.logger),
  ];
}
