/**
 * Window (ventanilla) quotes from the SDDE token API: cuadro 1015 holds one buy and one
 * sell series per institution, plus spread series that are skipped. Indicator codes are mapped
 * with the catalog; a code it does not know is read from `nombreIndicador` instead.
 */
import { assertRange } from '../chunks';
import { toSddeDate } from '../bccr-sdde';
import { fetchUpstream, joinUrl, type RequestPolicy } from '../http';
import { describe, isRecord, leadingDate, parseJsonBody, toNumber } from '../json';
import { parseError } from '../types';
import { inferType, matchInstitution, sideOfCode, slugify, typeFromGroupHeading, type CatalogEntry } from './catalog';
import type { VentanillaDay, VentanillaQuote, VentanillaSource } from './types';

const SOURCE = 'bccr-sdde';
export const VENTANILLA_CUADRO = '1015';

export type IndicatorSide = 'buy' | 'sell' | 'spread';

function plain(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

/** What a series is, from its name: "…compra…" buy, "…venta…" sell, "…diferencial…" spread; null when unclear. */
export function indicatorSide(nombre: string): IndicatorSide | null {
  const n = plain(nombre);
  if (/\b(?:diferencial|spread|margen)\b/.test(n)) return 'spread';
  const buy = /\b(?:compra|buy(?:ing)?)\b/.test(n);
  const sell = /\b(?:venta|sell(?:ing)?)\b/.test(n);
  // "Tipo de cambio de compra y venta de X" names no single side.
  if (buy === sell) return null;
  return buy ? 'buy' : 'sell';
}

const SEP = '[-–—:|,;/]';
const SIDE_PHRASE =
  '(?:tipo\\s+(?:de\\s+)?cambio\\s+(?:de\\s+)?)?' +
  '(?:compra|venta|diferencial(?:\\s+cambiario)?)' +
  '(?:\\s+(?:del?\\s+)?(?:d[oó]lar(?:es)?(?:\\s+de\\s+los\\s+estados\\s+unidos(?:\\s+de\\s+am[eé]rica)?)?|us\\$|usd))?' +
  '(?:\\s+en\\s+ventanilla)?';
const SIDE_IN_NAME = new RegExp(`\\s*${SEP}?\\s*\\(?\\s*(?<![\\p{L}\\d])${SIDE_PHRASE}(?![\\p{L}\\d])\\s*\\)?\\s*${SEP}?\\s*`, 'iu');

/**
 * The institution an indicator name speaks of, with the side phrase and its separators taken out:
 * "Banco de Costa Rica - compra", "Tipo de cambio de venta del Banco Nacional" and "BCR (compra)"
 * give "Banco de Costa Rica", "Banco Nacional" and "BCR". Empty when nothing is left.
 */
export function institutionFromIndicator(nombre: string): string {
  return nombre
    .replace(SIDE_IN_NAME, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(new RegExp(`^(?:${SEP}|\\s)+|(?:${SEP}|\\s)+$`, 'gu'), '')
    .replace(/^(?:del|de la|de|en)\s+/i, '')
    .trim();
}

interface Collected {
  quote: Omit<VentanillaQuote, 'buy' | 'sell'>;
  days: Map<string, { buy: number | null; sell: number | null }>;
}

function indicatorsOf(item: unknown): unknown[] {
  if (!isRecord(item)) throw parseError(SOURCE, `datos entry is not an object: ${describe(item)}`);
  if (Array.isArray(item.indicadores)) return item.indicadores;
  // An indicator straight under datos, as the single-indicator route answers.
  if (Array.isArray(item.series)) return [item];
  throw parseError(SOURCE, `datos entry without indicadores: ${describe(item)}`);
}

function pointValue(point: Record<string, unknown>, date: string): number | null {
  const raw = point.valorDatoPorPeriodo;
  if (raw === null || raw === undefined) return null;
  const value = toNumber(raw);
  if (value === undefined) throw parseError(SOURCE, `bad value ${describe(raw)} on ${date}`);
  // A zero is how a table says "no quote".
  return value === 0 ? null : value;
}

/**
 * Reads a `cuadro/1015/series` answer into days, ascending, each with the institutions that had a
 * value that day in the order the table lists them. This format has no update times.
 */
export function parseCuadro1015(body: string): VentanillaDay[] {
  const json = parseJsonBody(body, SOURCE);
  if (!isRecord(json)) throw parseError(SOURCE, `expected an object, got ${describe(json)}`);
  if ('CodigoError' in json) throw parseError(SOURCE, `error ${describe(json.CodigoError)}: ${describe(json.Mensaje)}`);
  if (json.estado === false) throw parseError(SOURCE, `estado false: ${describe(json.mensaje)}`);
  if (json.estado !== true || !Array.isArray(json.datos)) throw parseError(SOURCE, `unexpected shape: ${describe(json)}`);

  const institutions = new Map<string, Collected>();
  let indicators = 0;
  let used = 0;
  for (const item of json.datos) {
    const list = indicatorsOf(item);
    // A table split by groups titles each part with its heading ("Bancos privados").
    const heading = isRecord(item) && typeof item.titulo === 'string' ? typeFromGroupHeading(item.titulo) : null;
    for (const indicator of list) {
      if (!isRecord(indicator) || !Array.isArray(indicator.series)) throw parseError(SOURCE, `indicator without a series array: ${describe(indicator)}`);
      indicators += 1;
      const code = indicator.codigoIndicador === undefined || indicator.codigoIndicador === null ? '' : String(indicator.codigoIndicador).trim();
      const nombre = typeof indicator.nombreIndicador === 'string' ? indicator.nombreIndicador : '';
      let entry: CatalogEntry | null;
      let side: IndicatorSide | null;
      let printed: string;
      const coded = code === '' ? null : sideOfCode(code);
      if (coded) {
        ({ entry, side } = coded);
        printed = entry.name;
      } else {
        side = indicatorSide(nombre);
        printed = institutionFromIndicator(nombre);
        // Spread series, and series whose side or institution cannot be told, are not quotes.
        if (side === null || side === 'spread' || printed === '') continue;
        entry = matchInstitution({ name: printed });
      }
      const id = entry?.id ?? slugify(printed);
      if (id === '') continue;
      used += 1;
      let collected = institutions.get(id);
      if (!collected) {
        collected = {
          quote: {
            institutionId: id,
            name: entry?.name ?? printed,
            type: entry?.type ?? heading ?? inferType(printed),
            updatedAt: null,
            known: entry !== null,
          },
          days: new Map(),
        };
        institutions.set(id, collected);
      }
      for (const point of indicator.series) {
        if (!isRecord(point)) throw parseError(SOURCE, `series point is not an object: ${describe(point)}`);
        const date = leadingDate(point.fecha);
        if (date === undefined) throw parseError(SOURCE, `bad fecha ${describe(point.fecha)} in indicator ${code || nombre}`);
        const value = pointValue(point, date);
        if (value === null) continue;
        const day = collected.days.get(date) ?? { buy: null, sell: null };
        const seen = day[side];
        if (seen !== null && seen !== value)
          throw parseError(SOURCE, `two different ${side} values for ${collected.quote.name} on ${date}: ${seen} and ${value}`);
        day[side] = value;
        collected.days.set(date, day);
      }
    }
  }
  if (indicators > 0 && used === 0)
    throw parseError(SOURCE, `cuadro ${VENTANILLA_CUADRO} has ${indicators} indicators but no buy or sell series of an institution`);

  const dates = [...new Set([...institutions.values()].flatMap((c) => [...c.days.keys()]))].sort();
  return dates.map((date) => ({
    date,
    quotes: [...institutions.values()].flatMap(({ quote, days }) => {
      const day = days.get(date);
      return day ? [{ ...quote, buy: day.buy, sell: day.sell }] : [];
    }),
  }));
}

export interface VentanillaSddeOptions extends RequestPolicy {
  /** `…/SDDE/api/Bccr.GE.SDDE.Publico.Indicadores.API` (`BCCR_API_URL`). */
  baseUrl: string;
  token: string;
}

export function createVentanillaSddeSource(opts: VentanillaSddeOptions): VentanillaSource {
  const token = opts.token.trim();
  if (token === '') throw new Error('createVentanillaSddeSource needs a non-empty BCCR token');
  const maxChunkDays = 366;
  return {
    name: SOURCE,
    maxChunkDays,
    async fetchRange(from, to, signal) {
      assertRange(from, to, maxChunkDays);
      const query = `fechaInicio=${toSddeDate(from)}&fechaFin=${toSddeDate(to)}&idioma=ES`;
      const url = joinUrl(opts.baseUrl, `/cuadro/${VENTANILLA_CUADRO}/series?${query}`);
      const res = await fetchUpstream(url, {
        ...opts,
        source: SOURCE,
        headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' },
        signal,
      });
      return parseCuadro1015(res.text).filter((d) => d.date >= from && d.date <= to);
    },
  };
}
