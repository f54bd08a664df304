/**
 * Hacienda's euro (`/indicadores/tc/euro`, no token): today's dollars per euro, and its colones
 * when the business day is still on. It is what fills today's euro sell before the central bank
 * publishes its cross rate (indicator 333): Hacienda's `colones` is `dolares` × today's dollar
 * sell, and after business hours it is null while `dolares` is still given.
 */
import { fetchUpstream, joinUrl, realSleep, type RequestPolicy } from './http';
import { createThrottle } from './hacienda';
import { describe, isRecord, leadingDate, parseJsonBody, toNumber } from './json';
import { parseError } from './types';

const SOURCE = 'hacienda';
export const HACIENDA_EURO_PATH = '/indicadores/tc/euro';

/** One answer of the euro endpoint: its day, USD per EUR, and CRC per EUR (null after hours). */
export interface HaciendaEuro {
  date: string;
  dolares: number;
  colones: number | null;
}

/**
 * Reads `{"fecha","dolares","colones"}`. `fecha` is a plain `YYYY-MM-DD` in 2026 answers and was
 * `…T00:00:00-06:00` before: both are the calendar day as written. Outages come as HTTP 200
 * `{"code":503,…}`, retryable, as on the dollar's endpoint.
 */
export function parseHaciendaEuro(body: string): HaciendaEuro {
  const json = parseJsonBody(body, SOURCE);
  if (!isRecord(json)) throw parseError(SOURCE, `expected an object, got ${describe(json)}`);
  if ('code' in json && !('dolares' in json)) {
    const code = toNumber(json.code);
    const retryable = code === undefined || code >= 500 || code === 429;
    throw parseError(SOURCE, `error in a 200 body: ${describe(json)}`, retryable, code);
  }
  const date = leadingDate(json.fecha);
  if (date === undefined) throw parseError(SOURCE, `bad fecha ${describe(json.fecha)}`);
  const dolares = toNumber(json.dolares);
  if (dolares === undefined || dolares <= 0) throw parseError(SOURCE, `bad dolares ${describe(json.dolares)}`);
  if (json.colones === null || json.colones === undefined || json.colones === 0) return { date, dolares, colones: null };
  const colones = toNumber(json.colones);
  if (colones === undefined || colones < 0) throw parseError(SOURCE, `bad colones ${describe(json.colones)}`);
  return { date, dolares, colones };
}

export interface HaciendaEuroSource {
  readonly provider: 'Hacienda';
  /** The address read, as provenance names it. */
  readonly url: string;
  read(signal?: AbortSignal): Promise<HaciendaEuro>;
}

export interface HaciendaEuroOptions extends RequestPolicy {
  /** `https://api.hacienda.go.cr` (`HACIENDA_URL`). */
  baseUrl: string;
  /** At most one request a second: above 10/s Hacienda blocks the IP for 10 minutes. */
  minIntervalMs?: number;
}

export function createHaciendaEuroSource(opts: HaciendaEuroOptions): HaciendaEuroSource {
  const url = joinUrl(opts.baseUrl, HACIENDA_EURO_PATH);
  const throttle = createThrottle(opts.minIntervalMs ?? 1000, opts.sleep ?? realSleep);
  const baseFetch = opts.fetchImpl ?? fetch;
  return {
    provider: 'Hacienda',
    url,
    async read(signal) {
      const res = await fetchUpstream(url, {
        ...opts,
        signal,
        source: SOURCE,
        headers: { Accept: 'application/json' },
        fetchImpl: async (u, init) => {
          await throttle();
          return baseFetch(u, init);
        },
        checkBody: (text) => void parseHaciendaEuro(text),
      });
      return parseHaciendaEuro(res.text);
    },
  };
}
