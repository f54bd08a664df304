/**
 * Everything outside /api/v1 that people (not programs) use: the request-access form and the API
 * reference. Pages have their own, more generous per-IP limits and never touch any key's quota.
 */
import type Router from '@koa/router';
import type Redis from 'ioredis';
import type { Logger } from '../logger';
import type { Database } from '../store/database';
import { createAccessRequestsStore } from '../store/access-requests';
import { rateLimit } from '../http/rate-limit';
import { mountDocs } from './docs';
import { mountRequestAccess } from './request-access';

export interface SiteDeps {
  db: Database;
  logger: Logger;
  redis: Redis | null;
  clock: () => Date;
  /** Tells the site that stored rates changed (its own answers are cached too). */
  onRatesChanged: (listener: () => void) => void;
}

export function mountSite(router: Router, deps: SiteDeps): void {
  router.use(
    '/request-access',
    rateLimit({ redis: deps.redis, logger: deps.logger, namespace: 'site-form', windowMs: 10 * 60_000, client: (ctx) => ({ id: `ip:${ctx.ip}`, max: 10 }) }),
  );
  mountRequestAccess(router, createAccessRequestsStore(deps.db));
  mountDocs(router);
}
