/**
 * Turns the route list into Koa handlers. For each request, in this order: the guard (security
 * headers, the key, the rate limit: 429), the key (401), the parameters (400), the answer (404),
 * served from the response cache with a strong ETag; then the quota is counted, and
 * `If-None-Match` may turn the answer into a 304 (a served request too).
 */
import type Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import type { ApiKey } from '../store/api-keys';
import type { AccessControl } from './access';
import { outgoing } from './outgoing';
import type { CachedResponse, ResponseCache } from './response-cache';
import type { RequestScope, Route } from './route';

export interface MountOptions {
  cache: ResponseCache;
  access: AccessControl;
  /** Runs first on every route: the security headers, who is calling, the rate limit. */
  guard: (ctx: Context) => Promise<void>;
  today: () => string;
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

/**
 * What a handler knows about its request. The origin is worked out only if asked for (the
 * documents ask); a class, because an object literal with a getter gets a hidden class of its
 * own each time, which costs the garbage collector dearly at thousands of requests a second.
 */
class Scope implements RequestScope {
  constructor(
    readonly today: string,
    readonly apiKey: ApiKey | null,
    private readonly ctx: Context,
  ) {}

  get origin(): string {
    // Not `ctx.origin`: since Koa 3 that is the request's Origin header (null without one).
    return `${this.ctx.protocol}://${this.ctx.host}`;
  }
}

async function compute(ctx: Context, route: Route, cache: ResponseCache, scope: RequestScope): Promise<CachedResponse> {
  const query = route.parse(ctx.query);
  const key = `${scope.today} ${route.path} ${JSON.stringify(query)}`;
  const hit = route.cache ? cache.get(key) : undefined;
  if (hit) return hit;
  const generation = cache.generation;
  const data = await route.handle(query, scope);
  const body = JSON.stringify(route.raw ? data : { success: true, data });
  // An answer computed while the data changed is sent but not kept.
  return route.cache && generation === cache.generation ? cache.set(key, body) : cache.wrap(body);
}

async function answer(ctx: Context, route: Route, { cache, access, today }: MountOptions, apiKey: ApiKey | null): Promise<CachedResponse> {
  const scope = new Scope(today(), apiKey, ctx);
  // The query string as sent finds an answer without parsing it: only valid ones were ever kept,
  // and equal queries written differently share the entry of their parsed form.
  const sent = `${scope.today} ${route.path}?${ctx.querystring}`;
  let entry = route.cache ? cache.get(sent) : undefined;
  if (!entry) {
    const generation = cache.generation;
    entry = await compute(ctx, route, cache, scope);
    if (route.cache && generation === cache.generation) cache.put(sent, entry);
  }
  if (apiKey && route.quota) {
    // A promise only when units have to be reserved from the database.
    const consuming = access.consume(ctx, apiKey);
    if (consuming) await consuming;
  }
  // Routes that count nothing (/usage) still say where the key stands.
  else if (apiKey) await access.describe(ctx, apiKey);
  return entry;
}

/**
 * Mounts the routes on the router, and returns a middleware to place before it that finds a GET
 * or HEAD of an exact API path in one lookup: every API path is static, and the router would test
 * each pattern in turn and compose a chain per request. Anything else (a trailing slash, another
 * method) goes on to the router, which answers it as before.
 */
export function mountRoutes(router: Router, prefix: string, routes: readonly Route[], options: MountOptions): Middleware {
  const exact = new Map<string, Middleware>();
  for (const route of routes) {
    const handle: Middleware = async (ctx) => {
      await options.guard(ctx);
      const apiKey = route.access === 'key' ? options.access.requireKey(ctx) : null;
      let entry;
      try {
        entry = await answer(ctx, route, options, apiKey);
      } catch (error) {
        // Refused after authentication: the quota headers still tell where the key stands.
        if (apiKey && route.quota && !outgoing(ctx).get('X-Quota-Limit')) await options.access.describe(ctx, apiKey);
        throw error;
      }
      const out = outgoing(ctx);
      out.set('Cache-Control', CACHE_CONTROL[route.access]);
      out.set('ETag', entry.etag);
      if (matchesEtag(ctx.get('if-none-match'), entry.etag)) out.send(ctx, 304, null);
      else out.send(ctx, 200, entry.body);
    };
    router.get(route.path, handle);
    exact.set(prefix + route.path, handle);
  }
  return (ctx, next) => {
    const handle = ctx.method === 'GET' || ctx.method === 'HEAD' ? exact.get(ctx.path) : undefined;
    if (!handle) return next();
    // What the router records, for the metrics' route label.
    (ctx as { _matchedRoute?: string })._matchedRoute = ctx.path;
    return handle(ctx, next);
  };
}
