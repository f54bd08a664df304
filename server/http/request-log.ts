/** One log line per request, tagged with a request id that is also sent back to the client. */
import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from '../logger';
import { outgoing } from './outgoing';

const VALID_ID = /^[\w.-]{1,64}$/;

export function requestLog(logger: Logger): Middleware {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    const incoming = ctx.get('x-request-id');
    const requestId = VALID_ID.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    outgoing(ctx).set('X-Request-Id', requestId);
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      // The path only: the query string is logged without the headers, where the key travels.
      logger.info({ requestId, method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(ms * 100) / 100 }, 'request');
    }
  };
}
