/**
 * Every answered request is counted in the metrics (by method, route pattern and status) and
 * written as one log line. Runs outside the error envelope, so it sees the status actually sent.
 */
import type { AppState } from '../../app-state';
import type { Middleware } from 'koa';
import type { Logger } from '../../logger';

export interface RequestMetrics {
  /** One answered request: its method, route pattern and status, and how long it took. */
  observe(method: string, route: string, status: number, seconds: number): void;
}

export function recordRequest(deps: { logger: Logger; metrics: RequestMetrics }): Middleware {
  return async function recordRequest(ctx, next) {
    const started = performance.now();
    try {
      await next();
    } finally {
      const ms = performance.now() - started;
      // The route's pattern, never the raw path (which would make a series per query); set by @koa/router.
      const route = typeof ctx._matchedRoute === 'string' ? ctx._matchedRoute : 'unmatched';
      deps.metrics.observe(ctx.method, route, ctx.status, ms / 1000);
      // The path only: the query string is logged without the headers, where the key travels.
      const { requestId }: AppState = ctx.state;
      deps.logger.info({ requestId, method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(ms * 100) / 100 }, 'request');
    }
  };
}
