/**
 * The server's routes as data, without a database: for the SDK's parameter generator and the MCP
 * server on stdio (which describes the routes but calls the REST API). It builds the same groups
 * the app mounts (routes.ts), minus the two raw documents (/openapi.json, /postman.json),
 * which neither uses. Each group's deps are reached by its handlers alone, which nothing here
 * runs, so a stand-in that throws when touched is enough (and says so if that ever changes).
 */
import type { Route } from './http/route';
import { provenanceHtmlPage } from './site/provenance';
import { apiRoutes, ROUTE_GROUPS, type RouteDeps } from './routes';

/** A dependency that may be destructured but never used: using it means a factory runs more than it should. */
function untouchable(path: string): object {
  return new Proxy(
    {},
    {
      get(_target, name) {
        if (typeof name === 'symbol') return undefined;
        const inner = `${path}.${name}`;
        // Destructuring the deps object reads one level; anything deeper is a handler's work.
        if (path === 'deps') return untouchable(inner);
        throw new Error(`Route factories must not use their deps while building routes (${inner} was read)`);
      },
    },
  );
}

/** Stand-in deps for any factory: typed as whatever the factory asks for. */
export function standInDeps<T>(): T {
  return untouchable('deps') as T;
}

export function routeList(): Route[] {
  const deps = Object.fromEntries(Object.keys(ROUTE_GROUPS).map((name) => [name, standInDeps()])) as RouteDeps;
  return apiRoutes({
    ...deps,
    // The page's format is described in the documents: the real one, which renders nothing until asked.
    provenance: { ...standInDeps<RouteDeps['provenance']>(), page: provenanceHtmlPage },
    // Health subscribes to data changes as it is built (to drop its probe): the one dep it touches.
    health: { ...standInDeps<RouteDeps['health']>(), onRatesChanged: () => undefined },
  });
}
