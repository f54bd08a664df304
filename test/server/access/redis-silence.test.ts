/**
 * Telling a silent Redis from a busy process: a command Redis answered while this process was
 * blocked past the deadline still succeeds; a frozen Redis (SIGSTOP: connected, saying nothing)
 * is given up on after the deadline.
 */
import type Redis from 'ioredis';
import { RedisSilentError, unlessRedisIsSilent } from '../../../server/access/redis-silence';
import { PrivateRedis, redisClient, until } from './support';

const DEADLINE_MS = 25;
let redis: PrivateRedis;
let client: Redis;

beforeAll(async () => {
  redis = await PrivateRedis.start();
  client = redisClient(redis.url);
  await until('the client is ready', () => client.status === 'ready');
});
afterAll(async () => {
  client?.disconnect();
  await redis?.kill();
});

/** Keeps the event loop from running anything for `ms`, as a burst of requests does. */
function blockFor(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // Busy on purpose: no timer, socket or promise callback can run meanwhile.
  }
}

it('waits for an answer that arrived while the process was too busy to read it', async () => {
  // Sent and then blocked, as a burst's own callbacks block the loop: Redis answers in
  // microseconds, but the loop runs its due timers (the deadline's) before it polls the socket.
  const sent = await new Promise<{ answer: Promise<string> }>((resolve) =>
    setImmediate(() => {
      const answer = unlessRedisIsSilent(client, client.ping(), DEADLINE_MS);
      blockFor(8 * DEADLINE_MS);
      resolve({ answer });
    }),
  );
  await expect(sent.answer).resolves.toBe('PONG');
});

it('gives up on a Redis that says nothing, within a few deadlines', async () => {
  redis.freeze();
  try {
    await expect(unlessRedisIsSilent(client, client.ping(), DEADLINE_MS)).rejects.toBeInstanceOf(RedisSilentError);
  } finally {
    redis.thaw();
  }
  await expect(unlessRedisIsSilent(client, client.ping(), DEADLINE_MS)).resolves.toBe('PONG');
});
