/**
 * The app's own API router keeps its fixed paths indexed (server/http/routers.ts). The index holds
 * a path only where @koa/router would run that one route and nothing else, so a router middleware
 * added on the API's router (`api.use(…)`) would quietly send every request back through the
 * router's match over all its routes. This says that the app's registered paths without
 * parameters (the route registry's) are answered without that match, and that the match still
 * serves everything else.
 */
import Router from '@koa/router';
import { startTestApp, type TestApp } from '../../helpers/app';

let app: TestApp;
const match = jest.spyOn(Router.prototype, 'match');

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  match.mockRestore();
  await app.close();
});

/** How many times @koa/router matched a path while `path` was asked for. */
async function matchesFor(path: string, method = 'GET'): Promise<number> {
  const before = match.mock.calls.length;
  const response = await fetch(`${app.api}${path}`, { method, headers: { 'x-api-key': app.key } });
  await response.arrayBuffer();
  return match.mock.calls.length - before;
}

it('finds every registered path without parameters by one lookup, for GET and HEAD', async () => {
  const fixed = app.app.routes.map((route) => route.path).filter((path) => !path.includes(':'));
  expect(fixed).toContain('/exchange-rate/latest');
  for (const path of fixed) {
    expect({ path, matches: await matchesFor(path) }).toEqual({ path, matches: 0 });
    expect({ path, matches: await matchesFor(path, 'HEAD') }).toEqual({ path, matches: 0 });
  }
});

it('still asks the router for a path with parameters, for other methods and for unknown paths', async () => {
  expect(await matchesFor('/webhooks/1')).toBeGreaterThan(0);
  expect(await matchesFor('/no-such-path')).toBeGreaterThan(0);
  expect(await matchesFor('/exchange-rate/latest', 'POST')).toBeGreaterThan(0);
});
