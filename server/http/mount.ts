/**
 * Turns the route list into @koa/router routes. Each route runs its access rules (guard.ts), then
 * validates its parameters (400), and answers from the response cache (or computes and keeps the
 * answer) with a strong ETag; `If-None-Match` turns it into a 304.
 */
import type Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import type { AccessControl, AccessState } from '../access/access';
import { guard } from '../access/guard';
import { matchesEtag } from './etag';
import type { CachedResponse, ResponseCache } from './response-cache';
import type { RequestScope, Route } from './route';

export interface MountOptions {
  cache: ResponseCache;
  access: AccessControl;
  /** The calendar day in Costa Rica now. */
  today: () => string;
}

const CACHE_CONTROL = {
  // Keyed answers must never be served by a shared cache to someone else.
  key: 'private, max-age=60',
  public: 'public, max-age=60',
} as const;

async function answerOf(route: Route, query: Record<string, unknown>, scope: RequestScope, cache: ResponseCache): Promise<CachedResponse> {
  if (!route.cache) return cache.wrap(serialise(route, await route.handle(query, scope)));
  // Equal queries written differently (order, case, defaults) share the entry of their parsed form.
  const key = `${scope.today} ${route.path} ${JSON.stringify(query)}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const generation = cache.generation;
  const text = serialise(route, await route.handle(query, scope));
  // An answer computed while the data changed is sent but not kept.
  return generation === cache.generation ? cache.set(key, text) : cache.wrap(text);
}

const serialise = (route: Route, data: unknown) => JSON.stringify(route.raw ? data : { success: true, data });

function serve(route: Route, { cache, today }: MountOptions): Middleware {
  return async function serve(ctx: Context) {
    const query = route.parse(ctx.query);
    const { apiKey }: AccessState = ctx.state;
    // Not `ctx.origin`: since Koa 3 that is the request's Origin header.
    const scope: RequestScope = { today: today(), apiKey: apiKey ?? null, origin: `${ctx.protocol}://${ctx.host}` };
    const entry = await answerOf(route, query, scope, cache);
    ctx.set('Cache-Control', CACHE_CONTROL[route.access]);
    ctx.set('ETag', entry.etag);
    if (matchesEtag(ctx.get('if-none-match'), entry.etag)) {
      ctx.status = 304;
      return;
    }
    ctx.type = 'application/json; charset=utf-8';
    ctx.body = entry.body;
  };
}

export function mountRoutes(router: Router, routes: readonly Route[], options: MountOptions): void {
  for (const route of routes) router.get(route.path, guard(options.access, route), serve(route, options));
}
