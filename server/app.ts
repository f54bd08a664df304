/**
 * The HTTP application, built from its dependencies so that tests run the whole thing in-process
 * against a real database. `main.ts` adds the listening socket, the schedule and the shutdown.
 */
import Koa from 'koa';
import type { AppState } from './app-state';
import Router from '@koa/router';
import type Redis from 'ioredis';
import { calendarDay } from '../shared/dates';
import { perSecond } from './domain/per-second';
import type { ChangeFeed } from './changes';
import { createLocalChangeFeed } from './changes';
import type { Database } from './store/database';
import { createApiKeysStore } from './store/api-keys';
import { createBankingStore } from './store/banking';
import { createRatesStore } from './store/rates';
import { createRatesInMemory } from './store/rates-in-memory';
import { createCrossRatesStore } from './store/cross-rates';
import { createMonexStore } from './store/monex';
import { createCurrencySeries } from './store/currency-series';
import { createProvisionalRatesStore } from './store/provisional-rates';
import { createSyncRunsStore } from './store/sync-runs';
import { createSyncView } from './jobs/sync-status';
import { createUsageStore } from './store/usage';
import type { Publishing } from './config';
import type { Logger } from './logger';
import { createAccessControl } from './access/access';
import { edgeMiddlewares } from './http/edge';
import { mountRoutes } from './http/mount';
import { rehearse } from './http/rehearsal';
import { routeByPrefix } from './http/routers';
import { ResponseCache } from './http/response-cache';
import { logStreamErrors } from './http/stream-errors';
import type { Route } from './http/route';
import { apiRoutes } from './routes';
import { createInsightsService } from './insights/service';
import { withDocuments } from './http/routes/documents';
import { mountSite } from './site';
import { provenanceHtmlPage } from './site/provenance';
import { loadMcpSdk, mountMcp } from './mcp/http';
import { API_PREFIX, DEFAULT_PUBLIC_URL } from './http/urls';
import { mountLlmsTxt } from './site/llms-txt';
import { createMetrics } from './http/metrics';
import { version } from './version';
import { randomBytes } from 'node:crypto';
import { mountWebhooks } from './http/routes/webhooks';
import { checkTarget, type TargetPolicy } from './jobs/webhook-target';
import { createWebhooksStore } from './store/webhooks';

// In a module of their own, so that the MCP server on stdio knows them without loading the app.
export { API_PREFIX, DEFAULT_PUBLIC_URL };

export interface AppDeps {
  db: Database;
  logger: Logger;
  /** Injected so tests can pin "today" and the quota month. */
  clock?: () => Date;
  changes?: ChangeFeed;
  /** Shares rate limits across instances; null or absent keeps them in this process. */
  redis?: Redis | null;
  /**
   * How long Redis may send nothing to a waiting request before the request is counted in this
   * process (25 ms unless given); time this process is busy is not counted against Redis.
   */
  redisDeadlineMs?: number;
  corsOrigins?: readonly string[];
  /**
   * The proxies in front of the service to trust (a number, or true for one): X-Forwarded-Proto is
   * then believed, and the client's address is the entry of X-Forwarded-For that the outermost
   * trusted proxy wrote, counted from the right, so no client can choose it by writing to the left.
   */
  trustProxy?: boolean | number;
  /**
   * Where clients reach the service (`https://rates.example.com`), written into the documents and
   * pages. Never taken from the request: a forged Host would end up in cached answers.
   */
  publicUrl?: string;
  /** The operator's contact and where the add-on is installed from, for the site's pages (none by default). */
  publishing?: Publishing;
  /** The operator token of /metrics; without one the route does not exist. */
  metricsToken?: string | null;
  /** An OpenAI-compatible model for /insights; null or absent answers with the statistical text. */
  llm?: { baseUrl: string; apiKey: string; model: string; timeoutMs?: number } | null;
  /** Serves simulated data (`npm run demo`): the pages and widgets carry a "demo data" badge. */
  demo?: boolean;
  /** No BCCR_TOKEN: only the dollar is synced, and health says that other currencies need one. */
  currenciesNeedToken?: boolean;
  /** No BCCR_TOKEN: MONEX is not synced, and health says it needs one. */
  monexNeedsToken?: boolean;
  /** When this instance's scheduler syncs next (main.ts passes the scheduler's), told by health; absent: none planned. */
  nextSyncAt?: () => Date | null;
  /**
   * Webhooks: the key subscription secrets are sealed with (the delivery worker must have the
   * same), which targets are allowed, and whom to tell of new deliveries. Absent: a key of this
   * process alone, and only public https targets.
   */
  webhooks?: { sealKey: Buffer; policy: TargetPolicy; onQueued?: () => void };
}

export interface App extends Koa<AppState> {
  readonly routes: readonly Route[];
  readonly responseCache: ResponseCache;
  /** Hands back what the instance holds for others (unspent quota); call it before exiting. */
  release(): Promise<void>;
  /**
   * Loads what the first requests would otherwise wait for (the official series, the MCP SDK); call it before
   * listening, so the first answer after a restart is as fast as the others (http/rehearsal.ts).
   */
  warmUp(): Promise<void>;
}

