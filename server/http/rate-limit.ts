/**
 * Requests per minute per client, on koa-ratelimit, wrapped so that the contract comes out:
 * `X-RateLimit-Reset` in seconds from now (the library sends an epoch, and its two drivers
 * disagree on its unit), a 429 envelope with `Retry-After` of at least one second, and no text
 * body. With Redis the limit is shared by every instance; while Redis is unreachable each
 * instance falls back to its own memory limiter, never to no limit and never to an error.
 */
import type { Context, Middleware } from 'koa';
import ratelimit from 'koa-ratelimit';
import type Redis from 'ioredis';
import type { Logger } from '../logger';
import { HttpError } from './errors';

export interface RateLimitOptions {
  redis: Redis | null;
  logger: Logger;
  windowMs: number;
  /** Decides who is counted and how many requests per window they may make. */
  client: (ctx: Context) => { id: string; max: number };
  now?: () => number;
  /** Separates limiters that share one Redis (the API's from the site's). */
  namespace: string;
}

type Limiter = Middleware;

interface LimitedError {
  status?: number;
}

/** Runs a koa-ratelimit middleware only for its decision: true when the request may pass. */
async function decide(limiter: Limiter, ctx: Context): Promise<boolean> {
  let allowed = false;
  try {
    await limiter(ctx as never, async () => {
      allowed = true;
    });
  } catch (error) {
    if ((error as LimitedError).status === 429) return false;
    throw error;
  }
  return allowed;
}

export function rateLimit(options: RateLimitOptions): Middleware {
  const now = options.now ?? Date.now;
  // One Map for the whole process: the memory driver makes a fresh one per request otherwise.
  const memory = new Map<string, { reset: number }>();
  const limiters = new Map<string, Limiter>();
  let redisWarned = false;

  const limiterFor = (driver: 'memory' | 'redis', max: number): Limiter => {
    const cacheKey = `${driver}:${max}`;
    let limiter = limiters.get(cacheKey);
    if (!limiter) {
      limiter = ratelimit({
        driver,
        db: driver === 'redis' ? (options.redis as Redis) : memory,
        duration: options.windowMs,
        max,
        namespace: options.namespace,
        id: (ctx) => (ctx.state as { rateLimitId: string }).rateLimitId,
        throw: true,
      });
      limiters.set(cacheKey, limiter);
    }
    return limiter;
  };

  // Expired entries of the memory driver are only replaced when their client returns: sweep them.
  const sweep = setInterval(() => {
    const cutoff = now() / 1000;
    for (const [key, entry] of memory) if (entry.reset < cutoff) memory.delete(key);
  }, options.windowMs);
  sweep.unref();

  return async (ctx, next) => {
    const { id, max } = options.client(ctx);
    ctx.state.rateLimitId = id;
    let allowed: boolean;
    if (options.redis && options.redis.status === 'ready') {
      try {
        allowed = await decide(limiterFor('redis', max), ctx);
        redisWarned = false;
      } catch (error) {
        if (!redisWarned) options.logger.warn({ err: error }, 'rate limit: Redis unavailable, limiting per instance');
        redisWarned = true;
        allowed = await decide(limiterFor('memory', max), ctx);
      }
    } else {
      allowed = await decide(limiterFor('memory', max), ctx);
    }

    const reset = Number(ctx.response.get('X-RateLimit-Reset'));
    const resetSeconds = reset > 1e11 ? reset / 1000 : reset; // the Redis driver answers in ms
    // The drivers keep their own clocks, a hair apart from ours: never more than one window away.
    const secondsLeft = Math.min(Math.ceil(options.windowMs / 1000), Math.max(0, Math.ceil(resetSeconds - now() / 1000)));
    ctx.set('X-RateLimit-Reset', String(secondsLeft));
    if (!allowed) {
      ctx.set('X-RateLimit-Remaining', '0');
      const retryAfter = String(Math.max(1, secondsLeft));
      throw new HttpError('RATE_LIMITED', `Rate limit of ${max} requests per minute exceeded; retry in ${retryAfter} s`, { 'Retry-After': retryAfter });
    }
    await next();
  };
}
