/**
 * Requests per minute per client, with the contract's headers: `X-RateLimit-Reset` in seconds
 * from now, a 429 envelope with `Retry-After` of at least one second, no text body. With Redis
 * the limit is shared by every instance through koa-ratelimit's Redis driver (its epoch reset
 * and text body are turned into the contract here). Without Redis, and while it is unreachable,
 * each instance counts in its own memory windows: never no limit, never an error.
 */
import type { Context, Middleware } from 'koa';
import ratelimit from 'koa-ratelimit';
import type Redis from 'ioredis';
import type { Logger } from '../logger';
import { HttpError } from './errors';
import { MemoryWindows, type WindowDecision } from './memory-windows';
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

/**
 * The context koa-ratelimit's Redis driver is asked through: it writes its numbers here, and our
 * own answer gets the contract's headers (with the reset in seconds from now) in one place, never
 * the library's raw ones.
 */
class StandIn {
  readonly state: { rateLimitId: string };
  status = 200;
  body: unknown = undefined;
  remaining = 0;
  /** The window's end as the Redis driver gives it: an epoch in seconds (milliseconds in older versions). */
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

async function askRedis(limiter: Limiter, id: string): Promise<WindowDecision> {
  const standIn = new StandIn(id);
  await limiter(standIn as never, async () => {
    standIn.allowed = true;
  });
  const resetsAt = standIn.reset > 1e11 ? standIn.reset : standIn.reset * 1000;
  return { allowed: standIn.allowed, remaining: standIn.allowed ? standIn.remaining : 0, resetsAt };
}

export interface RateLimiter {
  /**
   * Counts the request and sets the three headers; throws the 429 when it is over the limit.
   * Returns a promise only when Redis is asked.
   */
  check(ctx: Context): void | Promise<void>;
}

export function createRateLimiter(options: RateLimitOptions): RateLimiter {
  const now = options.now ?? Date.now;
  const windowSeconds = Math.ceil(options.windowMs / 1000);
  // Without Redis, and while it is unreachable, each instance counts in its own memory.
  const memory = new MemoryWindows(options.windowMs, now);
  const sweep = setInterval(() => memory.sweep(), options.windowMs);
  sweep.unref();

  const redisLimiters = new Map<number, Limiter>();
  const redisLimiter = (redis: Redis, max: number): Limiter => {
    let limiter = redisLimiters.get(max);
    if (!limiter) {
      limiter = ratelimit({
        driver: 'redis',
        db: redis,
        duration: options.windowMs,
        max,
        namespace: options.namespace,
        id: (ctx) => (ctx.state as { rateLimitId: string }).rateLimitId,
      });
      redisLimiters.set(max, limiter);
    }
    return limiter;
  };
  let redisWarned = false;
  const shared = async (redis: Redis, id: string, max: number): Promise<WindowDecision> => {
    try {
      const decision = await askRedis(redisLimiter(redis, max), id);
      redisWarned = false;
      return decision;
    } catch (error) {
      if (!redisWarned) options.logger.warn({ err: error }, 'rate limit: Redis unavailable, limiting per instance');
      redisWarned = true;
      return memory.take(id, max);
    }
  };

  const settle = (ctx: Context, max: number, decision: WindowDecision): void => {
    // Redis keeps its own clock, a hair apart from ours: never more than one window away.
    const secondsLeft = Math.min(windowSeconds, Math.max(0, Math.ceil((decision.resetsAt - now()) / 1000)));
    const out = outgoing(ctx);
    out.set('X-RateLimit-Limit', String(max));
    out.set('X-RateLimit-Remaining', String(decision.remaining));
    out.set('X-RateLimit-Reset', String(secondsLeft));
    if (!decision.allowed) {
      const retryAfter = String(Math.max(1, secondsLeft));
      throw new HttpError('RATE_LIMITED', `Rate limit of ${max} requests per minute exceeded; retry in ${retryAfter} s`, { 'Retry-After': retryAfter });
    }
  };

  const check = (ctx: Context): void | Promise<void> => {
    const { id, max } = options.client(ctx);
    const redis = options.redis;
    if (redis && redis.status === 'ready') return shared(redis, id, max).then((decision) => settle(ctx, max, decision));
    return settle(ctx, max, memory.take(id, max));
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
