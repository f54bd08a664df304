/**
 * The routers' dispatch: the API's paths without parameters are found by one lookup, and every
 * answer is the one @koa/router itself gives with its plain `routes()` and `allowedMethods()`:
 * same status, headers, body and matched route, for the indexed paths and for everything the
 * index leaves to the router (trailing slash, letter case, parameters, other methods, 405,
 * OPTIONS, router middleware, unknown paths).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import Koa, { type Middleware } from 'koa';
import { fixedRoutes, routeByPrefix, routerMiddleware } from '../../../server/http/routers';

type Dispatch = (api: Router, site: Router) => Middleware;

/** A small API in the app's shape: fixed paths, a parameter, two methods on one path, middleware on a branch. */
function routers(): { api: Router; site: Router } {
  const api = new Router({ prefix: '/api/v1' });
  const answer: Middleware = (ctx) => {
    ctx.body = { path: ctx.path, params: ctx.params, route: ctx._matchedRoute, steps: ctx.state.steps ?? [] };
  };
  const step =
    (name: string): Middleware =>
    (ctx, next) => {
      ctx.state.steps = [...(ctx.state.steps ?? []), name];
      return next();
    };
  api.get('/exchange-rate/latest', step('negotiate'), step('guard'), answer);
  api.get('/openapi.json', answer);
  api.get('/webhooks/:id', answer);
  api.get('/webhooks', answer);
  api.post('/webhooks', answer);
  api.use('/admin', step('admin only'));
  api.get('/admin/keys', answer);
  const site = new Router();
  site.get('/livez', answer);
  return { api, site };
}

const indexed: Dispatch = (api, site) => routeByPrefix('/api/v1', api, site);
/** The router's own pair for each router, behind the same split by prefix. */
const plain: Dispatch = (api, site) => {
  const [underPrefix, elsewhere] = [routerMiddleware(api), routerMiddleware(site)];
  return (ctx, next) => (/^\/api\/v1/i.test(ctx.path) ? underPrefix(ctx, next) : elsewhere(ctx, next));
};

async function serve(dispatch: Dispatch): Promise<{ url: string; close: () => Promise<void> }> {
  const { api, site } = routers();
  const koa = new Koa();
  koa.use(async (ctx, next) => {
    await next();
    ctx.set('x-matched', String(ctx._matchedRoute ?? 'none'));
  });
  koa.use(dispatch(api, site));
  const server = http.createServer(koa.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function ask(url: string, method: string, path: string) {
  const response = await fetch(`${url}${path}`, { method });
  return {
    status: response.status,
    allow: response.headers.get('allow'),
    matched: response.headers.get('x-matched'),
    type: response.headers.get('content-type'),
    body: await response.text(),
  };
}

const REQUESTS: Array<[method: string, path: string]> = [
  ['GET', '/api/v1/exchange-rate/latest'],
  ['HEAD', '/api/v1/exchange-rate/latest'],
  ['GET', '/api/v1/exchange-rate/latest?currency=EUR'],
  ['GET', '/api/v1/exchange-rate/latest/'],
  ['GET', '/API/V1/Exchange-Rate/Latest'],
  ['POST', '/api/v1/exchange-rate/latest'],
  ['OPTIONS', '/api/v1/exchange-rate/latest'],
  ['DELETE', '/api/v1/exchange-rate/latest'],
  ['GET', '/api/v1/openapi.json'],
  ['GET', '/api/v1/openapiXjson'],
  ['GET', '/api/v1/webhooks/abc'],
  ['GET', '/api/v1/webhooks'],
  ['POST', '/api/v1/webhooks'],
  ['GET', '/api/v1/admin/keys'],
  ['GET', '/api/v1/nowhere'],
  ['GET', '/livez'],
  ['GET', '/api/v1'],
];

it('answers every request as @koa/router itself does', async () => {
  const [fast, reference] = await Promise.all([serve(indexed), serve(plain)]);
  try {
    for (const [method, path] of REQUESTS) {
      const [got, expected] = await Promise.all([ask(fast.url, method, path), ask(reference.url, method, path)]);
      expect({ method, path, ...got }).toEqual({ method, path, ...expected });
    }
    // The indexed route ran its own middlewares, in order, and reported its pattern.
    expect(JSON.parse((await ask(fast.url, 'GET', '/api/v1/exchange-rate/latest')).body)).toEqual({
      path: '/api/v1/exchange-rate/latest',
      params: {},
      route: '/api/v1/exchange-rate/latest',
      steps: ['negotiate', 'guard'],
    });
    // The prefix in other letter case is still the API's, which matches its paths in any case.
    expect(JSON.parse((await ask(fast.url, 'GET', '/API/V1/Exchange-Rate/Latest')).body)).toMatchObject({ route: '/api/v1/exchange-rate/latest' });
  } finally {
    await Promise.all([fast.close(), reference.close()]);
  }
});

it('indexes only the paths where the router would run that one route', () => {
  const { api } = routers();
  // Not the path with a parameter, not the path that POST shares, not the one behind router middleware.
  expect([...fixedRoutes(api).keys()].sort()).toEqual(['/api/v1/exchange-rate/latest', '/api/v1/openapi.json']);
});
