/**
 * The API's routes, listed once. The app mounts them with its real dependencies; the route list
 * (route-list.ts: the SDK generator, the MCP server on stdio, the documents' tests) builds the
 * same factories with stand-ins. A new group of routes is added here and nowhere else. Above the
 * layers, like app.ts: what a route needs from the site (the provenance page) is handed to it.
 */
import type { Route } from './http/route';
import { bankingRoutes } from './http/routes/banking';
import { closeRoutes } from './http/routes/close';
import { convertRoutes } from './http/routes/convert';
import { currenciesRoutes } from './http/routes/currencies';
import { exchangeRateRoutes } from './http/routes/exchange-rate';
import { healthRoutes } from './http/routes/health';
import { insightsRoutes } from './http/routes/insights';
import { monexRoutes } from './http/routes/monex';
import { provenanceRoutes } from './http/routes/provenance';
import { purposesRoutes } from './http/routes/purposes';
import { usageRoutes } from './http/routes/usage';

/** Each group of routes by name, in the order the documents list them. */
export const ROUTE_GROUPS = {
  exchangeRate: exchangeRateRoutes,
  currencies: currenciesRoutes,
  purposes: purposesRoutes,
  close: closeRoutes,
  provenance: provenanceRoutes,
  convert: convertRoutes,
  banking: bankingRoutes,
  monex: monexRoutes,
  insights: insightsRoutes,
  usage: usageRoutes,
  health: healthRoutes,
} as const;

type Groups = typeof ROUTE_GROUPS;
export type GroupName = keyof Groups;

/** What each group is built from, under the group's name. */
export type RouteDeps = { [Name in GroupName]: Parameters<Groups[Name]>[0] };

/** Every route of the API but the two documents that describe them (documents.ts adds those). */
export function apiRoutes(deps: RouteDeps): Route[] {
  return (Object.keys(ROUTE_GROUPS) as GroupName[]).flatMap((name) => (ROUTE_GROUPS[name] as (deps: RouteDeps[GroupName]) => Route[])(deps[name]));
}
