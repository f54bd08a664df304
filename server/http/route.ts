/**
 * A route is data: its path, parameters, answer schema and a small handler. The router, the
 * validation, the OpenAPI document and the Postman collection are all built from this one list.
 */
import type { z } from 'zod';
import type { ApiKey } from '../store/api-keys';
import { oneOf, parseQuery, type ParsedQuery, type QueryShape } from './params';
import { answerJson } from './answer-json';

export type RawQuery = Record<string, string | string[] | undefined>;

/** What a handler knows about the request beyond its parameters. */
export interface RequestScope {
  /** The calendar day in Costa Rica when the request arrived. */
  today: string;
  /** The caller's key on keyed routes. */
  apiKey: ApiKey | null;
}

/** An answer as it goes out: its text, its content type and the headers that type needs. */
export interface Representation {
  readonly text: string;
  readonly type: string;
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * Another way to write a route's data than the JSON envelope, picked with `?format=` (an HTML
 * page for an audit file, CSV for a spreadsheet). Everything else stays the route's: parameters,
 * access, quota, caching and ETag, the handler and its data.
 */
export interface Format<T, Q> {
  /** The content type, e.g. `text/html; charset=utf-8`. */
  type: string;
  /** What the representation is, for the OpenAPI document. */
  description: string;
  /**
   * Headers it needs beyond the API's own (a page's content security policy), asked for when an
   * answer is written: they may depend on files read then (an inline stylesheet's hash).
   */
  headers?: () => Readonly<Record<string, string>>;
  /** Parameters it needs besides the route's own (CSV's `locale`): every route that offers it takes them. */
  query?: QueryShape;
  /** Whether `Accept` may ask for it when `format` is left out (answers then vary by Accept). */
  negotiable?: boolean;
  /** Whether a request for it may carry the key as `key=` in the query string (what a spreadsheet fetches by URL alone). */
  keyInQuery?: boolean;
  /** Writes the data; `response` is the route's answer schema, for a format laid out from it (CSV's columns). */
  render(data: T, query: Q, response: z.ZodType<T>): string;
}

/** What the router, the access rules and the documents know of a format. */
export interface FormatInfo {
  readonly type: string;
  readonly description: string;
  readonly negotiable: boolean;
  readonly keyInQuery: boolean;
}

/** The representation every route has, and the one given when `format` is left out. */
export const DEFAULT_FORMAT = 'json';
/** The media type of the JSON answers, for content negotiation. */
export const JSON_MEDIA_TYPE = 'application/json';
const JSON_TYPE = `${JSON_MEDIA_TYPE}; charset=utf-8`;

export interface RouteSpec<S extends QueryShape, T> {
  path: string;
  tag: string;
  summary: string;
  description?: string;
  /** `key` routes need `x-api-key`; `public` ones (health, documents) do not. */
  access: 'key' | 'public';
  query: S;
  /** Rules that involve several parameters (both-or-neither, order, span). Throws a 400. */
  check?: (query: ParsedQuery<S>, raw: RawQuery) => void;
  response: z.ZodType<T>;
  /** Parameters for the examples in the documentation and the Postman collection. */
  example?: Record<string, string>;
  /** Whether answers may be kept in the response cache until the data changes. */
  cache?: boolean;
  /** Raw documents (OpenAPI, Postman) are served without the envelope. */
  raw?: boolean;
  /** Whether a keyed answer counts against the monthly quota (`/usage` does not). */
  quota?: boolean;
  /** Whether a request counts against the per-minute limit (`/usage` does not: it is how a client learns its limits). */
  rateLimit?: boolean;
  /** When the route answers 404 (documented), if it can. */
  notFound?: string;
  /** Representations besides JSON, by `format` value (without any, `format` takes `json` alone). */
  formats?: Record<string, Format<T, ParsedQuery<S>>>;
  /**
   * For a cached route that reads more than the rates (a change of rates drops every kept
   * answer): subscribes `drop` to the other changes that make this route's kept answers stale.
   */
  staleWhen?: (drop: () => void) => void;
  handle: (query: ParsedQuery<S>, scope: RequestScope) => Promise<T>;
}

