/**
 * What every request goes through around its route, as one middleware: its id, CORS for
 * browsers, the 404 or 405 when no route answered, the error envelope, the metrics, the log line
 * and the single write of the answer. One layer rather than six: each Koa layer is an async hop
 * per request, and six of them cost more than serving a cached answer.
 */
import type { Context, Middleware } from 'koa';
import type { Logger } from '../logger';
import { renderError } from './envelope';
import { HttpError } from './errors';
import { openOutgoing } from './outgoing';
import { assignRequestId, logRequest } from './request-log';

export interface LifecycleDeps {
  logger: Logger;
  metrics: { record(ctx: Context, seconds: number): void };
  /** CORS for requests that carry `Origin`; absent where no browser calls (the benchmark's servers). */
  crossOrigin?: Middleware;
}

/** Nothing answered: a path of no route, or a known path with a method it does not take. */
function refuseUnanswered(ctx: Context): void {
  if (ctx.body != null) return;
  // The routers' allowedMethods answered a known path with a wrong (or unknown) method.
  if (ctx.status === 405 || ctx.status === 501) {
    const allow = ctx.response.get('Allow') || 'GET, HEAD, OPTIONS';
    throw new HttpError('METHOD_NOT_ALLOWED', `Method ${ctx.method} is not allowed on ${ctx.path}; allowed: ${allow}`, { Allow: allow });
  }
  if (ctx.status === 404) throw new HttpError('NOT_FOUND', `No route for ${ctx.method} ${ctx.path}`);
}

export function requestLifecycle(deps: LifecycleDeps): Middleware {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    const out = openOutgoing(ctx);
    assignRequestId(ctx);
    try {
      // Only browsers on other origins send Origin, and only they read CORS headers: servers,
      // Sheets and the SDK in Node skip that work. Vary still tells shared caches the answer may differ.
      if (deps.crossOrigin && ctx.get('origin')) {
        await deps.crossOrigin(ctx, next);
      } else {
        out.set('Vary', 'Origin');
        await next();
      }
      if (!out.sent) refuseUnanswered(ctx);
    } catch (error) {
      renderError(ctx, error, deps.logger);
    }
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    deps.metrics.record(ctx, seconds);
    logRequest(deps.logger, ctx, seconds);
    out.flush(ctx);
  };
}
