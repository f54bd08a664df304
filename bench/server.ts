/**
 * The server under test, in its own process and built like production's (see processes.ts): the
 * real app from createApp, with what server/main.ts and server/runtime.ts give it.
 *
 *   BENCH_DATABASE_URL  a private PostgreSQL database, already migrated, seeded and keyed by the
 *                       runner; absent: the embedded database in memory (createTestDatabase), which
 *                       this process seeds itself and keys with BENCH_KEYS keys
 *   BENCH_REDIS_URL     the Redis the rate limiter shares; absent: limits counted in memory
 *   LOG_LEVEL           the access log's level (the runner sets info, as production)
 *   BENCH_LOG_FILE      where the log goes (the runner reads its warnings and errors afterwards);
 *                       absent: /dev/null
 *   BENCH_PROFILE       a file: a CPU profile of the serving (from listening to SIGTERM) is written
 *                       there, to open in Chrome DevTools
 *
 * Says `{"event":"ready",…}` on stdout once it listens; `keys <n>` on stdin makes n more keys and
 * answers `{"event":"keys","keys":[…]}`; `collector` answers the collector's pauses so far
 * (`{"event":"collector","pauseUs":…}`). Stops on SIGTERM, or when stdin closes (the runner died).
 */
import fs from 'node:fs';
import inspector from 'node:inspector';
import { PerformanceObserver } from 'node:perf_hooks';
import { createLimiterRedis } from '../server/access/redis-client';
import type pino from 'pino';
import readline from 'node:readline';
import v8 from 'node:v8';
import { createApp } from '../server/app';
import { createLocalChangeFeed } from '../server/changes';
import { boundHeapGrowth, collectStartGarbage } from '../server/heap';
import type { LogLevel } from '../server/config';
import { createLogger, logDestination } from '../server/logger';
import { createDatabase, type Database, DEADLINES } from '../server/store/database';
import { createTestDatabase } from '../test/helpers/database';
import { koaBehindTheEdgeAskingRedis, listen } from './floors';
import { createBenchKeys, seedFullHistory } from './seed';
import { settledRssMb } from './settled-rss';

const say = (message: object) => process.stdout.write(`${JSON.stringify(message)}\n`);

interface Opened {
  db: Database;
  close(): Promise<void>;
  /** Keys made by this process before it listens (the embedded database only). */
  keys: string[];
  /** RSS before opening the embedded database, with it open and empty, and with the data in it. */
  memory?: { beforeMb: number; emptyMb: number; seededMb: number };
  /** Time spent waiting for those readings to settle: the bench's, not the server's start. */
  readingMs?: number;
}

/** PostgreSQL as the server opens it for requests: runtime.ts's request pool, short deadlines. */
function openPostgres(url: string, logger: pino.Logger): Opened {
  const db = createDatabase({ databaseUrl: url, dataDir: null, deadlines: DEADLINES.request, logger });
  return { db, keys: [], close: () => db.destroy() };
}

/** PGlite in this process's memory, seeded here: nothing else can reach an in-memory database. */
async function openEmbedded(keyCount: number): Promise<Opened> {
  const beforeMb = collectedRssMb();
  const database = await createTestDatabase();
  let readingMs = performance.now();
  const emptyMb = await settledRssMb();
  readingMs = performance.now() - readingMs;
  await seedFullHistory(database.db);
  const keys = await createBenchKeys(database.db, keyCount);
  // Also drops seeding's garbage before the runner compares this server's memory with the
  // PostgreSQL one's, which seeds nothing itself (a server restarted on its data would not have it).
  const seededAt = performance.now();
  const seededMb = await settledRssMb();
  readingMs += performance.now() - seededAt;
  return { db: database.db, keys, memory: { beforeMb, emptyMb, seededMb }, readingMs, close: () => database.drop() };
}

/** RSS once garbage is collected (the runner starts this process with --expose-gc), MB. */
function collectedRssMb(): number {
  globalThis.gc?.();
  return Math.round(process.memoryUsage().rss / 2 ** 20);
}

/**
 * The heap still reachable once collected, read after the uncollected figures; with
 * BENCH_HEAP_SNAPSHOT (a folder), a snapshot of it there, named by pid, to open in Chrome DevTools.
 */
