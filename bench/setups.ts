/**
 * The two setups under test, each the real server in a process of its own:
 *
 * - postgres: a fresh private PostgreSQL database (created beside the one DATABASE_URL names,
 *   dropped at the end) and the shared Redis, as production runs with REDIS_URL set.
 * - embedded: no DATABASE_URL and no REDIS_URL, the embedded database (PGlite) in the server's
 *   own memory and the limits counted there: a single-instance deployment.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import Redis from 'ioredis';
import knex, { type Knex } from 'knex';
import { createDatabase, type Database, DEADLINES } from '../server/store/database';
import { migrate } from '../server/store/migrations';
import { KeyRing } from './keys';
import type { Counter } from './measure';
import { cpuMicros, startChild } from './processes';
import { createBenchKeys, seedFullHistory, uniqueKeyIds } from './seed';
import { API } from './workloads';

export const POSTGRES_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

export type SetupId = 'postgres' | 'embedded';

/** What the server says once it listens (bench/server.ts). */
interface Ready {
  port: number;
  /** The edge and Redis floor served from the same process (with Redis only). */
  floorPort?: number;
  pid: number;
  /** From process start to listening. */
  startupMs: number;
  /** app.warmUp() before listening: loading the series the first request would otherwise wait for. */
  warmUpMs: number;
  keys: string[];
  /** The embedded server's RSS before opening its database, with it open and empty, and seeded (MB). */
  memory?: { beforeMb: number; emptyMb: number; seededMb: number };
}

export interface Setup {
  id: SetupId;
  origin: string;
  pid: number;
  keys: KeyRing;
  counters: Counter[];
  ready: Omit<Ready, 'keys'>;
  /** Where the server's log and stderr go (complete once `close` has returned). */
  logFile: string;
  stderrFile: string;
  /** The first /exchange-rate/latest after the server started, and the one after it. */
  firstRequest: { firstMs: number; secondMs: number };
  /** Makes `count` more keys (in the server, which may be the only one that can reach its database). */
  addKeys(count: number): Promise<void>;
  /** The server's own account of its memory (process.memoryUsage()), then its heap once collected, in bytes. */
  heap(): Promise<HeapReading>;
  /** The server's RSS read as the bare PGlite floor reads its own: collected, the lowest over a few seconds (MB). */
  settledRssMb(): Promise<number>;
  close(): Promise<void>;
}

/**
 * The server's environment: nothing of the caller's database, Redis or log settings leaks in.
 * BENCH_PROFILE, a folder, becomes a CPU profile file per setup in it.
 */
function serverEnv(setup: SetupId, extra: Record<string, string>): NodeJS.ProcessEnv {
  const { DATABASE_URL: _database, REDIS_URL: _redis, LOG_LEVEL: _log, BENCH_PROFILE: profiles, ...rest } = process.env;
  const profile = profiles ? { BENCH_PROFILE: path.join(profiles, `${setup}.cpuprofile`) } : {};
  return { ...rest, NODE_ENV: 'production', LOG_LEVEL: 'info', ...profile, ...extra };
}

/** A fresh database beside the one `serverUrl` names, as test/helpers/postgres.ts makes them, with the long deadlines for seeding. */
export async function createPrivateDatabase(serverUrl = POSTGRES_URL) {
  const name = `crc_bench_${randomBytes(6).toString('hex')}`;
  const admin: Knex = knex({ client: 'pg', connection: serverUrl, pool: { min: 0, max: 1 } });
  await admin.raw(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const db: Database = createDatabase({ databaseUrl: url.toString(), dataDir: null, deadlines: DEADLINES.work });
  await migrate(db);
  let dropped = false;
  return {
    name,
    url: url.toString(),
    db,
    /** The PostgreSQL processes serving connections to this database (the server's pool). */
    async backendPids(): Promise<number[]> {
      const { rows } = await admin.raw<{ rows: Array<{ pid: number }> }>('SELECT pid FROM pg_stat_activity WHERE datname = ?', [name]);
      return rows.map((row) => row.pid);
    },
    async drop(): Promise<void> {
      if (dropped) return;
      dropped = true;
      await db.destroy();
      await admin.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.destroy();
    },
  };
}

/** The embedded database in this process's memory, as test/helpers/database.ts opens it without DATABASE_URL. */
export async function openEmbeddedDatabase(): Promise<{ db: Database; drop(): Promise<void> }> {
  const db = createDatabase({ databaseUrl: null, dataDir: null });
  await migrate(db);
  return { db, drop: () => db.destroy() };
}

export type HeapReading = NodeJS.MemoryUsage & { liveHeapUsed: number };

/** Wall time of one GET on a new connection, to the end of its body. */
export function timedGet(url: string, headers: Record<string, string>): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers, agent: false }, (response) => {
      response.resume();
      response.on('end', () =>
        response.statusCode === 200 ? resolve(performance.now() - started) : reject(new Error(`${url} answered ${response.statusCode}`)),
      );
    });
    request.on('error', reject);
  });
}

