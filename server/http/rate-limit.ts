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
import { outgoing } from './outgoing';

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

/** What koa-ratelimit decided for one request, and the numbers it would have sent. */
interface Decision {
  allowed: boolean;
  remaining: number;
  /** When the window resets, as an epoch: seconds from the memory driver, milliseconds from Redis. */
  reset: number;
}

/**
 * The context koa-ratelimit is asked through: it writes its numbers here, and our own answer gets
 * the contract's headers (with the reset in seconds from now) in one place, never the library's
 * raw ones.
 */
class StandIn {
  readonly state: { rateLimitId: string };
  status = 200;
  body: unknown = undefined;
  remaining = 0;
  reset = 0;
  allowed = false;

  constructor(id: string) {
    this.state = { rateLimitId: id };
  }

  set(fields: Record<string, unknown> | string): void {
    if (typeof fields === 'string') return; // Retry-After: ours is worked out from the reset
    this.remaining = Number(fields['X-RateLimit-Remaining']);
    this.reset = Number(fields['X-RateLimit-Reset']);
  }
}

async function decide(limiter: Limiter, id: string): Promise<Decision> {
  const standIn = new StandIn(id);
  await limiter(standIn as never, async () => {
    standIn.allowed = true;
  });
  return standIn;
}

export interface RateLimiter {
  /** Counts the request and sets the three headers; throws the 429 when it is over the limit. */
  check(ctx: Context): Promise<void>;
}

export function createRateLimiter(options: RateLimitOptions): RateLimiter {
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

  const check = async (ctx: Context): Promise<void> => {
    const { id, max } = options.client(ctx);
    let decision: Decision;
    if (options.redis && options.redis.status === 'ready') {
      try {
        decision = await decide(limiterFor('redis', max), id);
        redisWarned = false;
      } catch (error) {
        if (!redisWarned) options.logger.warn({ err: error }, 'rate limit: Redis unavailable, limiting per instance');
        redisWarned = true;
        decision = await decide(limiterFor('memory', max), id);
      }
    } else {
      decision = await decide(limiterFor('memory', max), id);
    }

    const resetSeconds = decision.reset > 1e11 ? decision.reset / 1000 : decision.reset; // the Redis driver answers in ms
    // The drivers keep their own clocks, a hair apart from ours: never more than one window away.
    const secondsLeft = Math.min(Math.ceil(options.windowMs / 1000), Math.max(0, Math.ceil(resetSeconds - now() / 1000)));
    const out = outgoing(ctx);
    out.set('X-RateLimit-Limit', String(max));
    out.set('X-RateLimit-Remaining', decision.allowed ? String(decision.remaining) : '0');
    out.set('X-RateLimit-Reset', String(secondsLeft));
    if (!decision.allowed) {
      const retryAfter = String(Math.max(1, secondsLeft));
      throw new HttpError('RATE_LIMITED', `Rate limit of ${max} requests per minute exceeded; retry in ${retryAfter} s`, { 'Retry-After': retryAfter });
    }
  };
  return { check };
}

/** The limiter as a middleware, for routes of the site. */
export function rateLimit(options: RateLimitOptions): Middleware {
  const limiter = createRateLimiter(options);
  return async (ctx, next) => {
    await limiter.check(ctx);
    await next();
  };
}
