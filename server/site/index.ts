/**
 * Everything outside /api/v1 that people (not programs) use: the landing page, the embeddable
 * widgets and the small JSON they poll, the request-access form and the API reference. Pages have
 * their own, more generous per-IP limits and never touch any key's quota.
 */
import type Router from '@koa/router';
import type Redis from 'ioredis';
import type { Publishing } from '../config';
import type { Logger } from '../logger';
import type { Database } from '../store/database';
import { createAccessRequestsStore } from '../store/access-requests';
import type { CurrencySeries } from '../store/currency-series';
import { limitPerIp } from '../access/rate-limit';
import { loadAssets } from './assets';
import { mountDocs } from './docs';
import { mountFavicon } from './favicon';
import { formErrorsAsPages, mountLanding } from './landing';
import { createLatestRate } from './latest';
import { mountRequestAccess } from './request-access';
import { mountSpreadsheetPages, NO_PUBLISHING } from './spreadsheets';
import { mountWidgets } from './widgets';

export interface SiteDeps {
  db: Database;
  /** The series of every currency, the official one first (the app passes the ones it keeps in memory). */
  currencies: CurrencySeries;
  logger: Logger;
  redis: Redis | null;
  clock: () => Date;
  /** Where visitors reach the site, for the snippets pages hand out (never the request's Host). */
  publicUrl: string;
  /** Tells the site that stored rates changed (its own answers are cached too). */
  onRatesChanged: (listener: () => void) => void;
  /** The instance serves simulated data (`npm run demo`): the pages and widgets say so. False by default. */
  demo?: boolean;
  /** The operator's contact and the add-on's install addresses, for the pages that name them. None by default. */
  publishing?: Publishing;
}

/**
 * Requests per minute per IP on the pages, the widgets and their data. Generous: one office
 * behind one address may show a widget on many screens, each polling once a minute.
 */
export const SITE_LIMITS = { pagesPerMinute: 1200, formPostsPer10Minutes: 10 } as const;

export function mountSite(router: Router, deps: SiteDeps): void {
  const assets = loadAssets();
  const latest = createLatestRate({ currencies: deps.currencies, clock: deps.clock, onRatesChanged: deps.onRatesChanged });
  const pagesLimit = limitPerIp({ redis: deps.redis, logger: deps.logger, namespace: 'site', windowSeconds: 60, max: SITE_LIMITS.pagesPerMinute });

  // Before the form's limit, so that its refusal too becomes a page for a plain form post.
  router.use('/request-access', formErrorsAsPages(assets));
  router.use(
    '/request-access',
    limitPerIp({ redis: deps.redis, logger: deps.logger, namespace: 'site-form', windowSeconds: 10 * 60, max: SITE_LIMITS.formPostsPer10Minutes }),
  );
  mountRequestAccess(router, createAccessRequestsStore(deps.db), assets);
  const demo = deps.demo ?? false;
  mountLanding(router, { latest, assets, limit: pagesLimit, publicUrl: deps.publicUrl, demo });
  mountWidgets(router, { latest, assets, limit: pagesLimit, demo });
  mountSpreadsheetPages(router, {
    assets,
    limit: pagesLimit,
    publicUrl: deps.publicUrl,
    publishing: deps.publishing ?? NO_PUBLISHING,
    clock: deps.clock,
    demo,
  });
  assets.mount(router, pagesLimit);
  // Constant bytes from memory: cheaper to serve than to count against a limit.
  mountFavicon(router);
  mountDocs(router);
}
