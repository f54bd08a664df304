/**
 * Turns the route list into Koa handlers: parameters validated up front, answers served from
 * the response cache with a strong ETag, and `If-None-Match` answered with 304.
 */
import type Router from '@koa/router';
import type { Context } from 'koa';
import type { ResponseCache } from './response-cache';
import type { RequestScope, Route } from './route';

export interface MountOptions {
  cache: ResponseCache;
  scope: () => RequestScope;
}

const CACHE_CONTROL = {
  // Keyed answers must never be served by a shared cache to someone else.
  key: 'private, max-age=60',
  public: 'public, max-age=60',
} as const;

/**
 * RFC 9110 13.1.2, weak comparison. Koa's `ctx.fresh` is not used: it ignores If-None-Match when
 * the request says `Cache-Control: no-cache`, which fetch() adds to every conditional request.
 */
export function matchesEtag(ifNoneMatch: string, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const opaque = etag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === opaque);
}

export function mountRoutes(router: Router, routes: readonly Route[], { cache, scope }: MountOptions): void {
  for (const route of routes) {
    router.get(route.path, async (ctx: Context) => {
      const requestScope = scope();
      const query = route.parse(ctx.query);
      const key = `${requestScope.today} ${route.path} ${JSON.stringify(query)}`;
      let entry = route.cache ? cache.get(key) : undefined;
      if (!entry) {
        const generation = cache.generation;
        const data = await route.handle(query, requestScope);
        const body = JSON.stringify(route.raw ? data : { success: true, data });
        // An answer computed while the data changed is sent but not kept.
        entry = route.cache && generation === cache.generation ? cache.set(key, body) : cache.wrap(body);
      }
      ctx.status = 200;
      ctx.set('Cache-Control', CACHE_CONTROL[route.access]);
      ctx.set('ETag', entry.etag);
      if (matchesEtag(ctx.get('if-none-match'), entry.etag)) {
        ctx.status = 304;
        return;
      }
      ctx.type = 'application/json; charset=utf-8';
      ctx.body = entry.body;
    });
  }
}
