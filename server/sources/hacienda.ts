/**
 * Ministerio de Hacienda's indicator API, no token: today's rate only, used when the central
 * bank cannot be reached. Its history endpoint has answered 503 all through 2026, so it is not used.
 */
import { assertRange } from './chunks';
import { fetchUpstream, joinUrl, realSleep, type FetchLike, type RequestPolicy, type Sleep } from './http';
import { describe, isRecord, leadingDate, parseJsonBody, toNumber } from './json';
import { parseError, type OfficialSource, type SourceRate } from './types';

const SOURCE = 'hacienda';
export const HACIENDA_PATH = '/indicadores/tc/dolar';

function side(json: Record<string, unknown>, key: 'compra' | 'venta'): { date: string; value: number | null } {
  const node = json[key];
  if (!isRecord(node)) throw parseError(SOURCE, `no ${key} object in ${describe(json)}`);
  const date = leadingDate(node.fecha);
  if (date === undefined) throw parseError(SOURCE, `bad ${key}.fecha ${describe(node.fecha)}`);
  if (node.valor === null || node.valor === 0) return { date, value: null };
  const value = toNumber(node.valor);
  if (value === undefined) throw parseError(SOURCE, `bad ${key}.valor ${describe(node.valor)}`);
  return { date, value };
}

/**
 * Reads `{"venta":{"fecha","valor"},"compra":{…}}`. The date is the calendar day as written
 * (`2019-10-24T00:00:00-06:00` is the 24th: converting to UTC would keep it, but a `+` offset or
 * a late hour would not). Hacienda reports outages as HTTP 200 `{"code":503,…}`: retryable.
 */
export function parseHacienda(body: string): SourceRate {
  const json = parseJsonBody(body, SOURCE);
  if (!isRecord(json)) throw parseError(SOURCE, `expected an object, got ${describe(json)}`);
  if ('code' in json && !('venta' in json)) {
    const code = toNumber(json.code);
    const retryable = code === undefined || code >= 500 || code === 429;
    throw parseError(SOURCE, `error in a 200 body: ${describe(json)}`, retryable, code);
  }
  const buy = side(json, 'compra');
  const sell = side(json, 'venta');
  if (buy.date !== sell.date) throw parseError(SOURCE, `compra is dated ${buy.date} but venta ${sell.date}`);
  return { date: sell.date, buy: buy.value, sell: sell.value };
}

/**
 * Spaces calls at least `minIntervalMs` apart. Slots are reserved synchronously, so concurrent
 * callers queue instead of bursting: above 10 requests/s Hacienda blocks the IP for 10 minutes.
 */
export function createThrottle(minIntervalMs: number, sleep: Sleep = realSleep, now: () => number = Date.now): () => Promise<void> {
  let nextSlot = 0;
  return () => {
    const t = now();
    const wait = Math.max(0, nextSlot - t);
    nextSlot = Math.max(t, nextSlot) + minIntervalMs;
    return wait > 0 ? sleep(wait) : Promise.resolve();
  };
}

export interface HaciendaSourceOptions extends RequestPolicy {
  /** `https://api.hacienda.go.cr` (`HACIENDA_URL`). */
  baseUrl: string;
  /** One request per second by default, far below the 10/s that gets an IP blocked. */
  minIntervalMs?: number;
}

export function createHaciendaSource(opts: HaciendaSourceOptions): OfficialSource {
  // A large but finite span: the endpoint ignores dates, so any range is one request.
  const maxChunkDays = 100_000;
  const throttle = createThrottle(opts.minIntervalMs ?? 1000, opts.sleep ?? realSleep);
  const baseFetch: FetchLike = opts.fetchImpl ?? fetch;
  // Throttling the fetch itself covers every attempt, retries included.
  const fetchImpl: FetchLike = async (url, init) => {
    await throttle();
    return baseFetch(url, init);
  };

  return {
    name: SOURCE,
    provider: 'Hacienda',
    upstream: { buy: `Hacienda ${HACIENDA_PATH} (compra)`, sell: `Hacienda ${HACIENDA_PATH} (venta)` },
    maxChunkDays,
    async fetchRange(from, to, signal) {
      assertRange(from, to, maxChunkDays);
      const res = await fetchUpstream(joinUrl(opts.baseUrl, HACIENDA_PATH), {
        ...opts,
        signal,
        fetchImpl,
        source: SOURCE,
        headers: { Accept: 'application/json' },
        checkBody: (text) => void parseHacienda(text),
      });
      const rate = parseHacienda(res.text);
      return rate.date >= from && rate.date <= to ? [rate] : [];
    },
  };
}
