/** One log line per request, tagged with a request id that is also sent back to the client. */
import { randomBytes } from 'node:crypto';
import type { Context } from 'koa';
import type { Logger } from '../logger';
import { outgoing } from './outgoing';

const VALID_ID = /^[\w.-]{1,64}$/;

// Ids need to be unique, not secret: this process's random prefix and a count, which costs a
// fraction of a UUID per request and still tells instances apart in merged logs.
const INSTANCE = randomBytes(9).toString('base64url');
let sequence = 0;
const freshId = () => `${INSTANCE}-${(++sequence).toString(36)}`;

/** The caller's `X-Request-Id` when it is a sane one, a fresh one otherwise; sent back either way. */
export function assignRequestId(ctx: Context): string {
  const incoming = ctx.get('x-request-id');
  const requestId = VALID_ID.test(incoming) ? incoming : freshId();
  ctx.state.requestId = requestId;
  outgoing(ctx).set('X-Request-Id', requestId);
  return requestId;
}

export function logRequest(logger: Logger, ctx: Context, seconds: number): void {
  // The path only: the query string is logged without the headers, where the key travels.
  logger.info({ requestId: ctx.state.requestId, method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(seconds * 1e5) / 100 }, 'request');
}
