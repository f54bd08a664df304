/**
 * MONEX from the SDDE API with the token: the four indicators of cuadro 219 over a span (each in
 * the same `indicadoresEconomicos/{code}/series` shape as 317/318), joined by date, and the unit
 * of the amount traded from the indicator's metadata.
 *
 * The metadata's shape is not documented beside the series. We read
 * `…/indicadoresEconomicos/3446/metadata` as the series' envelope (`{"estado":true,"mensaje":…,
 * "datos":[{…}]}`) whose entry names the unit under a key containing `unidad` (as `unidad`,
 * `unidadMedida`, `nombreUnidadMedida`) or `unit`, and tolerate the rest: a bare object or array
 * instead of the envelope, the unit nested one level down, other keys. When no unit is found the
 * amount is still stored, with a null unit; an error answer (`estado:false`, `CodigoError`) fails
 * like the series'.
 */
import { MONEX_FIGURES, MONEX_INDICATORS, type MonexFigure } from '../../shared/monex';
import { sddeSeriesReader, type SddeSourceOptions, SDDE_MAX_CHUNK_DAYS } from './bccr-sdde';
import { assertRange } from './chunks';
import { fetchUpstream, joinUrl } from './http';
import { describe, isRecord, parseJsonBody } from './json';
import { parseError, type SourceName } from './types';
import type { RateSource } from '../../shared/currencies';

const SOURCE = 'bccr-sdde';

/** One published day: every figure the upstream gave for it (a missing one is absent). */
export interface MonexPoint {
  date: string;
  figures: Partial<Record<MonexFigure, number>>;
  /** The amount's unit as the metadata stated it when the span was read. */
  volumeUnit: string | null;
}

export interface MonexSource {
  readonly name: SourceName;
  /** The `source` stored with each day (`DEMO` for the simulated central bank). */
  readonly provider: RateSource;
  readonly maxChunkDays: number;
  /** The days of `from..to` (at most `maxChunkDays`) any indicator published, ascending. */
  fetchRange(from: string, to: string, signal?: AbortSignal): Promise<MonexPoint[]>;
}

const UNIT_KEY = /unidad|unit/i;

function unitIn(value: unknown, depth: number): string | null {
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = unitIn(item, depth);
      if (found) return found;
    }
    return null;
  }
  if (!isRecord(value)) return null;
  for (const [key, field] of Object.entries(value)) {
    if (UNIT_KEY.test(key) && typeof field === 'string' && field.trim() !== '') return field.trim();
  }
  if (depth === 0) return null;
  for (const field of Object.values(value)) {
    const found = unitIn(field, depth - 1);
    if (found) return found;
  }
  return null;
}

/** The unit an indicator's or cuadro's metadata states, null when it states none (see the file's comment for the shapes read). */
export function parseSddeMetadataUnit(body: string): string | null {
  const json = parseJsonBody(body, SOURCE);
  if (isRecord(json)) {
    if ('CodigoError' in json) throw parseError(SOURCE, `metadata error ${describe(json.CodigoError)}: ${describe(json.Mensaje)}`);
    if (json.estado === false) throw parseError(SOURCE, `metadata estado false: ${describe(json.mensaje)}`);
    if ('datos' in json) return unitIn(json.datos, 2);
  }
  return unitIn(json, 2);
}

/** Joins the four indicators' values by date, keeping only dates inside `from..to`. */
export function joinFigures(series: Record<MonexFigure, Map<string, number>>, from: string, to: string, volumeUnit: string | null): MonexPoint[] {
  const dates = new Set<string>();
  for (const figure of MONEX_FIGURES) for (const date of series[figure].keys()) if (date >= from && date <= to) dates.add(date);
  return [...dates].sort().map((date) => {
    const figures: Partial<Record<MonexFigure, number>> = {};
    for (const figure of MONEX_FIGURES) {
      const value = series[figure].get(date);
      if (value !== undefined) figures[figure] = value;
    }
    return { date, figures, volumeUnit };
  });
}

export function createMonexSource(opts: SddeSourceOptions): MonexSource {
  const read = sddeSeriesReader(opts);
  const token = opts.token.trim();
  const metadataUnit = async (signal?: AbortSignal) => {
    const url = joinUrl(opts.baseUrl, `/indicadoresEconomicos/${MONEX_INDICATORS.volume}/metadata`);
    const res = await fetchUpstream(url, { ...opts, source: SOURCE, headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' }, signal });
    return parseSddeMetadataUnit(res.text);
  };
  return {
    name: SOURCE,
    provider: 'BCCR',
    maxChunkDays: SDDE_MAX_CHUNK_DAYS,
    async fetchRange(from, to, signal) {
      assertRange(from, to, SDDE_MAX_CHUNK_DAYS);
      // One after the other, as the dollar's: the API throttles with 429.
      const series = {} as Record<MonexFigure, Map<string, number>>;
      for (const figure of MONEX_FIGURES) series[figure] = await read(MONEX_INDICATORS[figure], from, to, signal);
      return joinFigures(series, from, to, await metadataUnit(signal));
    },
  };
}
