/**
 * The API's router and the site's, one lookup per request: a path under the API's prefix is looked
 * up in the API's routes only, any other in the site's only. Used one after the other, every site
 * path was first tried against each of the API's routes, and every API path had the site's
 * allowed-methods step wrapped around it. Each router still answers 405 and OPTIONS for its own
 * paths (allowedMethods), and a path neither knows falls through to the 404.
 */
import type Router from '@koa/router';
import type { Middleware } from 'koa';

function routerMiddleware<S>(router: Router<S>): Middleware {
  const routes = router.routes() as Middleware;
  const allowed = router.allowedMethods() as Middleware;
  return (ctx, next) => routes(ctx, () => allowed(ctx, next));
}

/** `api` for the paths under `prefix` (the site has none), `site` for the others. */
export function routeByPrefix<S>(prefix: string, api: Router<S>, site: Router<S>): Middleware {
  const underPrefix = routerMiddleware(api);
  const elsewhere = routerMiddleware(site);
  return function route(ctx, next) {
    return ctx.path.startsWith(prefix) ? underPrefix(ctx, next) : elsewhere(ctx, next);
  };
}
