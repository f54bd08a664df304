/**
 * `npm run demo`: the whole service, offline, on simulated data. It starts the simulated central
 * bank on a free local port, points the sources at it through the settings that point the real
 * ones at the central bank, fills a fresh embedded database in a folder of its own with the first
 * sync, creates an API key, prints it with a line to paste and the command that makes more keys on
 * it, and serves until SIGTERM or SIGINT.
 * Every stored rate says `DEMO` and the pages carry a "demo data" badge. This is an entry of its
 * own (scripts/build.mjs), not a setting: nothing `npm start` reads can lead here.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createApp } from '../app';
import { ConfigError, loadConfig } from '../config';
import { catchUpOfficial } from '../jobs/catch-up';
import { syncBanking } from '../jobs/sync-banking';
import { CURRENCIES_CONCURRENCY, catchUpCurrencies } from '../jobs/sync-currencies';
import { DERIVED_CURRENCIES } from '../../shared/currency-catalog';
import { addDays } from '../../shared/dates';
import { boundHeapGrowth, collectStartGarbage } from '../heap';
import { openRuntime, servingDeps } from '../runtime';
import { createApiKeysStore } from '../store/api-keys';
import { demoBanner } from './banner';
import { startFakeUpstream } from './bccr-upstream';
import { demoEnvironment, ignoredSettings } from './environment';
import { asDemoCrossSource, asDemoMonexSource, asDemoSources } from './sources';
import { catchUpMonex } from '../jobs/sync-monex';

const SHUTDOWN_GRACE_MS = 10_000;

/** What start has opened, closed last-opened first. */
type Closer = () => Promise<void>;

async function start(signal: AbortSignal, closers: Closer[]): Promise<void> {
  // Only catalog institutions: the demo's own sample must not trigger the sync's warning about
  // an institution nobody has classified.
  const upstream = await startFakeUpstream({ token: 'demo', catalogInstitutionsOnly: true });
  closers.push(() => upstream.close());
  // Under the OS's temporary folder: new on every run, so the demo starts fresh, never meets the
  // data of `npm start` (./data or DATA_DIR), and two demos never share one.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'crc-rates-demo-'));
  closers.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));

  const config = loadConfig(demoEnvironment(process.env, upstream, dataDir));
  const runtime = await openRuntime(config, undefined, { serve: true });
  closers.push(() => runtime.close());
  const { logger, db, changes } = runtime;

  process.stdout.write(`crc-rates demo: filling a fresh database with the simulated history (${upstream.today} back to 1983)…\n`);
  const syncDeps = { db, logger, changes, clock: () => new Date(), signal };
  const official = await catchUpOfficial(syncDeps, asDemoSources(runtime.sources));
  if (signal.aborted) return;
  if (!official.ok || official.unfilled.length > 0) {
    const failed = official.runs.find((run) => run.status === 'failed');
    throw new Error(`the first sync from the simulated central bank did not complete: ${failed?.error ?? `${official.unfilled.length} days missing`}`);
  }
  const banking = await syncBanking(syncDeps, runtime.ventanilla);
  if (signal.aborted) return;
  if (banking.status !== 'succeeded')
    throw new Error(`the window quotes of the simulated central bank could not be synced: ${banking.error ?? banking.status}`);
  // The other currencies' last year (the whole history since 2000 would take the demo minutes).
  if (runtime.crossSource) {
    const currencies = await catchUpCurrencies(syncDeps, asDemoCrossSource(runtime.crossSource), DERIVED_CURRENCIES, {
      since: addDays(upstream.today, -365),
      concurrency: CURRENCIES_CONCURRENCY,
    });
    if (signal.aborted) return;
    if (!currencies.ok)
      throw new Error(`the other currencies of the simulated central bank could not be synced: ${currencies.runs.find((r) => r.status === 'failed')?.error}`);
  }
  // MONEX's last year, as for the other currencies.
  if (runtime.monexSource) {
    const monex = await catchUpMonex(syncDeps, asDemoMonexSource(runtime.monexSource), { since: addDays(upstream.today, -365) });
    if (signal.aborted) return;
    if (!monex.ok) throw new Error(`MONEX of the simulated central bank could not be synced: ${monex.runs.find((r) => r.status === 'failed')?.error}`);
  }
  const { key } = await createApiKeysStore(db).create({ name: 'demo', plan: 'pro' });

  const app = createApp({ ...servingDeps(config, runtime), demo: true });
  await app.warmUp();
  await collectStartGarbage();
  const server = http.createServer(app.callback());
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      // Most likely `npm start` has the port: say so in one line rather than with a stack.
      reject(error.code === 'EADDRINUSE' ? new ConfigError('PORT', `${config.port} is in use; choose another, e.g. PORT=3001 npm run demo`) : error),
    );
    server.listen(config.port, resolve);
  });
  closers.push(async () => {
    const forced = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
    forced.unref();
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
    });
    await app.release();
  });
  const { port } = server.address() as AddressInfo;
  logger.info({ port, dataDir }, 'demo listening');
  process.stdout.write(demoBanner({ url: `http://localhost:${port}`, key, dataDir, ignoredSettings: ignoredSettings(process.env) }));
}

function describe(error: unknown): string {
  if (error instanceof ConfigError) return error.message;
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

async function main(): Promise<void> {
  boundHeapGrowth();
  const stopping = new AbortController();
  const closers: Closer[] = [];
  const closeAll = async () => {
    for (let closer = closers.pop(); closer; closer = closers.pop()) await closer();
  };
  let starting: Promise<void> = Promise.resolve();
  const stop = (signal: NodeJS.Signals) => {
    if (stopping.signal.aborted) return;
    // Cuts a first sync short; what start opened meanwhile is closed once it has returned.
    stopping.abort();
    process.stdout.write(`crc-rates demo: ${signal}, stopping\n`);
    starting
      // A failed start has been reported below; what it opened still has to be closed.
      .catch(() => undefined)
      .then(closeAll)
      .then(
        () => process.stdout.write('crc-rates demo: stopped, its data deleted\n'),
        (error: unknown) => {
          process.stderr.write(`crc-rates demo did not stop cleanly: ${describe(error)}\n`);
          process.exitCode = 1;
        },
      );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);

  starting = start(stopping.signal, closers);
  try {
    await starting;
  } catch (error) {
    process.stderr.write(`crc-rates demo failed to start: ${describe(error)}\n`);
    // A stop in progress closes what start opened and lets the process end by itself.
    if (stopping.signal.aborted) {
      process.exitCode = 1;
      return;
    }
    await closeAll().catch((closing: unknown) => process.stderr.write(`crc-rates demo did not stop cleanly: ${describe(closing)}\n`));
    process.exit(1);
  }
}

void main();
