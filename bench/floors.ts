/**
 * The constant servers the bench measures its floors with (bench/baseline.ts runs them in a
 * process of their own; bench/server.ts runs the edge and Redis one beside the API as well), each
 * answering every request with the same constant JSON, the size of `/exchange-rate/latest`'s.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLimiterRedis } from '../server/access/redis-client';
import type Redis from 'ioredis';
import Koa from 'koa';
import knex from 'knex';
import { applyDecision, createRateLimiter } from '../server/access/rate-limit';
import { edgeMiddlewares } from '../server/http/edge';
import { SECURITY_HEADERS } from '../server/http/middleware/security-headers';
import { createMetrics } from '../server/http/metrics';
import { createLogger, logDestination } from '../server/logger';
import { createRatesStore } from '../server/store/rates';
import { createSyncRunsStore } from '../server/store/sync-runs';
import { createWebhooksStore } from '../server/store/webhooks';

const CONSTANT_BODY = JSON.stringify({
  success: true,
  data: { date: '2025-01-15', currencyFrom: 'USD', currencyTo: 'CRC', buy: 506.47, sell: 512.82, source: 'BCCR', fetchedAt: '2025-01-14T18:05:12.000Z' },
});

export function listen(handler: http.RequestListener): Promise<number> {
  return new Promise((resolve) => {
    const server = http.createServer(handler);
    server.keepAliveTimeout = 65_000;
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

export function constant(ctx: Koa.Context): void {
  ctx.type = 'application/json; charset=utf-8';
  ctx.body = CONSTANT_BODY;
}

export function bareKoa(): Koa {
  const app = new Koa();
  app.use(constant);
  return app;
}

/** The edge's metrics and logger: the access lines go to /dev/null, through the service's own writer (batched, asynchronous). */
export function edgeDeps() {
  // The metrics' database is asked only when they are scraped, which never happens here.
  const unconnected = knex({ client: 'pg' });
  const metrics = createMetrics({
    rates: createRatesStore(unconnected),
    syncRuns: createSyncRunsStore(unconnected),
    webhooks: createWebhooksStore(unconnected),
    clock: () => new Date(),
  });
  return { logger: createLogger('info', logDestination('/dev/null')), metrics: metrics.requests };
}

export function koaBehindTheEdge(): Koa {
  const app = new Koa();
  for (const middleware of edgeMiddlewares({ ...edgeDeps(), corsOrigins: ['*'] })) app.use(middleware);
  app.use(constant);
  return app;
}

/** The headers the edge adds to this answer (a request without Origin): the request id, Vary and the security headers. */
const EDGE_HEADERS = { Vary: 'Accept-Encoding, Origin', ...SECURITY_HEADERS };

/** What the edge writes for every answer, and nothing else: its headers, one metrics observation, one access line. */
export function writeTheEdgeOutputs({ logger, metrics }: ReturnType<typeof edgeDeps>): Koa.Middleware {
  return async function edgeOutputs(ctx, next) {
    const started = performance.now();
    const requestId = randomUUID();
    ctx.set('X-Request-Id', requestId);
    ctx.set(EDGE_HEADERS);
    await next();
    const ms = performance.now() - started;
    metrics.observe(ctx.method, 'unmatched', ctx.status, ms / 1000);
    logger.info({ requestId, method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(ms * 100) / 100 }, 'request');
  };
}

export function koaWritingTheEdgeOutputs(): Koa {
  const app = new Koa();
  app.use(writeTheEdgeOutputs(edgeDeps()));
  app.use(constant);
  return app;
}

/** One rate-limit call per request, over as many clients as the bench has keys, each allowed far more than it sends. */
function limitingOnRedis(url: string, namespace: string): Koa.Middleware {
  const logger = createLogger('warn', logDestination(2));
  const redis = createLimiterRedis(url, logger);
  const limiter = createRateLimiter({ redis, logger, windowSeconds: 60, namespace: `${namespace}-${process.pid}` });
  let request = 0;
  return async function limitRate(ctx, next) {
    applyDecision(ctx, await limiter.take(`floor:${request++ % 500}`, 1_000_000_000));
    await next();
  };
}

/**
 * One round trip to Redis per request, and nothing else: a PING on the limiter's client. No call to
 * Redis costs less, so the limiter's floor cannot go below this one while it asks Redis every time.
 */
export function koaPingingRedis(url: string): Koa {
  const redis = createLimiterRedis(url, createLogger('warn', logDestination(2)));
  const app = new Koa();
  app.use(async function pingRedis(_ctx, next) {
    await redis.ping();
    await next();
  });
  app.use(constant);
  return app;
}

/**
 * One atomic counting script on `redis` (count and expiry, the shape of the limiter's), with
 * nothing of a library's around it: the least an exact count shared in Redis can send per request.
 * Resolves with the count and the milliseconds left in the window.
 */
export function countingScript(redis: Redis, windowMs: number): (key: string) => Promise<[count: number, msLeft: number]> {
  redis.defineCommand('benchCount', {
    numberOfKeys: 1,
    lua: `local n = redis.call('incr', KEYS[1])
if n == 1 then redis.call('pexpire', KEYS[1], ARGV[1]) end
return {n, redis.call('pttl', KEYS[1])}`,
  });
  // defineCommand adds the method at run time; ioredis's types cannot know of it.
  const defined = redis as unknown as { benchCount(key: string, windowMs: number): Promise<[number, number]> };
  return (key) => defined.benchCount(key, windowMs);
}

/**
 * What the limit itself requires, and nothing of the service's own: one counting script per request
 * on the limiter's client (a turn's commands written together, the same way) and the three
 * headers the contract asks of every counted answer. No library, no circuit breaker, no silence
 * watcher. The Redis floor cannot go below this one while the count stays exact and shared.
 */
export function koaScriptingRedis(url: string): Koa {
  const count = countingScript(createLimiterRedis(url, createLogger('warn', logDestination(2))), 60_000);
  const namespace = `bench-floor-script-${process.pid}`;
  const max = 1_000_000_000;
  let request = 0;
  const app = new Koa();
  app.use(async function countOnRedis(ctx, next) {
    const [used, msLeft] = await count(`${namespace}:floor:${request++ % 500}`);
    applyDecision(ctx, { allowed: used <= max, limit: max, remaining: max - used, resetSeconds: Math.max(1, Math.ceil(msLeft / 1000)), windowSeconds: 60 });
    await next();
  });
  app.use(constant);
  return app;
}

export function koaAskingRedis(url: string): Koa {
  const app = new Koa();
  app.use(limitingOnRedis(url, 'bench-floor'));
  app.use(constant);
  return app;
}

/** Both floors in one server: what every keyed answer pays before its key, quota and route. */
export function koaBehindTheEdgeAskingRedis(url: string): Koa {
  const app = new Koa();
  for (const middleware of edgeMiddlewares({ ...edgeDeps(), corsOrigins: ['*'] })) app.use(middleware);
  app.use(limitingOnRedis(url, 'bench-floor-edge'));
  app.use(constant);
  return app;
}

const NODE_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(CONSTANT_BODY)) };

export function bareNode(_request: http.IncomingMessage, response: http.ServerResponse): void {
  response.writeHead(200, NODE_HEADERS);
  response.end(CONSTANT_BODY);
}
