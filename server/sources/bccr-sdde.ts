/**
 * The central bank's SDDE REST API with a personal token: the primary source.
 * Indicator 317 is the buy reference rate, 318 the sell one, both in CRC per USD.
 */
import { assertRange } from './chunks';
import { fetchUpstream, joinUrl, type RequestPolicy } from './http';
import { describe, isRecord, leadingDate, parseJsonBody, toNumber } from './json';
import { parseError, type OfficialSource, type SourceRate } from './types';

const SOURCE = 'bccr-sdde';
export const SDDE_BUY = '317';
export const SDDE_SELL = '318';
export type SddeIndicator = typeof SDDE_BUY | typeof SDDE_SELL;

function seriesOf(item: unknown, expected: string | undefined): unknown[] {
  if (!isRecord(item) || !Array.isArray(item.series)) throw parseError(SOURCE, `datos entry without a series array: ${describe(item)}`);
  // Guards against a routing mix-up silently storing sell values as buy ones.
  if (expected !== undefined && item.codigoIndicador !== undefined && String(item.codigoIndicador) !== expected) {
    throw parseError(SOURCE, `asked for indicator ${expected}, got ${describe(item.codigoIndicador)}`);
  }
  return item.series;
}

/**
 * Reads an `indicadoresEconomicos/{code}/series` answer (317, 318, or a cross rate) into date → value. An empty `datos`
 * is a valid empty range ("No existen datos para las fechas suministradas."); a `null` value is a
 * day without data and is left out.
 */
export function parseSddeSeries(body: string, expected?: string): Map<string, number> {
  const json = parseJsonBody(body, SOURCE);
  if (!isRecord(json)) throw parseError(SOURCE, `expected an object, got ${describe(json)}`);
  if ('CodigoError' in json) throw parseError(SOURCE, `error ${describe(json.CodigoError)}: ${describe(json.Mensaje)}`);
  if (json.estado === false) throw parseError(SOURCE, `estado false: ${describe(json.mensaje)}`);
  if (json.estado !== true || !Array.isArray(json.datos)) throw parseError(SOURCE, `unexpected shape: ${describe(json)}`);
  const values = new Map<string, number>();
  for (const point of json.datos.flatMap((item) => seriesOf(item, expected))) {
    if (!isRecord(point)) throw parseError(SOURCE, `series point is not an object: ${describe(point)}`);
    const date = leadingDate(point.fecha);
    if (date === undefined) throw parseError(SOURCE, `bad fecha ${describe(point.fecha)}`);
    if (point.valorDatoPorPeriodo === null) continue;
    const value = toNumber(point.valorDatoPorPeriodo);
    if (value === undefined) throw parseError(SOURCE, `bad value ${describe(point.valorDatoPorPeriodo)} on ${date}`);
    const seen = values.get(date);
    if (seen !== undefined && seen !== value) throw parseError(SOURCE, `two different values for ${date}: ${seen} and ${value}`);
    values.set(date, value);
  }
  return values;
}

/** Joins the buy and sell series into rows, ascending, keeping only dates inside `from..to`. */
export function mergeSides(buy: Map<string, number>, sell: Map<string, number>, from: string, to: string): SourceRate[] {
  const dates = [...new Set([...buy.keys(), ...sell.keys()])].filter((d) => d >= from && d <= to).sort();
  return dates.map((date) => ({ date, buy: buy.get(date) ?? null, sell: sell.get(date) ?? null }));
}

/** The API wants `yyyy/mm/dd`: any other date format gives an empty answer, not an error. */
export function toSddeDate(date: string): string {
  return date.replaceAll('-', '/');
}

export interface SddeSourceOptions extends RequestPolicy {
  /** `…/SDDE/api/Bccr.GE.SDDE.Publico.Indicadores.API` (`BCCR_API_URL`). */
  baseUrl: string;
  token: string;
}

/** The longest span one series request asks for: the API wants chunks of at most a year. */
export const SDDE_MAX_CHUNK_DAYS = 366;

/** One indicator's values over `from..to` (at most SDDE_MAX_CHUNK_DAYS), date → value. */
export type SddeSeriesReader = (code: string, from: string, to: string, signal?: AbortSignal) => Promise<Map<string, number>>;

/** Reads any indicator's series with the token. */
export function sddeSeriesReader(opts: SddeSourceOptions): SddeSeriesReader {
  const token = opts.token.trim();
  if (token === '') throw new Error('the SDDE API needs a non-empty BCCR token');
  return async (code, from, to, signal) => {
    assertRange(from, to, SDDE_MAX_CHUNK_DAYS);
    // Slashes stay unencoded: they are legal in a query string and this is what the API documents.
    const query = `fechaInicio=${toSddeDate(from)}&fechaFin=${toSddeDate(to)}&idioma=ES`;
    const url = joinUrl(opts.baseUrl, `/indicadoresEconomicos/${code}/series?${query}`);
    const res = await fetchUpstream(url, { ...opts, source: SOURCE, headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' }, signal });
    return parseSddeSeries(res.text, code);
  };
}

export function createSddeSource(opts: SddeSourceOptions): OfficialSource {
  const series = sddeSeriesReader(opts);
  const maxChunkDays = SDDE_MAX_CHUNK_DAYS;

  return {
    name: SOURCE,
    provider: 'BCCR',
    upstream: { buy: `BCCR SDDE indicator ${SDDE_BUY}`, sell: `BCCR SDDE indicator ${SDDE_SELL}` },
    maxChunkDays,
    async fetchRange(from, to, signal) {
      assertRange(from, to, maxChunkDays);
      // One after the other: the API throttles with 429, and a year is only two requests.
      const buy = await series(SDDE_BUY, from, to, signal);
      const sell = await series(SDDE_SELL, from, to, signal);
      return mergeSides(buy, sell, from, to);
    },
  };
}
