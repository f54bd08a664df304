/**
 * The servers under test, in their own process so the load generator does not share their event
 * loop: the real app (auth, rate limit and quota on) and the same routes with access control off.
 * Prints one JSON line with the ports, a key and its own pid once both listen.
 */
import fs from 'node:fs';
import http from 'node:http';
import inspector from 'node:inspector';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import Router from '@koa/router';
import pino from 'pino';
import { calendarDay } from '../shared/dates';
import { perSecond } from '../server/domain/per-second';
import { API_PREFIX, createApp } from '../server/app';
import type { AccessControl } from '../server/access/access';
import { createMetrics } from '../server/http/metrics';
import { errorEnvelope } from '../server/http/middleware/error-envelope';
import { recordRequest } from '../server/http/middleware/record-request';
import { requestId } from '../server/http/middleware/request-id';
import { securityHeaders } from '../server/http/middleware/security-headers';
import { mountRoutes } from '../server/http/mount';
import { ResponseCache } from '../server/http/response-cache';
import { createApiKeysStore, type ApiKey } from '../server/store/api-keys';
import { createTestDatabase } from '../test/helpers/database';
import { seedFullHistory } from './seed';

const listen = (handler: http.RequestListener) =>
  new Promise<number>((resolve) => {
    const server = http.createServer(handler);
    server.keepAliveTimeout = 65_000;
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });

/** Lets every request through without a key, a limit or a count: the "off" side of the comparison. */
const openAccess = {
  identify: async () => undefined,
  check: async () => undefined,
  requireKey: (): ApiKey => ({ id: 0, name: 'bench', plan: 'custom', keyPrefix: '', monthlyQuota: 0, ratePerMinute: 0, createdAt: '', revokedAt: null }),
  consume: async () => undefined,
  describe: async () => undefined,
} as unknown as AccessControl;

async function main(): Promise<void> {
  // A private database: in memory, or a fresh one beside DATABASE_URL's, dropped on exit.
  const database = await createTestDatabase();
  const db = database.db;
  process.once('SIGTERM', () => {
    database.drop().finally(() => process.exit(0));
  });
  const days = await seedFullHistory(db);
  const { key } = await createApiKeysStore(db).create({ name: 'bench', plan: 'custom', monthlyQuota: 2_000_000_000, ratePerMinute: 100_000_000 });
  const logger = pino({ level: 'silent' });

  const app = createApp({ db, logger });
  const full = await listen(app.callback());

  // The same middlewares and routes, with access control off.
  const bare = new Koa();
  const router = new Router({ prefix: API_PREFIX });
  mountRoutes(router, app.routes, { cache: new ResponseCache(), access: openAccess, today: perSecond(() => new Date(), calendarDay) });
  bare.use(requestId());
  bare.use(recordRequest({ logger, metrics: createMetrics(db).requests }));
  bare.use(errorEnvelope(logger));
  bare.use(securityHeaders());
  bare.use(router.routes());
  const open = await listen(bare.callback());

  if (process.env.BENCH_PROFILE) await profileUntilExit(process.env.BENCH_PROFILE);
  // Its own pid, so its memory is read and not a launcher's.
  process.stdout.write(`${JSON.stringify({ full, open, key, days, pid: process.pid })}\n`);
}

/** CPU profile of the serving only (seeding excluded), written on SIGTERM: open it in Chrome DevTools. */
async function profileUntilExit(file: string): Promise<void> {
  const session = new inspector.Session();
  session.connect();
  const post = (method: string) =>
    new Promise<unknown>((resolve, reject) => session.post(method, (error, result) => (error ? reject(error) : resolve(result))));
  await post('Profiler.enable');
  await post('Profiler.start');
  process.prependOnceListener('SIGTERM', () => {
    session.post('Profiler.stop', (error, result) => {
      if (!error) fs.writeFileSync(file, JSON.stringify(result.profile));
    });
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
