/**
 * The one error path: whatever is thrown while serving a request becomes the API's envelope
 * here. Client errors keep their message; anything unexpected is logged in full and answered
 * with a fixed text, so no stack trace, SQL or secret ever reaches a client.
 */
import type { Context } from 'koa';
import type { ErrorCode } from '../../shared/errors';
import type { Logger } from '../logger';
import { isDatabaseUnreachable } from '../store/database';
import { HttpError } from './errors';
import { outgoing } from './outgoing';

const STATUS_CODES: Record<number, ErrorCode> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  429: 'RATE_LIMITED',
  503: 'SERVICE_UNAVAILABLE',
};

interface StatusError {
  status?: number;
  expose?: boolean;
  message?: string;
}

function asHttpError(error: unknown): HttpError | null {
  if (error instanceof HttpError) return error;
  // API.md: 503 when the database cannot be reached (logged below like any 5xx).
  if (isDatabaseUnreachable(error)) return new HttpError('SERVICE_UNAVAILABLE', 'Database unreachable', {}, error);
  // Errors raised by Koa and its middleware (a malformed body, a payload too large) carry a 4xx status.
  const e = error as StatusError | null;
  if (e && typeof e.status === 'number' && e.status >= 400 && e.status < 500 && e.expose) {
    return new HttpError(STATUS_CODES[e.status] ?? 'BAD_REQUEST', e.message ?? 'Bad request');
  }
  return null;
}

/** Answers with the envelope of whatever was thrown while serving the request. */
export function renderError(ctx: Context, error: unknown, logger: Logger): void {
  const known = asHttpError(error);
  if (!known || known.status >= 500) {
    logger.error({ err: error, method: ctx.method, path: ctx.path, requestId: ctx.state.requestId }, known?.message ?? 'request failed');
  }
  const out = outgoing(ctx);
  out.remove('ETag');
  ctx.remove('ETag'); // a page may have set one through Koa
  out.setAll(known?.headers ?? {});
  out.set('Cache-Control', 'no-store');
  const envelope = known
    ? { success: false, message: known.message, error: known.code }
    : { success: false, message: 'Internal server error', error: 'INTERNAL_ERROR' };
  out.send(ctx, known?.status ?? 500, JSON.stringify(envelope));
}
