/**
 * What each layer of the rate limiter costs the server's CPU per call, in process and without
 * HTTP, against the two floors beneath it measured in the same rounds: one Redis round trip (a
 * PING) and one counting script with nothing around it. The layers are the ones the limiter stacks
 * (server/access/rate-limit.ts): the silence watcher, the circuit breaker with the limiter's
 * options, rate-limiter-flexible's count in place of the bare script, and the whole `take`.
 *
 *   npm run bench:limiter        (BENCH_REDIS_URL names the Redis, default 127.0.0.1:6379)
 *
 * Each round runs every layer in turn, 1,000 batches of 50 concurrent calls each (the limiter's
 * client writes them together, as under 50 connections); CPU time is process.cpuUsage's, user and
 * system. Medians over the rounds, so a disturbed round does not decide the figure.
 */
import CircuitBreaker from 'opossum';
import { breakerOptions, countOnRedis, createRateLimiter, REDIS_DEADLINE_MS } from '../server/access/rate-limit';
import { createLimiterRedis } from '../server/access/redis-client';
import { unlessRedisIsSilent } from '../server/access/redis-silence';
import { createLogger, logDestination } from '../server/logger';
import { countingScript } from './floors';
import { median } from './report';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const BATCHES = 1000;
const CONCURRENT = 50;
const CLIENTS = 500;
const WINDOW_SECONDS = 60;

type Layer = [name: string, call: (client: string) => Promise<unknown>];

async function cpuPerCall(call: Layer[1]): Promise<number> {
  const started = process.cpuUsage();
  let n = 0;
  for (let b = 0; b < BATCHES; b++) {
    const batch: Array<Promise<unknown>> = [];
    for (let c = 0; c < CONCURRENT; c++) batch.push(call(`client:${n++ % CLIENTS}`));
    await Promise.all(batch);
  }
  const used = process.cpuUsage(started);
  return (used.user + used.system) / n;
}

async function main(): Promise<void> {
  const logger = createLogger('warn', logDestination(2));
  const redis = createLimiterRedis(process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379', logger);
  await new Promise((resolve) => redis.once('ready', resolve));
  const namespace = `bench-layers-${process.pid}`;
  const script = countingScript(redis, WINDOW_SECONDS * 1000);
  const counted = (client: string) => script(`${namespace}:script:${client}`);
  const breaker = new CircuitBreaker(counted, breakerOptions());
  const library = countOnRedis(redis, `${namespace}:library`, WINDOW_SECONDS);
  const limiter = createRateLimiter({ redis, logger, windowSeconds: WINDOW_SECONDS, namespace: `${namespace}:limiter` });

  const layers: Layer[] = [
    ['one round trip (PING)', () => redis.ping()],
    ['one counting script', counted],
    ['the script, watched for silence', (client) => unlessRedisIsSilent(redis, counted(client), REDIS_DEADLINE_MS)],
    ['the script, through the circuit breaker', (client) => breaker.fire(client)],
    ["rate-limiter-flexible's count instead of the script", (client) => library.consume(client)],
    ["the service's limiter (take: all of the above)", (client) => limiter.take(client, 1_000_000_000)],
  ];
  const figures = layers.map((): number[] => []);
  // A first pass unmeasured, so every layer's code is compiled before its first round counts.
  for (const [, call] of layers) await cpuPerCall(call);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, [, call]] of layers.entries()) figures[i]?.push(await cpuPerCall(call));
  }

  const medians = figures.map(median);
  const [ping = Number.NaN, bare = Number.NaN] = medians;
  console.log(`CPU µs per call, medians of ${ROUNDS} rounds of ${BATCHES * CONCURRENT} calls (${CONCURRENT} at a time)\n`);
  console.log('| layer | µs/call | min–max | over the PING | over the script |');
  console.log('| --- | ---: | ---: | ---: | ---: |');
  for (const [i, [name]] of layers.entries()) {
    const values = figures[i] ?? [];
    const m = medians[i] ?? Number.NaN;
    const signed = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(1)}`;
    console.log(
      `| ${name} | ${m.toFixed(1)} | ${Math.min(...values).toFixed(1)}–${Math.max(...values).toFixed(1)} | ${signed(m - ping)} | ${signed(m - bare)} |`,
    );
  }

  limiter.close();
  breaker.shutdown();
  redis.disconnect();
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
