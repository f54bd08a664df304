/**
 * The limiter's Redis client pipelines automatically: the limiter calls made in one turn of the
 * event loop leave in one write. Each call is still one atomic script, so a burst over two
 * clients (two instances) is counted exactly: every count from 1 up given to exactly one request.
 */
import { randomBytes } from 'node:crypto';
import type { Socket } from 'node:net';
import pino from 'pino';
import type Redis from 'ioredis';
import { createRateLimiter, type Decision, type RateLimiter } from '../../../server/access/rate-limit';
import { redisClient, until } from './support';

const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const logger = pino({ level: 'silent' });

let clients: Redis[];
let limiters: RateLimiter[];
/** Socket writes of each client, counted from the start of each test. */
const writes = [0, 0];

beforeAll(async () => {
  clients = [redisClient(REDIS_URL), redisClient(REDIS_URL)];
  await until('both Redis clients are ready', () => clients.every((c) => c.status === 'ready'));
  clients.forEach((client, i) => {
    const stream = client.stream as Socket;
    const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
    stream.write = ((...args: unknown[]) => {
      writes[i] = (writes[i] ?? 0) + 1;
      return write(...args);
    }) as Socket['write'];
  });
  // Two instances' limiters on one shared count, as two servers behind one balancer.
  const namespace = `test-auto-pipelining-${randomBytes(6).toString('hex')}`;
  limiters = clients.map((redis) => createRateLimiter({ redis, logger, windowSeconds: 60, namespace }));
});
afterAll(() => {
  for (const limiter of limiters ?? []) limiter.close();
  for (const client of clients ?? []) client.disconnect();
});
beforeEach(() => writes.fill(0));

/** `count` calls at once for one client id, spread over both instances. */
const burst = (id: string, count: number, max: number): Promise<Decision[]> =>
  Promise.all(Array.from({ length: count }, (_, i) => (limiters[i % limiters.length] as RateLimiter).take(id, max)));

it('is on for the client the server and the tests build', () => {
  for (const client of clients) expect(client.options.enableAutoPipelining).toBe(true);
});

it('counts a burst of 400 over two instances exactly, each count given once, in a few writes', async () => {
  for (let round = 0; round < 3; round += 1) {
    writes.fill(0);
    const decisions = await burst(`burst-${round}`, 400, 60);
    expect(decisions.filter((d) => d.allowed)).toHaveLength(60);
    // Exact: the 400 counts are 1 … 400, so the remaining of the allowed ones are 59 … 0, once each.
    const remaining = decisions.filter((d) => d.allowed).map((d) => d.remaining);
    expect(remaining.sort((a, b) => b - a)).toEqual(Array.from({ length: 60 }, (_, i) => 59 - i));
    // A write per command would be 200 per client; pipelined, the burst takes a handful.
    for (const count of writes) {
      expect(count).toBeGreaterThan(0);
      expect(count).toBeLessThan(20);
    }
  }
});

it('counts calls made one after the other the same way, one write each', async () => {
  const decisions: Decision[] = [];
  for (let i = 0; i < 6; i += 1) decisions.push(await (limiters[i % 2] as RateLimiter).take('sequential', 4));
  expect(decisions.map((d) => [d.allowed, d.remaining])).toEqual([
    [true, 3],
    [true, 2],
    [true, 1],
    [true, 0],
    [false, 0],
    [false, 0],
  ]);
  expect((writes[0] ?? 0) + (writes[1] ?? 0)).toBe(6);
});
