/**
 * Turns the route list into @koa/router routes. Each route runs its access rules (guard.ts), then
 * validates its parameters (400), and answers from the response cache (or computes and keeps the
 * answer, written in the representation its `format` asks for) with a strong ETag;
 * `If-None-Match` turns it into a 304.
 */
import type Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import type { AccessControl } from '../access/access';
import type { AppState } from '../app-state';
import { guard } from '../access/guard';
import { contentCodingFor, etagFor } from './content-coding';
import { matchesEtag } from './etag';
import { cachedQuerystring, negotiate, queryOf, takesKeyInQuery } from './negotiation';
import type { CachedResponse, Effort, ResponseCache } from './response-cache';
import type { Representation, RequestScope, Route } from './route';

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

/** Validates the query (400) and computes the answer, written as the query (`format`) or `Accept` asks. */
async function compute(ctx: Context, route: Route, today: string): Promise<Representation> {
  const query = route.parse(queryOf(ctx));
  const { apiKey }: AppState = ctx.state;
  const scope: RequestScope = { today, apiKey: apiKey ?? null };
  return route.represent(await route.handle(query, scope), query);
}

const cacheKey = (today: string, path: string, querystring: string) => `${today} ${path}?${querystring}`;
/** Whether a cache key is one of `path`'s answers (of any day). */
const isKeyOf = (key: string, path: string) => key.startsWith(`${path}?`, key.indexOf(' ') + 1);

/**
 * The answer from the cache, or computed (and kept once asked for again). Kept under the query
 * string as sent (less the key, plus the format `Accept` chose: negotiation.ts): only answers to
 * valid queries are ever kept, so a hit needs no validation (which cost more than the rest of a
 * cached answer); the same query written another way is simply kept apart.
 */
async function answerOf(ctx: Context, route: Route, cache: ResponseCache, today: string): Promise<{ entry: CachedResponse; effort: Effort }> {
  if (!route.cache) return { entry: cache.wrap(await compute(ctx, route, today)), effort: 'quick' };
  const key = cacheKey(today, route.path, cachedQuerystring(ctx));
  const hit = cache.get(key);
  // Asked again: worth the kept copy (response-cache.ts, Effort).
  if (hit) return { entry: hit, effort: 'kept' };
  const generation = cache.generation;
  const answer = await compute(ctx, route, today);
  // Kept from its second asking on, with the kept copy (ResponseCache.admit); an answer computed
  // while the data changed is sent but never kept.
  if (generation !== cache.generation || !cache.admit(key)) return { entry: cache.wrap(answer), effort: 'quick' };
  return { entry: cache.set(key, answer), effort: 'kept' };
}

function serve(route: Route, { cache, today }: MountOptions): Middleware {
  return async function serve(ctx: Context) {
    const { entry, effort } = await answerOf(ctx, route, cache, today());
    const coding = contentCodingFor(ctx, entry);
    const etag = etagFor(entry.etag, coding, effort);
    ctx.set('Cache-Control', CACHE_CONTROL[route.access]);
    ctx.set('ETag', etag);
    const ifNoneMatch = ctx.get('if-none-match');
    // A client holding the quick copy of the first serving holds the same answer: still current.
    const held = ifNoneMatch ? [etag, etagFor(entry.etag, coding, 'quick')].find((tag) => matchesEtag(ifNoneMatch, tag)) : undefined;
    if (held) {
      ctx.set('ETag', held);
      ctx.status = 304;
      return;
    }
    ctx.set(entry.headers);
    ctx.type = entry.type;
    if (coding) ctx.set('Content-Encoding', coding);
    // Decided here either way: koa-compress need not weigh this answer again.
    else ctx.compress = false;
    ctx.body = coding ? entry.compressed(coding, effort) : entry.body;
  };
}

export function mountRoutes(router: Router, routes: readonly Route[], options: MountOptions): void {
  for (const route of routes) {
    route.staleWhen?.(() => options.cache.drop((key) => isKeyOf(key, route.path)));
    router.get(route.path, negotiate(route), guard(options.access, route, takesKeyInQuery), serve(route, options));
  }
}
