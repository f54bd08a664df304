/**
 * The one error path: whatever is thrown while serving a request, and a request no route
 * answered, becomes the API's envelope here. Client errors keep their message; anything
 * unexpected is logged in full and answered with a fixed text, so no stack trace, SQL or secret
 * ever reaches a client.
 */
import type { AppState } from '../../app-state';
import type { Context, Middleware } from 'koa';
import type { ErrorCode } from '../../../shared/errors';
import { API_KEY_CHALLENGE } from '../../access/access';
import type { Logger } from '../../logger';
import { isDatabaseUnreachable } from '../../store/database';
import { HttpError } from '../../errors';

const STATUS_CODES: Record<number, ErrorCode> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  413: 'PAYLOAD_TOO_LARGE',
  429: 'RATE_LIMITED',
  503: 'SERVICE_UNAVAILABLE',
};

interface StatusError {
  status?: number;
  expose?: boolean;
  message?: string;
}

export function asHttpError(error: unknown): HttpError | null {
  if (error instanceof HttpError) return error;
  // A database that cannot be reached is an outage, not a bug: 503 (logged below like any 5xx).
  if (isDatabaseUnreachable(error)) return new HttpError('SERVICE_UNAVAILABLE', 'Database unreachable', {}, error);
  // Errors raised by Koa and its middleware (a malformed body, a payload too large) carry a 4xx status.
  const e = error as StatusError | null;
  if (e && typeof e.status === 'number' && e.status >= 400 && e.status < 500 && e.expose) {
    return new HttpError(STATUS_CODES[e.status] ?? 'BAD_REQUEST', e.message ?? 'Bad request');
  }
  return null;
}

/** Nothing answered: a path of no route, or a known path with a method it does not take. */
function unanswered(ctx: Context): HttpError | null {
  if (ctx.body != null) return null;
  // The routers' allowedMethods answered a known path with a wrong (or unknown) method.
  if (ctx.status === 405 || ctx.status === 501) {
    const allow = ctx.response.get('Allow') || 'GET, HEAD, OPTIONS';
    return new HttpError('METHOD_NOT_ALLOWED', `Method ${ctx.method} is not allowed on ${ctx.path}; allowed: ${allow}`, { Allow: allow });
  }
  if (ctx.status === 404) return new HttpError('NOT_FOUND', `No route for ${ctx.method} ${ctx.path}`);
  return null;
}

function render(ctx: Context, error: unknown, logger: Logger): void {
  const known = asHttpError(error);
  if (!known || known.status >= 500) {
    const { requestId }: AppState = ctx.state;
    logger.error({ err: error, method: ctx.method, path: ctx.path, requestId }, known?.message ?? 'request failed');
  }
  ctx.remove('ETag');
  ctx.set(known?.headers ?? {});
  // Every 401 says how to authenticate (RFC 9110 11.6.1); the API key's ways unless it named its own (/metrics).
  if (known?.status === 401 && !ctx.response.get('WWW-Authenticate')) ctx.set('WWW-Authenticate', API_KEY_CHALLENGE);
  ctx.set('Cache-Control', 'no-store');
  ctx.status = known?.status ?? 500;
  ctx.body = known
    ? { success: false, message: known.message, error: known.code }
    : { success: false, message: 'Internal server error', error: 'INTERNAL_ERROR' };
}

export function errorEnvelope(logger: Logger): Middleware {
  return async function errorEnvelope(ctx, next) {
    try {
      await next();
      const refusal = unanswered(ctx);
      if (refusal) render(ctx, refusal, logger);
    } catch (error) {
      render(ctx, error, logger);
    }
  };
}