export function createApp(deps: AppDeps): App {
  const clock = deps.clock ?? (() => new Date());
  const changes = deps.changes ?? createLocalChangeFeed();
  const redis = deps.redis ?? null;
  const publicUrl = (deps.publicUrl ?? DEFAULT_PUBLIC_URL).replace(/\/+$/, '');
  const rates = createRatesStore(deps.db);
  // Read routes, the site and insights answer from memory; health keeps asking the database itself.
  const series = createRatesInMemory(rates, (listener) => changes.onRatesChanged(listener));
  const cross = createCrossRatesStore(deps.db);
  const currencies = createCurrencySeries({
    dollar: series,
    cross,
    provisional: createProvisionalRatesStore(deps.db),
    onRatesChanged: (listener) => changes.onRatesChanged(listener),
  });
  const access = createAccessControl({
    keys: createApiKeysStore(deps.db),
    usage: createUsageStore(deps.db),
    clock,
    redis,
    redisDeadlineMs: deps.redisDeadlineMs,
    logger: deps.logger,
  });
  const cache = new ResponseCache();
  changes.onRatesChanged(() => cache.clear());
  changes.onKeysChanged(() => access.forgetKeys());
  const syncRuns = createSyncRunsStore(deps.db);
  const webhooks = createWebhooksStore(deps.db);
  // What health and the 404 of an empty series say about the sync.
  const sync = createSyncView(syncRuns, deps.nextSyncAt);

  const routes = withDocuments(
    apiRoutes({
      exchangeRate: { currencies, sync },
      currencies: { dollar: series, cross },
      purposes: {},
      close: { currencies },
      provenance: { db: deps.db, currencies, onObservationsChanged: (listener) => changes.onObservationsChanged(listener), page: provenanceHtmlPage },
      convert: { currencies, sync },
      banking: { banking: createBankingStore(deps.db), rates: series },
      monex: { monex: createMonexStore(deps.db), dollar: series },
      insights: { service: createInsightsService({ db: deps.db, rates: series, llm: deps.llm ?? null, logger: deps.logger, clock }), sync },
      usage: { access },
      health: {
        rates,
        syncRuns,
        sync,
        version,
        startedAt: Date.now(),
        onRatesChanged: (listener) => changes.onRatesChanged(listener),
        currenciesNeedToken: deps.currenciesNeedToken ?? false,
        monexNeedsToken: deps.monexNeedsToken ?? false,
        webhookQueue: () => webhooks.queue(clock()),
        clock,
      },
    }),
    { version, publicUrl },
  );

  const api = new Router<AppState>({ prefix: API_PREFIX });
  const today = perSecond(clock, calendarDay);
  mountRoutes(api, routes, { cache, access, today });
  const webhookPolicy = deps.webhooks?.policy ?? { allowHttp: false, allowPrivate: false };
  mountWebhooks(api, {
    store: webhooks,
    access,
    checkUrl: async (url) => void (await checkTarget(url, webhookPolicy)),
    sealKey: deps.webhooks?.sealKey ?? randomBytes(32),
    clock,
    onQueued: deps.webhooks?.onQueued ?? (() => undefined),
    latest: (currency) => currencies.of(currency).latest(today()),
  });
  mountMcp(api, { routes, access, today, logger: deps.logger, demo: deps.demo ?? false });

  const site = new Router<AppState>();
  mountSite(site, {
    db: deps.db,
    currencies,
    logger: deps.logger,
    redis,
    clock,
    publicUrl,
    onRatesChanged: (listener) => changes.onRatesChanged(listener),
    demo: deps.demo ?? false,
    ...(deps.publishing ? { publishing: deps.publishing } : {}),
  });
  mountLlmsTxt(site, routes, { publicUrl, apiPrefix: API_PREFIX });
  // Liveness touches no dependency: it says the process answers, nothing more.
  site.get('/livez', (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { status: 'ok' };
  });
  const metrics = createMetrics({ rates, syncRuns, webhooks, clock });
  metrics.mount(site, deps.metricsToken ?? null);

  const proxyHops = deps.trustProxy === true ? 1 : Number(deps.trustProxy ?? 0);
  // Koa's maxIpsCount keeps the last N entries of X-Forwarded-For, and ctx.ip is the first of them.
  const koa = new Koa<AppState>({ proxy: proxyHops > 0, maxIpsCount: proxyHops });
  koa.on('error', logStreamErrors(deps.logger));
  for (const middleware of edgeMiddlewares({ logger: deps.logger, metrics: metrics.requests, corsOrigins: deps.corsOrigins ?? ['*'] })) koa.use(middleware);
  koa.use(routeByPrefix(API_PREFIX, api, site));

  const warmUp = async () => {
    await series.latest(calendarDay(clock()));
    await rehearse(koa.callback(), ['/livez', `${API_PREFIX}/exchange-rate/latest`], deps.logger);
    await loadMcpSdk();
  };
  return Object.assign(koa, { routes, responseCache: cache, release: () => access.release(), warmUp });
}
