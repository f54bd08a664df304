/**
 * The Redis client the rate limiters share, built one way for the server and its tests. It fails
 * at once while disconnected (no offline queue, no retries), so a Redis that is down costs a
 * request nothing. It sets no short command timeout: that is a timer too, and a busy event loop
 * would fire it on commands Redis had long answered; a Redis that stays silent is told apart by
 * redis-silence.ts instead. The long timeout only frees commands a frozen Redis never answers.
 *
 * Auto-pipelining: the commands issued within one turn of the event loop (every limiter call of
 * the requests read together) leave in one write and come back in one read, instead of a syscall
 * each way per request. Each call is still its own atomic script, answered in order, so the count
 * stays exact (test/server/access/auto-pipelining.test.ts).
 */
import Redis from 'ioredis';
import type { Logger } from '../logger';

export const ABANDONED_COMMAND_MS = 10_000;

export function createLimiterRedis(url: string, logger: Logger): Redis {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: ABANDONED_COMMAND_MS,
    connectTimeout: 2000,
    enableAutoPipelining: true,
  });
  // Connection errors are expected while Redis is away; the limiter says so once, in its own words.
  redis.on('error', (error: Error) => logger.debug({ err: error.message }, 'redis: connection problem'));
  return redis;
}
