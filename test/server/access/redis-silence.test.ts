/**
 * Telling a silent Redis from a busy process: a command Redis answered while this process was
 * blocked past the deadline still succeeds; a frozen Redis (SIGSTOP: connected, saying nothing)
 * is given up on after the deadline; a Redis paused for less than the limiter's deadline, as a
 * loaded machine pauses it, is waited for.
 */
import type Redis from 'ioredis';
import { REDIS_DEADLINE_MS } from '../../../server/access/rate-limit';
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
  // Issued and then blocked, as a burst's own callbacks block the loop: the command leaves only
  // after the block (the client writes on the next turn), and its deadline starts then, not at
  // the call. Then blocked again once it has left and its deadline runs: Redis answers in
  // microseconds (or some tens of milliseconds on a loaded machine), but the loop runs its due
  // timers (the deadline's) before it polls the socket. The second block is long enough for a
  // Redis left without a CPU for a while to answer within it, and overdue by many deadlines.
  const sent = await new Promise<{ answer: Promise<string> }>((resolve) =>
    setImmediate(() => {
      const answer = unlessRedisIsSilent(client, client.ping(), DEADLINE_MS);
      blockFor(8 * DEADLINE_MS);
      // Queued after the client's write and the deadline's start: runs right after them.
      setImmediate(() => blockFor(20 * DEADLINE_MS));
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
  // The same client works again once Redis does. (With a deadline a thawed Redis meets even when
  // the machine leaves it without a CPU for a while: how soon it is scheduled is not the point.)
  await expect(unlessRedisIsSilent(client, client.ping(), 40 * DEADLINE_MS)).resolves.toBe('PONG');
});

it("waits, at the limiter's deadline, for a Redis the machine left without a CPU for 40 ms", async () => {
  // A burst on a loaded machine: Redis is healthy but not scheduled for a while (SIGSTOP, then
  // SIGCONT). Given up on, each waiting request would be counted again in this instance's memory.
  redis.freeze();
  const answer = unlessRedisIsSilent(client, client.ping(), REDIS_DEADLINE_MS);
  await new Promise((resolve) => setTimeout(resolve, 40));
  redis.thaw();
  await expect(answer).resolves.toBe('PONG');
});
