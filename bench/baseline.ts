/**
 * The baselines, in one process of their own: servers that answer every request with the same
 * constant JSON, the size of `/exchange-rate/latest`'s answer.
 *
 * - bare Koa (one middleware setting the body): the framework the service is built on, with
 *   nothing of ours. Every route's `ratio` is against this.
 * - bare node:http (one writeHead and end): the physical limit of this machine, this Node and
 *   this load generator; no server written in Node answers faster.
 * - two floors, what parts of the production path cost before any work of a route's own:
 *   - Koa behind the service's edge middlewares (server/http/edge.ts: request id, metrics and the
 *     access line at info, compression, CORS, security headers, the error envelope), which every
 *     answer goes through;
 *   - Koa asking the service's rate limiter on Redis once per request (server/access/rate-limit.ts,
 *     the client options of runtime.ts), the round trip every keyed answer waits for.
 *
 * Says `{"event":"ready","koa":port,"node":port,"edge":port,"redis":port,"pid":…}` on stdout;
 * stops when stdin closes. BENCH_REDIS_URL names the Redis.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLimiterRedis } from '../server/access/redis-client';
import Koa from 'koa';
import knex from 'knex';
import { applyDecision, createRateLimiter } from '../server/access/rate-limit';
import { edgeMiddlewares } from '../server/http/edge';
import { createMetrics } from '../server/http/metrics';
import { createLogger, logDestination } from '../server/logger';
import { createRatesStore } from '../server/store/rates';
import { createSyncRunsStore } from '../server/store/sync-runs';
import { createWebhooksStore } from '../server/store/webhooks';

const CONSTANT_BODY = JSON.stringify({
  success: true,
  data: { date: '2025-01-15', currencyFrom: 'USD', currencyTo: 'CRC', buy: 506.47, sell: 512.82, source: 'BCCR', fetchedAt: '2025-01-14T18:05:12.000Z' },
});

function listen(handler: http.RequestListener): Promise<number> {
  return new Promise((resolve) => {
    const server = http.createServer(handler);
    server.keepAliveTimeout = 65_000;
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

function constant(ctx: Koa.Context): void {
  ctx.type = 'application/json; charset=utf-8';
  ctx.body = CONSTANT_BODY;
}

function bareKoa(): Koa {
  const app = new Koa();
  app.use(constant);
  return app;
}

/** The access lines go to /dev/null, through the service's own writer (batched, asynchronous). */
function koaBehindTheEdge(): Koa {
  const app = new Koa();
  // The metrics' database is asked only when they are scraped, which never happens here.
  const unconnected = knex({ client: 'pg' });
  const metrics = createMetrics({
    rates: createRatesStore(unconnected),
    syncRuns: createSyncRunsStore(unconnected),
    webhooks: createWebhooksStore(unconnected),
    clock: () => new Date(),
  });
  const logger = createLogger('info', logDestination('/dev/null'));
  for (const middleware of edgeMiddlewares({ logger, metrics: metrics.requests, corsOrigins: ['*'] })) app.use(middleware);
  app.use(constant);
  return app;
}

/** Counts over as many clients as the bench has keys, each allowed far more than it sends. */
function koaAskingRedis(url: string): Koa {
  const logger = createLogger('warn', logDestination(2));
  const redis = createLimiterRedis(url, logger);
  const limiter = createRateLimiter({ redis, logger, windowSeconds: 60, namespace: `bench-floor-${process.pid}` });
  let request = 0;
  const app = new Koa();
  app.use(async function limitRate(ctx, next) {
    applyDecision(ctx, await limiter.take(`floor:${request++ % 500}`, 1_000_000_000));
    await next();
  });
  app.use(constant);
  return app;
}

const NODE_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(CONSTANT_BODY)) };

function bareNode(_request: http.IncomingMessage, response: http.ServerResponse): void {
  response.writeHead(200, NODE_HEADERS);
  response.end(CONSTANT_BODY);
}

async function main(): Promise<void> {
  const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const [koa, node, edge, redis] = await Promise.all([
    listen(bareKoa().callback()),
    listen(bareNode),
    listen(koaBehindTheEdge().callback()),
    listen(koaAskingRedis(redisUrl).callback()),
  ]);
  process.stdout.write(`${JSON.stringify({ event: 'ready', koa, node, edge, redis, pid: process.pid })}\n`);
  process.stdin.resume();
  process.stdin.on('end', () => process.exit(0));
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
