/**
 * Where an answer comes from: the document cache when it has it, else the API (and then it is
 * cached and kept as the last known good copy), else — when the API failed for a transient reason
 * — that copy. The `Env` is everything a custom function needs from the outside: the sheet's
 * language and zone, the settings, the cache, the copy and a way to fetch.
 */
import { ApiError, buildUrl, readAnswer, type HttpAnswer } from './api';
import type { Entry, Store } from './cache';
import { CACHE_TTL } from './config';
import type { ZoneFormat } from './dates';
import type { LastGood } from './lastgood';
import type { Locale, Messages } from './messages';

export interface Env {
  locale: Locale;
  t: Messages;
  /** Formats in the spreadsheet's time zone. */
  format: ZoneFormat;
  /** Today in Costa Rica (what the API calls today). */
  today: string;
  baseUrl: string;
  apiKey: string | null;
  store: Store;
  lastGood: LastGood;
  /** One GET per URL, all at once, with the key; throws when the API cannot be reached. */
  fetch(urls: readonly string[]): HttpAnswer[];
  now(): number;
}

export function requireKey(env: Env): void {
  if (!env.apiKey) throw new Error(env.t.noKey());
}

/**
 * A failure that says nothing about the answer itself: the API could not be reached, failed
 * (5xx) or asked to wait (429: too many requests, or the month's quota used up). A 400, 401 or
 * 404 is an answer, and the user's to fix.
 */
export function isTransient(error: unknown): error is ApiError {
  return error instanceof ApiError && (error.code === 'UNREACHABLE' || error.status === 429 || error.status >= 500);
}

/** One GET, its `data` read (or an ApiError thrown). */
export function fetchData<T>(env: Env, path: string, query: Record<string, string | number>): T {
  const [reply] = env.fetch([buildUrl(env.baseUrl, path, query)]);
  return readAnswer<T>(reply, env.baseUrl, env.t, env.now());
}

/** Fetched answers: into the cache (one write) and into the last known good copy. */
export function remember(env: Env, entries: readonly Entry[]): void {
  env.store.writeAll(entries);
  env.lastGood.keep(entries);
}

/**
 * After `error`: the last known good answers of every one of `keys`, when the failure is transient
 * and the copy has them all; otherwise `error` itself is thrown. Nothing is recorded yet: the
 * caller may still find the copy falls short, and then the failure stands.
 */
export function recall(env: Env, keys: readonly string[], error: unknown): Map<string, unknown> {
  const recalled = recallKept(env, keys, error);
  if (recalled.size < new Set(keys).size) throw error;
  return recalled;
}

/**
 * After `error`: whichever of `keys` the copy has, when the failure is transient (else `error` is
 * thrown). For a caller that may need only some of them: a carried rate may be found before the
 * month it would otherwise be looked for in.
 */
export function recallKept(env: Env, keys: readonly string[], error: unknown): Map<string, unknown> {
  if (!isTransient(error)) throw error;
  return new Map([...env.lastGood.recall(keys)].map(([key, r]) => [key, r.value]));
}

/**
 * Records that the answers of `keys` were served from the copy (the sidebar says the data is
 * stale), and caches them for a minute so that the rest of a recalculation does not ask again.
 */
export function servedFromCopy(env: Env, keys: readonly string[], error: ApiError): void {
  const recalled = env.lastGood.recall(keys);
  env.lastGood.markStale(recalled, error.message);
  env.store.writeAll([...recalled].map(([key, r]) => ({ key, value: r.value, ttl: CACHE_TTL.recalled })));
}

/** A GET answered from the cache when it can be, else fetched and remembered for `ttl` seconds, else the copy. */
export function cachedGet<T, K>(env: Env, key: string, path: string, query: Record<string, string | number>, ttl: number, keep: (data: T) => K): K {
  requireKey(env);
  const hit = env.store.readAll([key]);
  if (hit.has(key)) return hit.get(key) as K;
  let value: K;
  try {
    value = keep(fetchData<T>(env, path, query));
  } catch (error) {
    const recalled = recall(env, [key], error);
    servedFromCopy(env, [key], error as ApiError);
    return recalled.get(key) as K;
  }
  remember(env, [{ key, value, ttl }]);
  return value;
}
