/**
 * A route is data: its path, parameters, answer schema and a small handler. The router, the
 * validation, the OpenAPI document and the Postman collection are all built from this one list.
 */
import type { z } from 'zod';
import type { ApiKey } from '../store/api-keys';
import { parseQuery, type ParsedQuery, type QueryShape } from './params';

export type RawQuery = Record<string, string | string[] | undefined>;

/** What a handler knows about the request beyond its parameters. */
export interface RequestScope {
  /** The calendar day in Costa Rica when the request arrived. */
  today: string;
  /** The caller's key on keyed routes. */
  apiKey: ApiKey | null;
}

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
  handle: (query: ParsedQuery<S>, scope: RequestScope) => Promise<T>;
}

export interface Route {
  readonly path: string;
  readonly tag: string;
  readonly summary: string;
  readonly description?: string;
  readonly access: 'key' | 'public';
  readonly query: QueryShape;
  readonly response: z.ZodType;
  readonly example?: Record<string, string>;
  readonly cache: boolean;
  readonly raw: boolean;
  readonly quota: boolean;
  readonly rateLimit: boolean;
  /** The 404 this route can answer, in words, or null when it never does. */
  readonly notFound: string | null;
  parse(raw: RawQuery): Record<string, unknown>;
  handle(query: Record<string, unknown>, scope: RequestScope): Promise<unknown>;
}

export function defineRoute<S extends QueryShape, T>(spec: RouteSpec<S, T>): Route {
  return {
    path: spec.path,
    tag: spec.tag,
    summary: spec.summary,
    description: spec.description,
    access: spec.access,
    query: spec.query,
    response: spec.response,
    example: spec.example,
    cache: spec.cache ?? true,
    raw: spec.raw ?? false,
    quota: spec.access === 'key' && (spec.quota ?? true),
    rateLimit: spec.rateLimit ?? true,
    notFound: spec.notFound ?? null,
    parse(raw) {
      const query = parseQuery(spec.query, raw);
      spec.check?.(query, raw);
      return query;
    },
    handle: (query, scope) => spec.handle(query as ParsedQuery<S>, scope),
  };
}
