/**
 * Who is calling and what they may still do: the key, the per-minute limit and the monthly quota.
 * Each rule is a plain async function of the request; `guard` (guard.ts) applies them in order.
 */
import type { Context } from 'koa';
import type { AppState } from '../app-state';
import type Redis from 'ioredis';
import { LIMITS } from '../../shared/limits';
import { HttpError } from '../errors';
import type { Logger } from '../logger';
import type { ApiKey, ApiKeysStore } from '../store/api-keys';
import type { UsageStore } from '../store/usage';
import { createKeyCache } from './key-cache';
import { createQuotaLedger } from './quota-ledger';
import { applyDecision, createRateLimiter } from './rate-limit';

const KEY_PROBLEMS = {
  missing: 'An API key is required: send it in the x-api-key header',
  malformed: 'The API key is not valid: check that it was copied whole (it starts with crc_live_)',
  unknown: 'The API key is not valid',
  revoked: 'The API key has been revoked',
  authorization: 'The Authorization header must be "Bearer <key>" (the key starts with crc_live_); or send the key in the x-api-key header',
} as const;

/**
 * The challenges every 401 carries in `WWW-Authenticate` (RFC 9110 11.6.1): the key in the
 * `x-api-key` header (`ApiKey`, a scheme of ours whose `header` parameter names the field), or the
 * same key as a bearer token (RFC 6750). Clients skip the schemes they do not know.
 */
export const API_KEY_CHALLENGE = 'ApiKey realm="crc-rates", header="x-api-key", Bearer realm="crc-rates"';

/** `Bearer <token68>` (RFC 6750 2.1; the scheme in any case): the token, or null for any other Authorization. */
export function bearerToken(authorization: string): string | null {
  return /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(authorization)?.[1] ?? null;
}

const KEY_IN_QUERY = 'The API key is taken from the query string ("key") only for CSV answers (format=csv): send it in the x-api-key header';

export interface AccessDeps {
  keys: ApiKeysStore;
  usage: UsageStore;
  clock: () => Date;
  /** Shares the per-minute limit across instances; null keeps it in this process. */
  redis: Redis | null;
  /** How long Redis may send nothing to a waiting request before it counts in memory (rate-limit.ts's default unless given). */
  redisDeadlineMs?: number;
  logger: Logger;
}

