/**
 * The HTTP application, built from its dependencies so that tests run the whole thing in-process
 * against a real database. `main.ts` adds the listening socket, the schedule and the shutdown.
 */
import Koa from 'koa';
import Router from '@koa/router';
import { calendarDay } from '../shared/dates';
import type { ChangeFeed } from './changes';
import { createLocalChangeFeed } from './changes';
import type { Database } from './store/database';
import { createRatesStore } from './store/rates';
import { createSyncRunsStore } from './store/sync-runs';
import type { Logger } from './logger';
import { errorEnvelope } from './http/envelope';
import { HttpError } from './http/errors';
import { mountRoutes } from './http/mount';
import { requestLog } from './http/request-log';
import { ResponseCache } from './http/response-cache';
import type { Route } from './http/route';
import { convertRoutes } from './http/routes/convert';
import { exchangeRateRoutes } from './http/routes/exchange-rate';
import { healthRoutes } from './http/routes/health';
import { version } from './version';

export const API_PREFIX = '/api/v1';

const readOnly = () =>
  new HttpError('METHOD_NOT_ALLOWED', 'Method not allowed: this API is read-only (GET, HEAD, OPTIONS)', { Allow: 'GET, HEAD, OPTIONS' });

export interface AppDeps {
  db: Database;
  logger: Logger;
  /** Injected so tests can pin "today". */
  clock?: () => Date;
  changes?: ChangeFeed;
}

export interface App extends Koa {
  readonly routes: readonly Route[];
  readonly responseCache: ResponseCache;
}

export function createApp(deps: AppDeps): App {
  const clock = deps.clock ?? (() => new Date());
  const changes = deps.changes ?? createLocalChangeFeed();
  const rates = createRatesStore(deps.db);
  const cache = new ResponseCache();
  changes.onRatesChanged(() => cache.clear());

  const routes: Route[] = [
    ...exchangeRateRoutes({ rates }),
    ...convertRoutes({ rates }),
    ...healthRoutes({ rates, syncRuns: createSyncRunsStore(deps.db), version, startedAt: Date.now() }),
  ];

  const api = new Router({ prefix: API_PREFIX });
  mountRoutes(api, routes, { cache, scope: () => ({ today: calendarDay(clock()) }) });

  const koa = new Koa({ proxy: true });
  koa.use(requestLog(deps.logger));
  koa.use(errorEnvelope(deps.logger));
  koa.use(async (ctx, next) => {
    await next();
    // Nothing answered: not a route of ours (a known path with a wrong method is a 405 below).
    if (ctx.status === 404 && ctx.body == null) throw new HttpError('NOT_FOUND', `No route for ${ctx.method} ${ctx.path}`);
  });
  koa.use(api.routes());
  koa.use(
    api.allowedMethods({
      throw: true,
      methodNotAllowed: readOnly,
      notImplemented: readOnly,
    }),
  );

  return Object.assign(koa, { routes, responseCache: cache });
}