function liveHeapBytes(): number {
  globalThis.gc?.();
  if (process.env.BENCH_HEAP_SNAPSHOT) v8.writeHeapSnapshot(`${process.env.BENCH_HEAP_SNAPSHOT}/${process.pid}.heapsnapshot`);
  return process.memoryUsage().heapUsed;
}

/** Starts the V8 profiler; the function returned stops it and gives the profile. */
async function startProfile(): Promise<() => Promise<unknown>> {
  const session = new inspector.Session();
  session.connect();
  const post = (method: string) =>
    new Promise<unknown>((resolve, reject) => session.post(method, (error, result) => (error ? reject(error) : resolve(result))));
  await post('Profiler.enable');
  await post('Profiler.start');
  return async () => ((await post('Profiler.stop')) as { profile: unknown }).profile;
}

/**
 * The time the collector has held the main thread since the start, in µs: each scavenge and each
 * full collection's final pause, as V8 reports them (not the marking steps in between).
 */
function collectorPauses(): () => number {
  let pauseMs = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) pauseMs += entry.duration;
  }).observe({ entryTypes: ['gc'] });
  return () => Math.round(pauseMs * 1000);
}

async function main(): Promise<void> {
  const pausedUs = collectorPauses();
  // As server/main.ts does, first thing.
  boundHeapGrowth();
  // Logging on, as in production: logger.ts's writer (asynchronous, in batches), one line per
  // request, into a file rather than stdout (the runner's pipe, which it reads for this process's messages).
  const destination = logDestination(process.env.BENCH_LOG_FILE ?? '/dev/null');
  const logger = createLogger((process.env.LOG_LEVEL ?? 'info') as LogLevel, destination);
  const databaseUrl = process.env.BENCH_DATABASE_URL;
  const opened = databaseUrl ? openPostgres(databaseUrl, logger) : await openEmbedded(Number(process.env.BENCH_KEYS ?? 0));
  const redis = process.env.BENCH_REDIS_URL ? createLimiterRedis(process.env.BENCH_REDIS_URL, logger) : null;

  // The in-process change feed: the Redis one's channel is fixed and shared with the test suites,
  // whose rate changes would empty our response cache in the middle of a measurement.
  const app = createApp({ db: opened.db, logger, redis, changes: createLocalChangeFeed() });
  const warmUpStarted = performance.now();
  await app.warmUp();
  const warmUpMs = Math.round(performance.now() - warmUpStarted);
  // As the server does before it listens.
  await collectStartGarbage();
  const port = await listen(app.callback());
  // The edge and Redis floor again, in this process beside the API: what the floor costs in a
  // process that holds what this server holds (bench/README.md, the keyed answers).
  const floorPort = process.env.BENCH_REDIS_URL ? await listen(koaBehindTheEdgeAskingRedis(process.env.BENCH_REDIS_URL).callback()) : undefined;
  const profile = process.env.BENCH_PROFILE ? await startProfile() : null;
  say({
    event: 'ready',
    port,
    floorPort,
    pid: process.pid,
    startupMs: Math.round(process.uptime() * 1000 - (opened.readingMs ?? 0)),
    warmUpMs,
    keys: opened.keys,
    memory: opened.memory,
  });

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    if (profile && process.env.BENCH_PROFILE) fs.writeFileSync(process.env.BENCH_PROFILE, JSON.stringify(await profile()));
    await app.release().catch(() => undefined);
    redis?.disconnect();
    await opened.close().catch(() => undefined);
    try {
      destination.flushSync();
    } catch {
      // Nothing written yet: nothing to flush.
    }
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop());
  readline
    .createInterface({ input: process.stdin })
    .on('line', (line) => {
      const [command, count] = line.trim().split(/\s+/);
      if (command === 'keys') void createBenchKeys(opened.db, Number(count)).then((keys) => say({ event: 'keys', keys }));
      // Where the RSS is: V8's heap (and how much of it is live), and what lives outside it.
      if (command === 'memory') say({ event: 'memory', ...process.memoryUsage(), liveHeapUsed: liveHeapBytes() });
      // The RSS read as the bare PGlite floor reads its own (settled-rss.ts), to compare like with like.
      if (command === 'settle') void settledRssMb().then((rssMb) => say({ event: 'settled', rssMb }));
      if (command === 'collector') say({ event: 'collector', pauseUs: pausedUs() });
    })
    .on('close', () => void stop());
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
