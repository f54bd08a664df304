/**
 * The server's routes as data, without a database: for the SDK's parameter generator and the MCP
 * server on stdio (which describes the routes but calls the REST API). Each `xxxRoutes(deps)`
 * only builds route objects; its deps are reached by the handlers alone, which neither runs, so
 * a stand-in that throws when touched is enough (and says so if that ever changes).
 *
 * The same factories server/app.ts mounts, minus the two raw documents (/openapi.json,
 * /postman.json), which neither uses. test/sdk/client.test.ts checks that this list and
 * the app's enveloped routes have the same paths and parameters, so none can be missed.
 */
import type { Route } from './route';
import { bankingRoutes } from './routes/banking';
import { closeRoutes } from './routes/close';
import { convertRoutes } from './routes/convert';
import { exchangeRateRoutes } from './routes/exchange-rate';
import { type HealthDeps, healthRoutes } from './routes/health';
import { insightsRoutes } from './routes/insights';
import { provenanceRoutes } from './routes/provenance';
import { usageRoutes } from './routes/usage';

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
  return [
    ...exchangeRateRoutes(standInDeps()),
    ...closeRoutes(standInDeps()),
    ...provenanceRoutes(standInDeps()),
    ...convertRoutes(standInDeps()),
    ...bankingRoutes(standInDeps()),
    ...insightsRoutes(standInDeps()),
    ...usageRoutes(standInDeps()),
    // Health subscribes to data changes as it is built (to drop its probe): the one dep it touches.
    ...healthRoutes({ ...standInDeps<HealthDeps>(), onRatesChanged: () => undefined }),
  ];
}
