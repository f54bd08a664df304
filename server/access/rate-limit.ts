/**
 * Requests per window per client, counted by rate-limiter-flexible: in Redis when the service has
 * one (shared by every instance: one atomic script call and one counter per client), in this
 * process otherwise. Redis is asked through a circuit breaker (opossum): a Redis that errs,
 * refuses (disconnected) or stays silent is given up on within a few requests, each instance then
 * counts in its own memory at once (never no limit, never an error, never a wait per request),
 * and a background probe brings the shared count back as soon as Redis answers again.
 *
 * Silence is Redis's, not this process's: the breaker has no deadline of its own, because under a
 * burst the event loop is late for every timer and a deadline would give a healthy Redis up and
 * count the burst in memory, per instance. redis-silence.ts looks at the connection instead.
 *
 * One limiter counts every client; the limit a client is held to (a key's own rate, or the
 * per-IP default) is applied to the count it returns, so keys with different rates share it.
 */
import type Redis from 'ioredis';
import type { Context, Middleware } from 'koa';
import CircuitBreaker from 'opossum';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterRes } from 'rate-limiter-flexible';
import { HttpError } from '../errors';
import type { Logger } from '../logger';
import { unlessRedisIsSilent } from './redis-silence';

export interface RateLimiterOptions {
  redis: Redis | null;
  logger: Logger;
  windowSeconds: number;
  /** Separates limiters that share one Redis (the API's from the site's). */
  namespace: string;
  /** How long Redis may say nothing to a waiting request (REDIS_DEADLINE_MS unless given). */
  redisDeadlineMs?: number;
}

export interface Decision {
  allowed: boolean;
  limit: number;
  /** Requests left in the window after this one. */
  remaining: number;
  /** Whole seconds until the window starts again (1 at least). */
  resetSeconds: number;
  /** The window the limit applies to, in seconds. */
  windowSeconds: number;
}

export interface RateLimiter {
  /** Counts one request of `id`, held to `max` per window. */
  take(id: string, max: number): Promise<Decision>;
  /** Where `id` stands, without counting anything. */
  peek(id: string, max: number): Promise<Decision>;
  /** Stops the background probe. */
  close(): void;
}

// The count is compared with each client's own limit here, so the library itself never refuses.
const UNBOUNDED = Number.MAX_SAFE_INTEGER;

/**
 * How long Redis may send nothing while a request waits for it before the request is counted in
 * memory instead. Redis answers a limiter call in well under a millisecond, but on a loaded machine
 * the scheduler can leave a healthy Redis without a CPU for some tens of milliseconds (25 ms was
 * seen to pass under a burst on two busy cores, and each request given up on then was counted
 * again from zero in memory); a connection silent this long while a command waits is a Redis in
 * trouble. Time this process spends busy elsewhere is not counted against Redis (see
 * redis-silence.ts). A hung Redis costs the first few requests this long each, until the breaker
 * opens.
 */
export const REDIS_DEADLINE_MS = 100;
/** How often a given-up Redis is asked whether it is back. */
export const REDIS_PROBE_MS = 1000;

/**
 * How the limiter gives Redis up and takes it back (opossum's options): a fresh object for each
 * breaker, because opossum writes its defaults, and any caches it is asked for, into the object it
 * is given.
 */
export const breakerOptions = (): CircuitBreaker.Options => ({
  // No deadline of the breaker's own: a busy event loop would pass it with Redis healthy.
  timeout: false,
  // Open after a few failures in the last second, whatever the traffic was before.
  errorThresholdPercentage: 50,
  volumeThreshold: 3,
  rollingCountTimeout: 1000,
  rollingCountBuckets: 10,
  // The probe (sharedCounter) closes it; this only bounds how long it stays open should the probe be stuck.
  resetTimeout: 30_000,
  // Nothing reads the breaker's latency percentiles or its snapshots, which it would otherwise
  // compute ten times a second: 430 µs each at 5,000 calls a second (10 buckets of 500 latencies
  // concatenated and sorted), some 0.9 µs per request.
  rollingPercentilesEnabled: false,
  enableSnapshots: false,
});

/** rate-limiter-flexible's count on Redis: one atomic script per call, never refusing by itself. */
export function countOnRedis(redis: Redis, namespace: string, windowSeconds: number): RateLimiterRedis {
  return new RateLimiterRedis({
    storeClient: redis,
    keyPrefix: namespace,
    points: UNBOUNDED,
    duration: windowSeconds,
    // A client that knows it is disconnected fails at once instead of queueing the command.
    rejectIfRedisNotReady: true,
  });
}

