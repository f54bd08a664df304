/**
 * The limiter's Redis client sends the commands of one turn of the event loop in one write
 * (server/access/redis-client.ts): its socket is corked at the turn's first command and uncorked
 * once the turn's callbacks have run. Each call is still one atomic script, so a burst over two
 * clients (two instances) is counted exactly: every count from 1 up given to exactly one request.
 */
import { randomBytes } from 'node:crypto';
import type { Socket } from 'node:net';
import { setImmediate as nextTurn } from 'node:timers/promises';
import pino from 'pino';
import type Redis from 'ioredis';
import { createRateLimiter, type Decision, type RateLimiter } from '../../../server/access/rate-limit';
import { redisClient, until } from './support';

const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const logger = pino({ level: 'silent' });

let clients: Redis[];
let limiters: RateLimiter[];
/** Writes each client's socket made to the kernel, counted from the start of each test. */
const writes = [0, 0];

const socketOf = (client: Redis) => client.stream as Socket;

beforeAll(async () => {
  clients = [redisClient(REDIS_URL), redisClient(REDIS_URL)];
  await until('both Redis clients are ready', () => clients.every((c) => c.status === 'ready'));
  clients.forEach((client, i) => {
    // What the socket hands to the kernel: one `_write` per chunk, or one `_writev` for the
    // chunks buffered while it was corked.
    const socket = socketOf(client) as Socket & { _write: (...args: unknown[]) => void; _writev: (...args: unknown[]) => void };
    for (const method of ['_write', '_writev'] as const) {
      const original = socket[method].bind(socket);
      socket[method] = (...args: unknown[]) => {
        writes[i] = (writes[i] ?? 0) + 1;
        original(...args);
      };
    }
  });
  // Two instances' limiters on one shared count, as two servers behind one balancer.
  const namespace = `test-write-batching-${randomBytes(6).toString('hex')}`;
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

it("builds no pipeline per turn: ioredis's auto-pipelining stays off", () => {
  for (const client of clients) expect(client.options.enableAutoPipelining).toBe(false);
});

it('counts a burst of 400 over two instances exactly, each count given once, in one write per client', async () => {
  for (let round = 0; round < 3; round += 1) {
    writes.fill(0);
    const decisions = await burst(`burst-${round}`, 400, 60);
    expect(decisions.filter((d) => d.allowed)).toHaveLength(60);
    // Exact: the 400 counts are 1 … 400, so the remaining of the allowed ones are 59 … 0, once each.
    const remaining = decisions.filter((d) => d.allowed).map((d) => d.remaining);
    expect(remaining.sort((a, b) => b - a)).toEqual(Array.from({ length: 60 }, (_, i) => 59 - i));
    // A write per command would be 200 per client; the burst's calls are all made in one turn.
    expect(writes).toEqual([1, 1]);
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

it("holds a turn's commands, whoever sends them, until the turn's callbacks have run, and no longer", async () => {
  const client = clients[0] as Redis;
  const socket = socketOf(client);
  const counted = (limiters[0] as RateLimiter).take(`held-${randomBytes(4).toString('hex')}`, 10);
  const pinged = client.ping();
  expect(socket.writableCorked).toBe(1);
  expect(writes[0]).toBe(0);
  await nextTurn();
  expect(socket.writableCorked).toBe(0);
  expect(writes[0]).toBe(1);
  await expect(pinged).resolves.toBe('PONG');
  await expect(counted).resolves.toMatchObject({ allowed: true, remaining: 9 });
  // The next turn's command corks the socket again, on its own.
  await expect(client.ping()).resolves.toBe('PONG');
  expect(writes[0]).toBe(2);
});
