import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import Router from '@koa/router';
import cors from '@koa/cors';
import compress from 'koa-compress';
import pino from 'pino';
import { requestId } from '../server/http/middleware/request-id';
import { recordRequest } from '../server/http/middleware/record-request';
import { errorEnvelope } from '../server/http/middleware/error-envelope';
import { apiSecurityHeaders } from '../server/http/middleware/security-headers';
import { createMetrics } from '../server/http/metrics';

const variant = process.argv[2] ?? 'A';
const constant = JSON.stringify({
  success: true,
  data: { date: '2025-01-15', currencyFrom: 'USD', currencyTo: 'CRC', buy: 506.47, sell: 512.82, source: 'BCCR', fetchedAt: '2025-01-14T18:05:12.000Z' },
});
const logger = pino({ level: 'silent' });
const app = new Koa();
const steps = 'ABCDEFGH'.indexOf(variant);
if (steps >= 1) app.use(requestId());
if (steps >= 2) app.use(recordRequest({ logger, metrics: createMetrics(null as never).requests }));
if (steps >= 3) app.use(compress());
if (steps >= 4) app.use(cors({ origin: () => '*' }));
if (steps >= 5) {
  app.use(errorEnvelope(logger));
  app.use(apiSecurityHeaders('/api'));
}
const answer = (ctx: Koa.Context) => {
  ctx.type = 'application/json; charset=utf-8';
  ctx.body = constant;
};
if (steps >= 6) {
  const router = new Router({ prefix: '/api/v1' });
  for (const p of ['/a', '/b', '/c', '/d', '/e', '/f', '/g', '/h', '/i', '/j', '/k', '/l', '/exchange-rate/latest'])
    router.get(p, async (ctx, next) => next(), answer);
  app.use(router.routes());
  app.use(router.allowedMethods());
} else app.use(answer);
const server = http.createServer(app.callback());
server.listen(0, '127.0.0.1', () => process.stdout.write(`${(server.address() as AddressInfo).port}\n`));
