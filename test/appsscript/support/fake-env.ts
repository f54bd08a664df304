/**
 * An Env for the add-on's service modules whose only outside world is a function standing for the
 * API, with memory for the cache and the document properties: what the logic tests call the
 * custom functions' insides with, without Apps Script and without a server.
 */
import type { Env } from '../../../appsscript/src/answers';
import { ApiError, type HttpAnswer } from '../../../appsscript/src/api';
import { type CacheLike, createStore } from '../../../appsscript/src/cache';
import type { ZoneFormat } from '../../../appsscript/src/dates';
import { createLastGood, type PropertyStore } from '../../../appsscript/src/lastgood';
import { messages } from '../../../appsscript/src/messages';
import { formatDate } from './gas';

export const FAKE_BASE = 'https://api.example.com/api/v1';

const en = messages('en');

export const inZone =
  (tz: string): ZoneFormat =>
  (date, pattern) =>
    formatDate(date, tz, pattern);

export const ok = (data: unknown): HttpAnswer => ({ status: 200, headers: {}, body: JSON.stringify({ success: true, data }) });

export const fail = (status: number, error: string, message: string): HttpAnswer => ({
  status,
  headers: { 'Retry-After': '30' },
  body: JSON.stringify({ success: false, error, message }),
});

/** Document properties in memory, with the calls made on them. */
export function memoryProperties(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  const ops: string[] = [];
  const store: PropertyStore = {
    setProperties(values) {
      ops.push(`setProperties:${Object.keys(values).length}`);
      for (const [k, v] of Object.entries(values)) data.set(k, v);
    },
    setProperty(k, v) {
      ops.push(`setProperty:${k}`);
      data.set(k, v);
    },
    deleteProperty(k) {
      ops.push(`deleteProperty:${k}`);
      data.delete(k);
    },
  };
  return { data, ops, store, snapshot: () => Object.fromEntries(data) };
}

/**
 * An Env whose only outside world is `answer` (the API; null: unreachable) and memory for the
 * cache and the properties. `env()` is one custom function's call: a new one each time, on the
 * same cache and properties, as Sheets runs them.
 */
export function fakeEnv(answer: (url: string) => HttpAnswer | null, today = '2026-11-22') {
  const data = new Map<string, string>();
  const cache: CacheLike = {
    getAll: (wanted) => Object.fromEntries(wanted.filter((k) => data.has(k)).map((k) => [k, data.get(k)!])),
    putAll: (values) => {
      for (const [k, v] of Object.entries(values)) data.set(k, v);
    },
  };
  const props = memoryProperties();
  let now = Date.parse(`${today}T12:00:00Z`);
  const urls: string[] = [];
  const env = (): Env => ({
    locale: 'en',
    t: en,
    format: inZone('America/Costa_Rica'),
    today,
    baseUrl: FAKE_BASE,
    apiKey: 'crc_live_x',
    store: createStore(cache, () => now),
    lastGood: createLastGood(props.store, props.snapshot(), () => now),
    fetch: (wanted) =>
      wanted.map((url) => {
        urls.push(decodeURIComponent(url.replace(FAKE_BASE, '')));
        const reply = answer(url);
        // As env.ts's fetchAll reports a request that could not be made.
        if (!reply) throw new ApiError(en.unreachable('https://api.example.com', 'Address unavailable'), 0, 'UNREACHABLE');
        return reply;
      }),
    now: () => now,
  });
  return { env, urls, props, cache: data, advance: (s: number) => (now += s * 1000) };
}