async function firstRequests(origin: string, key: string): Promise<Setup['firstRequest']> {
  const url = `${origin}${API}/exchange-rate/latest`;
  const firstMs = await timedGet(url, { 'x-api-key': key });
  const secondMs = await timedGet(url, { 'x-api-key': key });
  return { firstMs: Math.round(firstMs * 10) / 10, secondMs: Math.round(secondMs * 10) / 10 };
}

/** Starts the server and asks for its first answer before anything else does. */
async function launch(id: SetupId, script: string, env: NodeJS.ProcessEnv, keys: KeyRing, stderrFile: string) {
  const server = startChild(script, env, stderrFile);
  const { keys: made, ...ready } = await server.next<Ready>('ready');
  keys.add(made);
  const origin = `http://127.0.0.1:${ready.port}`;
  const first = keys.next();
  const firstRequest = await firstRequests(origin, first);
  const addKeys = async (count: number) => {
    server.send(`keys ${count}`);
    keys.add((await server.next<{ keys: string[] }>('keys')).keys);
  };
  const heap = async () => {
    server.send('memory');
    return server.next<HeapReading>('memory');
  };
  const settledRssMb = async () => {
    server.send('settle');
    return (await server.next<{ rssMb: number }>('settled')).rssMb;
  };
  /** The collector's pauses on the server's main thread (bench/server.ts), µs per request. */
  const collector: Counter = {
    name: 'collectorUsPerRequest',
    read: async () => {
      server.send('collector');
      return new Map([['pauses', (await server.next<{ pauseUs: number }>('collector')).pauseUs]]);
    },
  };
  return { id, server, origin, pid: ready.pid, ready, firstRequest, addKeys, heap, settledRssMb, collector };
}

/** CPU time (µs) of each process `pids` lists, by pid. */
const cpuOf =
  (pids: () => Promise<number[]>): Counter['read'] =>
  async () =>
    new Map((await pids()).map((pid) => [String(pid), cpuMicros(pid)]));

/** Commands the (shared) Redis has processed: ours, and anyone else's meanwhile. */
function redisCommands(redis: Redis): Counter['read'] {
  return async () => {
    const info = await redis.info('stats');
    return new Map([['all', Number(/total_commands_processed:(\d+)/.exec(info)?.[1] ?? 0)]]);
  };
}

export async function startPostgres(bundleDir: string, keyCount: number, today: string): Promise<Setup> {
  const database = await createPrivateDatabase();
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    await uniqueKeyIds(database.db);
    await seedFullHistory(database.db, today);
    const keys = new KeyRing();
    keys.add(await createBenchKeys(database.db, keyCount));
    // As a database in service is: vacuumed, and analysed so that its planner has statistics.
    // Autovacuum would do it in its own time, or never where it is turned off (as on the machine
    // these figures come from).
    await database.db.raw('VACUUM ANALYZE');
    // The seeding connections go, so the database's backends are the server's alone.
    await database.db.destroy();
    const logFile = path.join(bundleDir, 'postgres.log');
    const stderrFile = path.join(bundleDir, 'postgres.stderr');
    const env = serverEnv('postgres', { BENCH_DATABASE_URL: database.url, BENCH_REDIS_URL: REDIS_URL, BENCH_LOG_FILE: logFile });
    const launched = await launch('postgres', path.join(bundleDir, 'server.js'), env, keys, stderrFile);
    return {
      ...launched,
      logFile,
      stderrFile,
      keys,
      counters: [
        { name: 'postgresCpuUsPerRequest', read: cpuOf(() => database.backendPids()) },
        { name: 'redisCommandsPerRequest', read: redisCommands(redis) },
        launched.collector,
      ],
      async close() {
        await launched.server.stop();
        redis.disconnect();
        await database.drop();
      },
    };
  } catch (error) {
    redis.disconnect();
    await database.drop();
    throw error;
  }
}

export async function startEmbedded(bundleDir: string, keyCount: number): Promise<Setup> {
  const keys = new KeyRing();
  const logFile = path.join(bundleDir, 'embedded.log');
  const stderrFile = path.join(bundleDir, 'embedded.stderr');
  const env = serverEnv('embedded', { BENCH_KEYS: String(keyCount), BENCH_LOG_FILE: logFile });
  const launched = await launch('embedded', path.join(bundleDir, 'server.js'), env, keys, stderrFile);
  return { ...launched, keys, logFile, stderrFile, counters: [launched.collector], close: () => launched.server.stop() };
}
