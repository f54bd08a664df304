/**
 * Who is calling and what they may still do: the key, the 401 for keyed routes, and the monthly
 * quota. The quota is counted only once an answer is ready, so a refused request (401, 400, 404,
 * 429) never uses any.
 */
import type { Context } from 'koa';
import type { ApiKey, ApiKeysStore, KeyLookup } from '../store/api-keys';
import type { UsageStore } from '../store/usage';
import { HttpError } from './errors';
import { outgoing } from './outgoing';
import { createKeyCache } from './key-cache';
import { createQuotaLedger, type Spend } from './quota-ledger';

export interface AccessState {
  apiKey?: ApiKey;
  keyProblem?: 'malformed' | 'unknown' | 'revoked';
  /** The lookup itself failed (the database is down): not the caller's fault. */
  keyError?: unknown;
}

const KEY_PROBLEMS = {
  missing: 'An API key is required: send it in the x-api-key header',
  malformed: 'The API key is not valid: check that it was copied whole (it starts with crc_live_)',
  unknown: 'The API key is not valid',
  revoked: 'The API key has been revoked',
} as const;

export function createAccessControl(deps: { keys: ApiKeysStore; usage: UsageStore; clock: () => Date }) {
  const keys = createKeyCache(deps.keys);
  const ledger = createQuotaLedger({ usage: deps.usage, clock: deps.clock });
  // The ledger hands out one reset instant per second (the month is worked out once a second):
  // its text is written once too, not on every answer.
  let lastReset: { at: Date; text: string } | null = null;
  const resetText = (resetsAt: Date): string => {
    if (lastReset?.at !== resetsAt) lastReset = { at: resetsAt, text: resetsAt.toISOString() };
    return lastReset.text;
  };
  const setQuotaHeaders = (ctx: Context, key: ApiKey, used: number, resetsAt: Date) => {
    const out = outgoing(ctx);
    out.set('X-Quota-Limit', String(key.monthlyQuota));
    out.set('X-Quota-Remaining', String(Math.max(0, key.monthlyQuota - used)));
    out.set('X-Quota-Reset', resetText(resetsAt));
  };

  // Helpers are made once, not per request: each function made per request is also renamed per
  // request by the TypeScript loader, which costs more than the function's work.
  const recordKey = (state: AccessState, found: KeyLookup): void => {
    if (found.status === 'ok') state.apiKey = found.key;
    else state.keyProblem = found.status;
  };
  const settle = (ctx: Context, key: ApiKey, spent: Spend): void => {
    if (spent.ok) return setQuotaHeaders(ctx, key, spent.used, spent.resetsAt);
    setQuotaHeaders(ctx, key, key.monthlyQuota, spent.resetsAt);
    const retryAfter = String(Math.max(1, Math.ceil((spent.resetsAt.getTime() - deps.clock().getTime()) / 1000)));
    throw new HttpError('QUOTA_EXCEEDED', `Monthly quota of ${key.monthlyQuota} requests used up; it resets at ${spent.resetsAt.toISOString()}`, {
      'Retry-After': retryAfter,
    });
  };

  return {
    /**
     * Reads `x-api-key`, if any, into `ctx.state` without refusing anything yet. Returns a promise
     * only when the key has to be looked up in the database.
     */
    identify(ctx: Context): void | Promise<void> {
      const sent = ctx.get('x-api-key');
      if (!sent) return;
      const state = ctx.state as AccessState;
      const found = keys.lookup(sent.trim());
      if (!(found instanceof Promise)) return recordKey(state, found);
      return found.then(
        (later) => recordKey(state, later),
        (error: unknown) => {
          // Public routes (health above all) must answer without the key; keyed ones fail in requireKey.
          state.keyError = error;
        },
      );
    },

    /** The key of a keyed route, or a 401 that says what is wrong with it. */
    requireKey(ctx: Context): ApiKey {
      const state = ctx.state as AccessState;
      if (state.apiKey) return state.apiKey;
      if (state.keyError !== undefined) throw state.keyError;
      throw new HttpError('UNAUTHORIZED', KEY_PROBLEMS[state.keyProblem ?? 'missing']);
    },

    /**
     * Counts one served request, or refuses it when this month's quota is used up. Returns a
     * promise only when units have to be reserved from the database.
     */
    consume(ctx: Context, key: ApiKey): void | Promise<void> {
      const spent = ledger.spend(key);
      return spent instanceof Promise ? spent.then((later) => settle(ctx, key, later)) : settle(ctx, key, spent);
    },

    /** The quota headers of a request that was refused after authentication (nothing counted). */
    async describe(ctx: Context, key: ApiKey): Promise<void> {
      const { used, resetsAt } = await ledger.used(key);
      setQuotaHeaders(ctx, key, used, resetsAt);
    },

    /** Keys changed somewhere (a revoke): forget what was looked up. */
    forgetKeys: () => keys.clear(),

    /** Gives unspent quota back to the database; call it when the instance stops. */
    release: () => ledger.release(),

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
