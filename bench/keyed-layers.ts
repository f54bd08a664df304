/**
 * What a keyed answer costs over the edge and the per-minute limit, in process and without HTTP
 * (bench/in-process.ts), layer by layer: the bench's `/exchange-rate/latest` with a key from a
 * rotation of a few hundred (the Pro plan's quota, as in `npm run bench`'s keys), through
 *   - the edge and one count of the per-minute limit, then the floors' constant answer (the floor);
 *   - the edge and the route's access rules (guard.ts: the key, the limit, the monthly quota and
 *     their headers), then the constant answer;
 *   - the edge and the route mounted alone on its router (mount.ts: the format, the response
 *     cache, the ETag), dispatched as the app dispatches it (routers.ts);
 *   - the whole app (createApp): both routers, every route.
 * The limit is counted in memory in every layer, so that the differences are the service's own
 * work, not Redis's round trips.
 *
 *   npm run bench:keyed                                  the embedded database, in memory
 *   DATABASE_URL=postgres://… npm run bench:keyed        a private database next to that one
 *
 * The quota's leases are statements on that database: on the embedded one they run on this
 * process's thread and weigh on every keyed layer. 50,000 requests a layer and round; medians over
 * the rounds (BENCH_ROUNDS, 7 unless given).
 */
import Router from '@koa/router';
import Koa from 'koa';
import { createAccessControl } from '../server/access/access';
import { guard } from '../server/access/guard';
import { applyDecision, createRateLimiter } from '../server/access/rate-limit';
import { createApp } from '../server/app';
import { perSecond } from '../server/domain/per-second';
import { edgeMiddlewares } from '../server/http/edge';
import { mountRoutes } from '../server/http/mount';
import { routeByPrefix } from '../server/http/routers';
import { ResponseCache } from '../server/http/response-cache';
import { API_PREFIX } from '../server/http/urls';
import { createLogger, logDestination } from '../server/logger';
import { createApiKeysStore } from '../server/store/api-keys';
import { createUsageStore } from '../server/store/usage';
import { calendarDay } from '../shared/dates';
import { createTestDatabase } from '../test/helpers/database';
import { constant, edgeDeps } from './floors';
import { chain, type Layer, measureLayers, requestContext } from './in-process';
import { createBenchKeys, seedFullHistory } from './seed';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const REQUESTS = 50_000;
const PATH = '/exchange-rate/latest';
/** Requests the runner gives one key at most (bench/README.md, Keys): its leases stay a Pro key's at the start of its month. */
const PER_KEY = 4000;

async function main(): Promise<void> {
  const database = await createTestDatabase();
  await seedFullHistory(database.db);
  const keyedRequests = 3 * (ROUNDS + 1) * REQUESTS;
  const keys = await createBenchKeys(database.db, Math.max(300, Math.ceil(keyedRequests / PER_KEY)));
  const logger = createLogger('info', logDestination('/dev/null'));
  const clock = () => new Date();

  const app = createApp({ db: database.db, logger, redis: null });
  await app.warmUp();
  const route = app.routes.find((r) => r.path === PATH);
  if (!route) throw new Error(`no route ${PATH}`);
  const access = createAccessControl({ keys: createApiKeysStore(database.db), usage: createUsageStore(database.db), clock, redis: null, logger });
  const router = new Router({ prefix: API_PREFIX });
  mountRoutes(router, [route], { cache: new ResponseCache(), access, today: perSecond(clock, calendarDay) });

  const limiter = createRateLimiter({ redis: null, logger, windowSeconds: 60, namespace: 'bench-floor' });
  const edge = edgeMiddlewares({ ...edgeDeps(), corsOrigins: ['*'] });
  const answer: Koa.Middleware = async (ctx) => constant(ctx);
  // The layers built here run on a plain Koa's contexts; the whole app on its own.
  const plainKoa = new Koa();
  const layer = (name: string, middlewares: Koa.Middleware[], of: Koa = plainKoa): Layer => {
    const run = chain(middlewares);
    return [name, (i) => run(requestContext(of, `${API_PREFIX}${PATH}`, keys[i % keys.length] ?? ''))];
  };
  const countOnce: Koa.Middleware = async (ctx, next) => {
    applyDecision(ctx, await limiter.take(`key:${ctx.get('x-api-key')}`, 1_000_000_000));
    await next();
  };

  console.log(`${database.url === null ? 'The embedded database, in memory' : 'PostgreSQL'}; ${keys.length} keys in rotation\n`);
  await measureLayers(
    [
      layer('the edge and one count of the limit (the floor)', [...edge, countOnce, answer]),
      layer("the edge and the route's access rules", [...edge, guard(access, route), answer]),
      layer('the edge and the route alone on its router', [...edge, routeByPrefix(API_PREFIX, router, new Router())]),
      layer('the whole app', app.middleware, app),
    ],
    { rounds: ROUNDS, requests: REQUESTS },
  );
  await Promise.all([app.release(), access.release()]);
  await database.drop();
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