export function createAccessControl(deps: AccessDeps) {
  const keys = createKeyCache(deps.keys, deps.logger);
  const ledger = createQuotaLedger({ usage: deps.usage, clock: deps.clock, logger: deps.logger });
  const limiter = createRateLimiter({
    redis: deps.redis,
    redisDeadlineMs: deps.redisDeadlineMs,
    logger: deps.logger,
    namespace: 'api',
    windowSeconds: LIMITS.rateLimit.windowSeconds,
  });

  const setQuotaHeaders = (ctx: Context, key: ApiKey, used: number, resetsAt: Date) => {
    ctx.set('X-Quota-Limit', String(key.monthlyQuota));
    ctx.set('X-Quota-Remaining', String(Math.max(0, key.monthlyQuota - used)));
    ctx.set('X-Quota-Reset', resetsAt.toISOString());
  };

  return {
    /**
     * Reads the key, if any, into `ctx.state` without refusing anything yet: `x-api-key`, else
     * `Authorization: Bearer <key>`. `x-api-key` wins, and the Authorization header is then not
     * read at all: a proxy in front may use it for its own login. With `keyInQuery` (an answer a
     * spreadsheet fetches by URL alone, which cannot send headers) a `key=` in the query string is
     * taken when neither header is sent; elsewhere `key=` is a mistake to point out, not a key to use.
     */
    async identify(ctx: Context, keyInQuery = false): Promise<void> {
      const state: AppState = ctx.state;
      const inQuery = ctx.query.key;
      if (inQuery !== undefined && !keyInQuery) {
        state.keyProblem = 'in-query';
        return;
      }
      const authorization = ctx.get('x-api-key') ? '' : ctx.get('authorization');
      const bearer = authorization ? bearerToken(authorization) : null;
      if (authorization && bearer === null) {
        state.keyProblem = 'authorization';
        return;
      }
      const sent = ctx.get('x-api-key') || bearer || inQuery;
      if (!sent) return;
      // A repeated `key=` is no one key: the 401 says so rather than trying one of them.
      if (Array.isArray(sent)) {
        state.keyProblem = 'malformed';
        return;
      }
      try {
        const found = await keys.lookup(sent.trim());
        if (found.status === 'ok') state.apiKey = found.key;
        else state.keyProblem = found.status;
      } catch (error) {
        // Public routes (health above all) must answer without the key; keyed ones fail in requireKey.
        state.keyError = error;
      }
    },

    /**
     * Counts the request against the per-minute limit (or, with `count` false, only reads where
     * the client stands) and sets its headers; 429 when over it. A known key is limited on its
     * own (Sheets traffic all comes from Google's addresses); anyone else by address.
     */
    async check(ctx: Context, count = true): Promise<void> {
      const { apiKey }: AppState = ctx.state;
      const [id, max] = apiKey ? [`key:${apiKey.id}`, apiKey.ratePerMinute] : [`ip:${ctx.ip}`, LIMITS.rateLimit.perMinute];
      // A request that is not counted is never refused: it only learns where the client stands.
      applyDecision(ctx, count ? await limiter.take(id, max) : { ...(await limiter.peek(id, max)), allowed: true });
    },

    /** The key of a keyed route, or a 401 that says what is wrong with it. */
    requireKey(ctx: Context): ApiKey {
      const state: AppState = ctx.state;
      if (state.keyProblem === 'in-query') throw new HttpError('BAD_REQUEST', KEY_IN_QUERY);
      if (state.apiKey) return state.apiKey;
      if (state.keyError !== undefined) throw state.keyError;
      throw new HttpError('UNAUTHORIZED', KEY_PROBLEMS[state.keyProblem ?? 'missing'], { 'WWW-Authenticate': API_KEY_CHALLENGE });
    },

    /** Counts one served request, or refuses it (429) when this month's quota is used up. */
    async consume(ctx: Context, key: ApiKey): Promise<void> {
      const spent = await ledger.spend(key);
      if (spent.ok) return setQuotaHeaders(ctx, key, spent.used, spent.resetsAt);
      setQuotaHeaders(ctx, key, key.monthlyQuota, spent.resetsAt);
      const retryAfter = String(Math.max(1, Math.ceil((spent.resetsAt.getTime() - deps.clock().getTime()) / 1000)));
      throw new HttpError('QUOTA_EXCEEDED', `Monthly quota of ${key.monthlyQuota} requests used up; it resets at ${spent.resetsAt.toISOString()}`, {
        'Retry-After': retryAfter,
      });
    },

    /** The quota headers of an answer that counted nothing (a refusal, `/usage`). */
    async describe(ctx: Context, key: ApiKey): Promise<void> {
      // A refusal or a 304 must not cost a database round trip when this instance knows the count.
      const { used, resetsAt } = ledger.known(key) ?? (await ledger.used(key));
      setQuotaHeaders(ctx, key, used, resetsAt);
    },

    /** Keys changed somewhere (a revoke): forget what was looked up. */
    forgetKeys: () => keys.clear(),

    /** Gives unspent quota back to the database and stops background work; call it when the instance stops. */
    release: () => {
      limiter.close();
      return ledger.release();
    },

    async usage(key: ApiKey) {
      const { used, resetsAt } = await ledger.used(key);
      return {
        plan: key.plan,
        monthlyQuota: key.monthlyQuota,
        used,
        remaining: Math.max(0, key.monthlyQuota - used),
        resetsAt: resetsAt.toISOString(),
        ratePerMinute: key.ratePerMinute,
      };
    },
  };
}

export type AccessControl = ReturnType<typeof createAccessControl>;
