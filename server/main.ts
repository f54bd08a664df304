/**
 * The process: configuration, database, HTTP server, and a graceful stop on SIGTERM/SIGINT
 * (stop accepting, let in-flight requests finish, then close the database).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from './app';
import { ConfigError, loadConfig } from './config';
import { DataDirInUseError } from './store/database';
import { type Scheduler, startScheduler } from './jobs/scheduler';
import { syncBanking } from './jobs/sync-banking';
import { scheduledCurrencies } from './jobs/sync-currencies';
import { scheduledProvisionalEuro } from './jobs/sync-provisional';
import { scheduledMonex } from './jobs/sync-monex';
import { boundHeapGrowth, collectStartGarbage } from './heap';
import { openRuntime, servingDeps } from './runtime';
import { createWebhookWorker } from './jobs/webhook-worker';
import { resolveSealKey } from './store/webhook-key';

const SHUTDOWN_GRACE_MS = 10_000;
async function main(): Promise<void> {
  boundHeapGrowth();
  const config = loadConfig();
  const runtime = await openRuntime(config, undefined, { serve: true });
  const { logger, db, changes } = runtime;

  // Started once the server listens (below); health asks it when it syncs next.
  let scheduler: Scheduler | null = null;
  const sealKey = resolveSealKey({ secretKey: config.webhooks.secretKey, databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  if (sealKey.origin === 'DATABASE_URL')
    logger.warn('webhook secrets are sealed with a key derived from DATABASE_URL: set WEBHOOK_SECRET_KEY (every instance the same)');
  else logger.info({ from: sealKey.origin }, 'webhook secrets are sealed with a key from the %s', sealKey.origin);
  const policy = { allowHttp: config.webhooks.allowHttp, allowPrivate: config.webhooks.allowPrivate };
  // Every server delivers: on PostgreSQL the rows are shared out by SKIP LOCKED; the embedded database has this one server.
  const webhooks = createWebhookWorker({ db, logger, clock: () => new Date(), sealKey: sealKey.key, policy, leaseMs: config.webhooks.leaseSeconds * 1000 });
  changes.onRatesChanged(() => webhooks.nudge());
  const app = createApp({
    ...servingDeps(config, runtime),
    nextSyncAt: () => scheduler?.nextAttemptAt() ?? null,
    webhooks: { sealKey: sealKey.key, policy, onQueued: () => webhooks.nudge() },
  });
  // The series first, so the first request after a restart does not wait for it.
  await app.warmUp();
  await collectStartGarbage();
  const server = http.createServer(app.callback());
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(config.port, resolve));
  const { port } = server.address() as AddressInfo;
  logger.info({ port, database: config.databaseUrl ? 'postgresql' : `embedded (${config.dataDir})` }, 'listening');
  // Starts with a catch-up in the background: the server answers from what it has meanwhile.
  const syncDeps = { db, logger, changes, clock: () => new Date() };
  const { crossSource, monexSource } = runtime;
  webhooks.start();
  scheduler = startScheduler(syncDeps, runtime.sources, {
    cron: config.syncCron,
    // The window quotes of the last week ride along on every scheduled run.
    extraJobs: [
      (signal) => syncBanking({ ...syncDeps, signal }, runtime.ventanilla),
      // The other currencies, with the token only: the first run backfills since CURRENCIES_SINCE.
      ...(crossSource ? [scheduledCurrencies(syncDeps, crossSource, config.currenciesSince)] : []),
      // Hacienda's euro, token or not, once the currencies have had their turn: today's EUR sell until the central bank publishes.
      scheduledProvisionalEuro(syncDeps, runtime.haciendaEuro),
      // MONEX, with the token only, on the same afternoon ticks (after the midday session); the first run backfills since MONEX_SINCE.
      ...(monexSource ? [scheduledMonex(syncDeps, monexSource, config.monexSince)] : []),
    ],
  });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const forced = setTimeout(() => {
      logger.warn('in-flight requests did not finish in time; closing them');
      server.closeAllConnections();
    }, SHUTDOWN_GRACE_MS);
    forced.unref();
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
    });
    await app.release();
    await scheduler?.stop();
    await webhooks.stop();
    await runtime.close();
    logger.info('stopped');
    logger.flush();
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DataDirInUseError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(`crc-rates failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  }
  process.exit(1);
});
