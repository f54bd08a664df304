/**
 * What a tool call's route came to, and how an executor runs one: shared by both transports and
 * by the executors, without the MCP SDK (http.ts loads the SDK only when a POST comes).
 */
import type { RawQuery, Route } from '../http/route';

/** What running a tool's route came to. */
export type Outcome = { ok: true; data: unknown } | { ok: false; error: string };

/** Runs a route with a raw query; never throws for the route's own refusals (they are outcomes). */
export type Execute = (route: Route, raw: RawQuery) => Promise<Outcome>;

/** A tool error's one text item: `CODE: message`, as the REST envelope has them. */
export function errorText(code: string, message: string): string {
  return `${code}: ${message}`;
}