function sharedCounter(redis: Redis, options: RateLimiterOptions, onGiveUp: () => void, onBack: () => void) {
  const { logger, redisDeadlineMs = REDIS_DEADLINE_MS } = options;
  const limiter = countOnRedis(redis, options.namespace, options.windowSeconds);
  const breaker = new CircuitBreaker(
    (id: string, count: boolean) => unlessRedisIsSilent(redis, count ? limiter.consume(id) : limiter.get(id), redisDeadlineMs),
    breakerOptions(),
  );

  let probe: NodeJS.Timeout | null = null;
  const stopProbe = () => {
    if (probe) clearInterval(probe);
    probe = null;
  };
  breaker.on('open', () => {
    onGiveUp();
    stopProbe();
    probe = setInterval(() => {
      unlessRedisIsSilent(redis, redis.ping(), 5 * redisDeadlineMs).then(
        () => breaker.close(),
        (error: unknown) => logger.debug({ err: error, namespace: options.namespace }, 'rate limit: Redis still unavailable'),
      );
    }, REDIS_PROBE_MS);
    probe.unref();
  });
  breaker.on('close', () => {
    stopProbe();
    onBack();
  });
  // A client that reconnected after Redis restarted says so itself, before the next probe.
  const reconnected = () => {
    if (breaker.opened) breaker.close();
  };
  redis.on('ready', reconnected);

  return {
    /** Counts (or reads) `id` in Redis; rejects at once while Redis is given up on. */
    ask: (id: string, count: boolean): Promise<RateLimiterRes | null> => breaker.fire(id, count),
    close: () => {
      stopProbe();
      redis.off('ready', reconnected);
      breaker.shutdown();
    },
  };
}

export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const { redis, logger, windowSeconds, namespace } = options;
  const memory = new RateLimiterMemory({ keyPrefix: namespace, points: UNBOUNDED, duration: windowSeconds });
  // Said once per outage, not once per request counted in memory.
  let onFallback = false;
  const shared = redis
    ? sharedCounter(
        redis,
        options,
        () => logger.debug({ namespace }, 'rate limit: Redis given up on until it answers again'),
        () => {
          if (onFallback) logger.info({ namespace }, 'rate limit: Redis is back, limits are shared again');
          onFallback = false;
        },
      )
    : null;

  const inMemory = async (id: string, count: boolean) => (count ? memory.consume(id) : memory.get(id));
  const counted = async (id: string, count: boolean): Promise<RateLimiterRes | null> => {
    if (!shared) return inMemory(id, count);
    try {
      return await shared.ask(id, count);
    } catch (error) {
      if (!onFallback) logger.warn({ err: error, namespace }, 'rate limit: Redis unavailable, limiting per instance');
      onFallback = true;
      return inMemory(id, count);
    }
  };

  const decide = (res: RateLimiterRes | null, max: number): Decision => {
    const used = res?.consumedPoints ?? 0;
    const resetSeconds = res ? Math.min(windowSeconds, Math.max(1, Math.ceil(res.msBeforeNext / 1000))) : windowSeconds;
    return { allowed: used <= max, limit: max, remaining: Math.max(0, max - used), resetSeconds, windowSeconds };
  };

  return {
    take: async (id, max) => decide(await counted(id, true), max),
    peek: async (id, max) => decide(await counted(id, false), max),
    close: () => shared?.close(),
  };
}

/** Sets the three rate-limit headers, and refuses with 429 and `Retry-After` when over the limit. */
export function applyDecision(ctx: Context, decision: Decision): void {
  ctx.set('X-RateLimit-Limit', String(decision.limit));
  ctx.set('X-RateLimit-Remaining', String(decision.remaining));
  ctx.set('X-RateLimit-Reset', String(decision.resetSeconds));
  if (decision.allowed) return;
  const retryAfter = String(decision.resetSeconds);
  throw new HttpError(
    'RATE_LIMITED',
    `Rate limit of ${decision.limit} requests per ${windowInWords(decision.windowSeconds)} exceeded; retry in ${retryAfter} s`,
    {
      'Retry-After': retryAfter,
    },
  );
}

/** `minute`, `10 minutes`, `30 seconds`: the window as the 429's message states it. */
export function windowInWords(seconds: number): string {
  if (seconds === 60) return 'minute';
  if (seconds % 60 === 0) return `${seconds / 60} minutes`;
  return seconds === 1 ? 'second' : `${seconds} seconds`;
}

/** A per-IP limit as a middleware, for the site's pages and form. */
export function limitPerIp(options: RateLimiterOptions & { max: number }): Middleware {
  const limiter = createRateLimiter(options);
  return async function limitPerIp(ctx, next) {
    applyDecision(ctx, await limiter.take(`ip:${ctx.ip}`, options.max));
    await next();
  };
}
