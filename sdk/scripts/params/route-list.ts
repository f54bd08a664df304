/**
 * The server's routes as data, for the SDK's parameter generator. Each `xxxRoutes(deps)` only
 * builds route objects; its deps are reached by the handlers alone, which the generator never
 * runs, so a stand-in that throws when touched is enough (and says so if that ever changes).
 *
 * The same factories server/app.ts mounts, minus the two raw documents (/openapi.json,
 * /postman.json), which the SDK does not call. test/sdk/client.test.ts checks that this list and
 * the app's enveloped routes have the same paths and parameters, so none can be missed.
 */
import type { Route } from '../../../server/http/route';
import { bankingRoutes } from '../../../server/http/routes/banking';
import { closeRoutes } from '../../../server/http/routes/close';
import { convertRoutes } from '../../../server/http/routes/convert';
import { exchangeRateRoutes } from '../../../server/http/routes/exchange-rate';
import { type HealthDeps, healthRoutes } from '../../../server/http/routes/health';
import { insightsRoutes } from '../../../server/http/routes/insights';
import { provenanceRoutes } from '../../../server/http/routes/provenance';
import { usageRoutes } from '../../../server/http/routes/usage';

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
