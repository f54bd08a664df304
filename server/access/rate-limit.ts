/**
 * Requests per window per client, counted by rate-limiter-flexible: in Redis when the service has
 * one (shared by every instance: one atomic script call and one counter per client), in this
 * process otherwise. While Redis fails, each instance counts in its own memory instead: never no
 * limit, never an error for the caller.
 *
 * One limiter counts every client; the limit a client is held to (a key's own rate, or the
 * per-IP default) is applied to the count it returns, so keys with different rates share it.
 */
import type Redis from 'ioredis';
import type { Context, Middleware } from 'koa';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterRes } from 'rate-limiter-flexible';
import { HttpError } from '../http/errors';
import type { Logger } from '../logger';

export interface RateLimiterOptions {
  redis: Redis | null;
  logger: Logger;
  windowSeconds: number;
  /** Separates limiters that share one Redis (the API's from the site's). */
  namespace: string;
}

export interface Decision {
  allowed: boolean;
  limit: number;
  /** Requests left in the window after this one. */
  remaining: number;
  /** Whole seconds until the window starts again (1 at least). */
  resetSeconds: number;
}

export interface RateLimiter {
  /** Counts one request of `id`, held to `max` per window. */
  take(id: string, max: number): Promise<Decision>;
}

// The count is compared with each client's own limit here, so the library itself never refuses.
const UNBOUNDED = Number.MAX_SAFE_INTEGER;

export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const { redis, logger, windowSeconds, namespace } = options;
  const memory = new RateLimiterMemory({ keyPrefix: namespace, points: UNBOUNDED, duration: windowSeconds });
  const shared = redis
    ? new RateLimiterRedis({ storeClient: redis, keyPrefix: namespace, points: UNBOUNDED, duration: windowSeconds, rejectIfRedisNotReady: true })
    : null;

  let onFallback = false;
  const count = async (id: string): Promise<RateLimiterRes> => {
    if (!shared) return memory.consume(id);
    try {
      const counted = await shared.consume(id);
      if (onFallback) logger.info('rate limit: Redis is back, limits are shared again');
      onFallback = false;
      return counted;
    } catch (error) {
      if (!onFallback) logger.warn({ err: error }, 'rate limit: Redis unavailable, limiting per instance');
      onFallback = true;
      return memory.consume(id);
    }
  };

  return {
    async take(id, max) {
      const counted = await count(id);
      const resetSeconds = Math.min(windowSeconds, Math.max(1, Math.ceil(counted.msBeforeNext / 1000)));
      return { allowed: counted.consumedPoints <= max, limit: max, remaining: Math.max(0, max - counted.consumedPoints), resetSeconds };
    },
  };
}

/** Sets the three rate-limit headers, and refuses with 429 and `Retry-After` when over the limit. */
export function applyDecision(ctx: Context, decision: Decision): void {
  ctx.set('X-RateLimit-Limit', String(decision.limit));
  ctx.set('X-RateLimit-Remaining', String(decision.remaining));
  ctx.set('X-RateLimit-Reset', String(decision.resetSeconds));
  if (decision.allowed) return;
  const retryAfter = String(decision.resetSeconds);
  throw new HttpError('RATE_LIMITED', `Rate limit of ${decision.limit} requests per minute exceeded; retry in ${retryAfter} s`, { 'Retry-After': retryAfter });
}

/** A per-IP limit as a middleware, for the site's pages and form. */
export function limitPerIp(options: RateLimiterOptions & { max: number }): Middleware {
  const limiter = createRateLimiter(options);
  return async function limitPerIp(ctx, next) {
    applyDecision(ctx, await limiter.take(`ip:${ctx.ip}`, options.max));
    await next();
  };
}
