/**
 * Which representation a request asks for: `format` when it is given (an explicit `format`
 * always wins, `format=json` included), otherwise the one its `Accept` header prefers among JSON
 * and the route's negotiable formats (`Accept: text/csv`), JSON when it prefers none.
 */
import type { Context, Middleware } from 'koa';
import type { AppState, RequestedFormat } from '../app-state';
import { DEFAULT_FORMAT, JSON_MEDIA_TYPE, type RawQuery, type Route } from './route';

const mediaType = (type: string) => type.split(';')[0]?.trim() ?? type;

/**
 * Notes the requested format in `ctx.state` for the access rules and the answer. A route that
 * `Accept` can switch says `Vary: Accept` on every answer, refusals included (a `key=` refused
 * on JSON is served on CSV), so that no cache hands one representation to the other's request.
 */
export function negotiate(route: Route): Middleware {
  // JSON first: it wins ties, so `*/*` and a missing Accept keep getting JSON.
  const negotiable = Object.entries(route.formats).filter(([, f]) => f.negotiable);
  const types = [JSON_MEDIA_TYPE, ...negotiable.map(([, f]) => mediaType(f.type))];
  const offered = (name: string) => name === DEFAULT_FORMAT || Object.hasOwn(route.formats, name);
  const formatOf = (name: string, negotiated: boolean): RequestedFormat => ({
    name,
    negotiated,
    // A format the route does not have (`format=csv` on a JSON-only route, `format=xml`) is refused
    // by the parameter check, with a 400 that names `format` and lists the accepted values. A
    // `key=` beside it must not be refused first as a key "taken only for CSV answers": the client
    // asked for one, and that message would send it the wrong way.
    keyInQuery: offered(name) ? (route.formats[name]?.keyInQuery ?? false) : true,
  });

  function requestedFormat(ctx: Context): RequestedFormat {
    const given = ctx.query.format;
    // A repeated `format` is refused with the other parameters; until then it names no format.
    if (given !== undefined) return formatOf(typeof given === 'string' ? given.toLowerCase() : '', false);
    if (negotiable.length === 0) return formatOf(DEFAULT_FORMAT, false);
    const chosen = ctx.accepts(...types);
    const found = negotiable.find(([, f]) => mediaType(f.type) === chosen);
    return found ? formatOf(found[0], true) : formatOf(DEFAULT_FORMAT, false);
  }

  return async function negotiate(ctx, next) {
    const state: AppState = ctx.state;
    state.format = requestedFormat(ctx);
    if (negotiable.length > 0) ctx.vary('Accept');
    await next();
  };
}

function requested(ctx: Context): RequestedFormat | undefined {
  const { format }: AppState = ctx.state;
  return format;
}

/** Whether the request may carry its key as `key=` in the query string (the guard's question). */
export const takesKeyInQuery = (ctx: Context): boolean => requested(ctx)?.keyInQuery ?? false;

/** The query the route validates: as sent, with the format `Accept` chose when `format` was left out. */
export function queryOf(ctx: Context): RawQuery {
  const format = requested(ctx);
  return format?.negotiated ? { ...ctx.query, format: format.name } : ctx.query;
}

/** The name of a `name=value` pair of a query string, decoded as Koa decodes it (URLSearchParams). */
const nameOf = (pair: string) => new URLSearchParams(pair).keys().next().value ?? '';

/**
 * The query string an answer is kept under: the key is left out (a secret does not belong in
 * the cache, and the answer does not depend on it), and the format `Accept` chose is added, so
 * that the CSV and the JSON answer of the same query string are kept apart.
 */
export function cachedQuerystring(ctx: Context): string {
  const format = requested(ctx);
  // The common case costs nothing: Koa has already parsed the query (for `format` and the key).
  if (!format?.negotiated && ctx.query.key === undefined) return ctx.querystring;
  const pairs = ctx.querystring.split('&').filter((pair) => pair !== '' && nameOf(pair) !== 'key');
  if (format?.negotiated) pairs.push(`format=${encodeURIComponent(format.name)}`);
  return pairs.join('&');
}