export interface Route {
  readonly path: string;
  readonly tag: string;
  readonly summary: string;
  readonly description?: string;
  readonly access: 'key' | 'public';
  readonly query: QueryShape;
  /**
   * The parameters of the data alone, without `format` and what other formats add: what a client
   * reading the JSON envelope sends (the SDK's types).
   */
  readonly dataQuery: QueryShape;
  readonly response: z.ZodType;
  readonly example?: Record<string, string>;
  readonly cache: boolean;
  readonly raw: boolean;
  readonly quota: boolean;
  readonly rateLimit: boolean;
  /** The 404 this route can answer, in words, or null when it never does. */
  readonly notFound: string | null;
  /** The representations besides JSON, by `format` value. */
  readonly formats: Readonly<Record<string, FormatInfo>>;
  readonly staleWhen?: (drop: () => void) => void;
  parse(raw: RawQuery): Record<string, unknown>;
  handle(query: Record<string, unknown>, scope: RequestScope): Promise<unknown>;
  /** Writes the handler's data as the parsed query asks: the JSON envelope (or raw document), or another format. */
  represent(data: unknown, query: Record<string, unknown>): Representation;
}

/** What `format` says on a route that answers JSON alone. */
const JSON_ONLY = `How to write the answer: ${DEFAULT_FORMAT} is the only form of this route (any other value is a 400).`;

/**
 * The route's parameters, with `format` and the parameters its representations besides JSON need
 * (declared once by the format, not by each route). Every route takes `format`, JSON-only ones
 * too: `format=csv` or `format=xml` where there is no such form is a 400 that lists the accepted
 * values, not a JSON answer the client did not ask for.
 */
function queryWithFormat<S extends QueryShape>(query: S, formats: Record<string, { description: string; query?: QueryShape }>): QueryShape {
  if ('format' in query) throw new Error('Every route takes "format" from its formats: do not declare it');
  const names = Object.keys(formats);
  if (names.length === 0) return { ...query, format: oneOf([DEFAULT_FORMAT], JSON_ONLY, DEFAULT_FORMAT) };
  const choices = names.map((name) => `${name}: ${formats[name]?.description}`).join('; ');
  const out: QueryShape = {
    ...query,
    format: oneOf([DEFAULT_FORMAT, ...names], `How to write the answer. json: the envelope (default); ${choices}.`, DEFAULT_FORMAT),
  };
  for (const [name, format] of Object.entries(formats)) {
    for (const [param, schema] of Object.entries(format.query ?? {})) {
      // Two formats may share a parameter, but not take over one the route (or another format) means otherwise.
      if (param in out && out[param] !== schema) throw new Error(`Format "${name}" takes "${param}", which the route already takes`);
      out[param] = schema;
    }
  }
  return out;
}

export function defineRoute<S extends QueryShape, T>(spec: RouteSpec<S, T>): Route {
  const formats = spec.formats ?? {};
  const query = queryWithFormat(spec.query, formats);
  return {
    path: spec.path,
    tag: spec.tag,
    summary: spec.summary,
    description: spec.description,
    access: spec.access,
    query,
    dataQuery: spec.query,
    response: spec.response,
    example: spec.example,
    cache: spec.cache ?? true,
    raw: spec.raw ?? false,
    quota: spec.access === 'key' && (spec.quota ?? true),
    rateLimit: spec.rateLimit ?? true,
    notFound: spec.notFound ?? null,
    formats: Object.fromEntries(
      Object.entries(formats).map(([name, f]) => [
        name,
        { type: f.type, description: f.description, negotiable: f.negotiable ?? false, keyInQuery: f.keyInQuery ?? false },
      ]),
    ),
    staleWhen: spec.staleWhen,
    parse(raw) {
      const parsed = parseQuery(query, raw);
      spec.check?.(parsed as ParsedQuery<S>, raw);
      return parsed;
    },
    handle: (parsed, scope) => spec.handle(parsed as ParsedQuery<S>, scope),
    represent(data, parsed) {
      const format = typeof parsed.format === 'string' && parsed.format !== DEFAULT_FORMAT ? formats[parsed.format] : undefined;
      if (format) return { text: format.render(data as T, parsed as ParsedQuery<S>, spec.response), type: format.type, headers: format.headers?.() ?? {} };
      return { text: spec.raw ? JSON.stringify(data) : answerJson(data), type: JSON_TYPE, headers: {} };
    },
  };
}
