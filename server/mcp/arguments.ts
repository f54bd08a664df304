/**
 * A tool's arguments as the REST query they stand for: the route then validates them exactly as
 * it validates a query string, so a bad argument gets the REST 400's message word for word.
 */
import type { RawQuery } from '../http/route';

/** The text a query string would carry for a JSON value: a model may send `days: 30` or `days: "30"`. */
function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  // An object has no query-string form: its JSON shows up in the 400's "(got …)".
  return JSON.stringify(value);
}

/**
 * Only the tool's parameters are passed on: the route's others (a `format`, a `date` the tool does
 * not offer) keep their defaults, and unknown arguments are ignored as unknown query parameters
 * are. A null is an argument left out (models send it for optional ones); an array becomes a
 * repeated parameter, which the route refuses as it refuses `?days=1&days=2`.
 */
export function toRawQuery(args: Record<string, unknown> | undefined, params: readonly string[]): RawQuery {
  const raw: RawQuery = {};
  for (const name of params) {
    const value = args?.[name];
    if (value === undefined || value === null) continue;
    raw[name] = Array.isArray(value) ? value.map(asText) : asText(value);
  }
  return raw;
}

/** The same query as a query string, for the REST API. */
export function toSearchParams(raw: RawQuery): URLSearchParams {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(raw)) {
    for (const text of Array.isArray(value) ? value : value === undefined ? [] : [value]) search.append(name, text);
  }
  return search;
}
