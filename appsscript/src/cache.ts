/**
 * Cache keys and cached values. CacheService keys are at most 250 characters and values at most
 * 100 KB; a cache keeps about 1,000 entries. Keys name the API base (two documents pointed at two
 * servers must not share answers) and what was asked. Each value carries its own expiry, so one
 * `putAll` (whose lifetime is the longest of the batch) can hold final and moving data together.
 */
import { DOLLAR } from '../../shared/currency-catalog';

const PREFIX = 'crc-rates:v1';
const MAX_KEY = 250;
const MAX_VALUE = 100_000;
/** Long base URLs are hashed so that every key fits in 250 characters. */
const MAX_BASE_IN_KEY = 150;

/** cyrb53: a small, well-spread 53-bit string hash (not for secrets: it names a server). */
export function hash53(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

export function cacheKey(baseUrl: string, ...what: Array<string | number>): string {
  const base = baseUrl.length <= MAX_BASE_IN_KEY ? baseUrl : `#${hash53(baseUrl)}`;
  const key = [PREFIX, base, ...what].join('|');
  return key.length <= MAX_KEY ? key : `${PREFIX}|#${hash53(key)}`;
}

/**
 * The currency's part of a key: its code, or nothing for the dollar. The dollar's keys stay what
 * they were before the add-on spoke other currencies, because the last known good copy is kept
 * under them in users' documents: an update must not throw those copies away.
 */
const of = (currency: string): string[] => (currency === DOLLAR.code ? [] : [currency]);

export const keys = {
  /** The rates of one month (`2025-01`) in one currency, possibly only part of the month. */
  month: (baseUrl: string, month: string, currency: string) => cacheKey(baseUrl, 'month', month, ...of(currency)),
  latest: (baseUrl: string, currency: string) => cacheKey(baseUrl, 'latest', ...of(currency)),
  history: (baseUrl: string, days: number) => cacheKey(baseUrl, 'history', days),
  best: (baseUrl: string, operation: string) => cacheKey(baseUrl, 'best', operation),
  analytics: (baseUrl: string, days: number) => cacheKey(baseUrl, 'analytics', days),
  /** A month's close figures (`2025-01`) in one currency: count, last date present, average and last of each side. */
  close: (baseUrl: string, month: string, currency: string) => cacheKey(baseUrl, 'close', month, ...of(currency)),
  /** One MONEX day: whether it had a session, and its figures. */
  monex: (baseUrl: string, date: string) => cacheKey(baseUrl, 'monex', date),
};

/** The two calls of CacheService's `Cache` the add-on uses. */
export interface CacheLike {
  getAll(keys: string[]): Record<string, string | null | undefined>;
  putAll(values: Record<string, string>, expirationInSeconds?: number): void;
}

export interface Entry {
  key: string;
  value: unknown;
  /** Seconds this value stays good. */
  ttl: number;
}

/**
 * Reads and writes JSON values with their own expiry through at most one `getAll` and one
 * `putAll` per call. A cache that fails (or none at all) only costs a fetch: never an error.
 */
export function createStore(cache: CacheLike | null, now: () => number) {
  return {
    readAll(wanted: readonly string[]): Map<string, unknown> {
      const found = new Map<string, unknown>();
      if (!cache || wanted.length === 0) return found;
      let raw: Record<string, string | null | undefined>;
      try {
        raw = cache.getAll([...wanted]);
      } catch {
        // CacheService unavailable for a moment: everything counts as a miss and is fetched.
        return found;
      }
      const t = now();
      for (const key of wanted) {
        const text = raw[key];
        if (typeof text !== 'string') continue;
        try {
          const parsed = JSON.parse(text) as { e?: unknown; v?: unknown };
          if (typeof parsed.e === 'number' && parsed.e > t) found.set(key, parsed.v);
        } catch {
          // A value we cannot read is a miss.
        }
      }
      return found;
    },

    writeAll(entries: readonly Entry[]): void {
      if (!cache || entries.length === 0) return;
      const t = now();
      const values: Record<string, string> = {};
      let longest = 0;
      for (const { key, value, ttl } of entries) {
        const text = JSON.stringify({ e: t + ttl * 1000, v: value });
        if (text.length > MAX_VALUE) continue;
        values[key] = text;
        longest = Math.max(longest, ttl);
      }
      if (longest === 0) return;
      try {
        cache.putAll(values, longest);
      } catch {
        // Full or refused: the next call fetches again.
      }
    },
  };
}

export type Store = ReturnType<typeof createStore>;
