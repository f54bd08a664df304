/**
 * The access rules of one route, in the contract's order: who is calling, the per-minute limit
 * (429), the key (401); then the route answers, and only a served answer (200) counts against the
 * monthly quota (429 when it is used up). A refusal, a 304 and `/usage` count nothing, but a keyed
 * answer always says where the key stands.
 */
import type { Context, Middleware } from 'koa';
import { isDatabaseUnreachable } from '../store/database';
import type { AppState } from '../app-state';
import type { AccessControl } from './access';

export interface GuardedRoute {
  /** `key` routes need `x-api-key`; `public` ones do not. */
  access: 'key' | 'public';
  /** Whether a served answer counts against the monthly quota. */
  quota: boolean;
  /** Whether the request counts against the per-minute limit. */
  rateLimit: boolean;
  /**
   * The route counts a known key's requests itself, against the limit and the quota (the MCP
   * endpoint counts each tool call). The guard then counts only a request it refuses for its key,
   * and for a known key only reads where it stands.
   */
  selfMetered?: boolean;
}

/**
 * `keyInQuery` says whether a request may carry its key as `key=` in the query string instead of
 * the header (a CSV answer: spreadsheets fetch by URL alone); elsewhere `key=` is a 400.
 */
export function guard(access: AccessControl, route: GuardedRoute, keyInQuery: (ctx: Context) => boolean = () => false): Middleware {
  return async function guard(ctx, next) {
    await access.identify(ctx, keyInQuery(ctx));
    const { keyError, apiKey }: AppState = ctx.state;
    // The key could not be looked up (the database is away): a keyed route cannot answer, and the
    // caller must not be counted as a keyless one (its address's limit is shared by others).
    if (keyError !== undefined && route.access === 'key') throw keyError;
    await access.check(ctx, route.rateLimit && !(route.selfMetered && apiKey));
    if (route.access === 'public') return next();
    const key = access.requireKey(ctx);
    try {
      await next();
    } catch (error) {
      // Asking the database where the key stands would only wait out the same outage again.
      if (!isDatabaseUnreachable(error)) await access.describe(ctx, key);
      throw error;
    }
    if (route.quota && !route.selfMetered && ctx.status === 200) await access.consume(ctx, key);
    else await access.describe(ctx, key);
  };
}
