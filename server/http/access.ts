/**
 * Who is calling and what they may still do: the key (looked up once per request), the 401 for
 * keyed routes, and the monthly quota. The quota is counted only once an answer is ready, in the
 * same statement that checks it, so a refused request (401, 400, 404, 429) never uses any.
 */
import type { Context } from 'koa';
import type { ApiKey, ApiKeysStore } from '../store/api-keys';
import { quotaMonth, type UsageStore } from '../store/usage';
import { HttpError } from './errors';

export interface AccessState {
  apiKey?: ApiKey;
  keyProblem?: 'malformed' | 'unknown' | 'revoked';
}

const KEY_PROBLEMS = {
  missing: 'An API key is required: send it in the x-api-key header',
  malformed: 'The API key is not valid: check that it was copied whole (it starts with crc_live_)',
  unknown: 'The API key is not valid',
  revoked: 'The API key has been revoked',
} as const;

export function createAccessControl(deps: { keys: ApiKeysStore; usage: UsageStore; clock: () => Date }) {
  const setQuotaHeaders = (ctx: Context, key: ApiKey, used: number, resetsAt: Date) => {
    ctx.set('X-Quota-Limit', String(key.monthlyQuota));
    ctx.set('X-Quota-Remaining', String(Math.max(0, key.monthlyQuota - used)));
    ctx.set('X-Quota-Reset', resetsAt.toISOString());
  };

  return {
    /** Reads `x-api-key`, if any, into `ctx.state` without refusing anything yet. */
    async identify(ctx: Context): Promise<void> {
      const sent = ctx.get('x-api-key');
      if (!sent) return;
      const found = await deps.keys.lookup(sent.trim());
      const state = ctx.state as AccessState;
      if (found.status === 'ok') state.apiKey = found.key;
      else state.keyProblem = found.status;
    },

    /** The key of a keyed route, or a 401 that says what is wrong with it. */
    requireKey(ctx: Context): ApiKey {
      const state = ctx.state as AccessState;
      if (state.apiKey) return state.apiKey;
      throw new HttpError('UNAUTHORIZED', KEY_PROBLEMS[state.keyProblem ?? 'missing']);
    },

    /** Counts one served request, or refuses it when this month's quota is used up. */
    async consume(ctx: Context, key: ApiKey): Promise<void> {
      const now = deps.clock();
      const { month, resetsAt } = quotaMonth(now);
      const count = await deps.usage.consume(key.id, month, key.monthlyQuota);
      if (count === null) {
        setQuotaHeaders(ctx, key, key.monthlyQuota, resetsAt);
        const retryAfter = String(Math.max(1, Math.ceil((resetsAt.getTime() - now.getTime()) / 1000)));
        throw new HttpError('QUOTA_EXCEEDED', `Monthly quota of ${key.monthlyQuota} requests used up; it resets at ${resetsAt.toISOString()}`, {
          'Retry-After': retryAfter,
        });
      }
      setQuotaHeaders(ctx, key, count, resetsAt);
    },

    /** The quota headers of a request that was refused after authentication (nothing counted). */
    async describe(ctx: Context, key: ApiKey): Promise<void> {
      const { month, resetsAt } = quotaMonth(deps.clock());
      setQuotaHeaders(ctx, key, await deps.usage.used(key.id, month), resetsAt);
    },

    async usage(key: ApiKey) {
      const { month, resetsAt } = quotaMonth(deps.clock());
      const used = await deps.usage.used(key.id, month);
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
