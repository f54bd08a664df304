/**
 * What a request carries from one middleware to the next in Koa's `ctx.state`: one type for the
 * whole app (`new Koa<AppState>()`). The edge writes the request's id, negotiation the format it
 * asks for, the access rules who is calling; the routes and the log read them. Here, below the
 * layers that share it, so that each reads the same fields under the same names.
 */
import type { ParameterizedContext } from 'koa';
import type { ApiKey } from './store/api-keys';

/** The representation a request asks for, as negotiation found it (http/negotiation.ts). */
export interface RequestedFormat {
  /** The `format` value, in lower case as the parameter reads it (validated later, with the other parameters). */
  readonly name: string;
  /** Chosen by `Accept`, with no `format` in the query. */
  readonly negotiated: boolean;
  /** Whether this format takes the key as `key=` (CSV: a spreadsheet fetches by URL alone). */
  readonly keyInQuery: boolean;
}

export interface AppState {
  /** The request's id, sent back in `X-Request-Id` and written in its log lines. */
  requestId?: string;
  /** What `negotiate` found the request asks for (on the API's routes). */
  format?: RequestedFormat;
  /** The caller's key, once `identify` has found it valid. */
  apiKey?: ApiKey;
  /**
   * What is wrong with the key sent; `in-query`: `key=` where only the header is taken (a 400, not
   * a 401); `authorization`: an Authorization header that is not `Bearer <key>`.
   */
  keyProblem?: 'malformed' | 'unknown' | 'revoked' | 'in-query' | 'authorization';
  /** The key's lookup itself failed (the database is down): not the caller's fault. */
  keyError?: unknown;
}

/** A Koa context whose `state` is the app's. */
export type AppContext = ParameterizedContext<AppState>;
