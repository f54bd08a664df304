/**
 * Window (ventanilla) quotes from the public site's API, no token: group 1015 as a table of one
 * day, rows of cells, the first recognisable row being the header. Group heading rows ("Bancos
 * públicos") carry no values and give their type to the rows below them.
 */
import { addDays, isIsoDate } from '../../../shared/dates';
import type { InstitutionType } from '../../../shared/institutions';
import { createCsrfTokenProvider, siteHeaders, withCsrfToken, type CsrfTokenOptions, type CsrfTokenProvider } from '../bccr-site';
import { assertRange } from '../chunks';
import { fetchUpstream, joinUrl } from '../http';
import { describe, isRecord, parseJsonBody } from '../json';
import { parseError } from '../types';
import { inferType, matchInstitution, normalizeName, slugify, typeFromGroupHeading } from './catalog';
import type { VentanillaDay, VentanillaQuote, VentanillaSource } from './types';

const SOURCE = 'bccr-site';
export const SITE_VENTANILLA_PATH =
  '/Bccr.GE.SDDE.IndicadoresSitioExterno.GrupoVariables.API/CuadroPersonalizadoGrupoVariables/ObtenerDatosCuadroPersonalizado';
export const VENTANILLA_GROUP = '1015';
/** Costa Rica keeps UTC−6 all year (no daylight saving time since 1992). */
const CR_OFFSET_HOURS = 6;

/** The text of a cell: `{"valorEspanol": "451,00"}`, or a bare string or number. */
function cellText(cell: unknown): string {
  if (cell === null || cell === undefined) return '';
  if (typeof cell === 'string') return cell.replace(/\s+/g, ' ').trim();
  if (typeof cell === 'number') return String(cell);
  if (isRecord(cell)) {
    const value = cell.valorEspanol ?? cell.valor;
    if (value === null || value === undefined) return '';
    if (typeof value === 'string' || typeof value === 'number') return cellText(value);
  }
  throw parseError(SOURCE, `unreadable cell ${describe(cell)}`);
}

const NO_VALUE = /^(?:|-+|–|—|n\s?\/\s?d|n\.?\s?d\.?|n\s?\/\s?a|s\.?\s?d\.?)$/i;
const ES_NUMBER = /^\d{1,3}(?:\.\d{3})+(?:,\d+)?$|^\d+(?:,\d+)?$/;
// A dot followed by one or two digits cannot be a thousands separator: a decimal dot.
const DOT_DECIMAL = /^\d+\.\d{1,2}$/;

/**
 * A value cell: `451,00`, `1.234,56`, `₡451,00`; `-`, `N/D`, empty and zero are no value. A dot
 * with three digits after it is a thousands dot (Spanish), with one or two a decimal dot.
 */
export function parseAmount(text: string): number | null {
  const t = text.replace(/[₡¢\s]/g, '');
  if (NO_VALUE.test(t)) return null;
  let value: number;
  if (ES_NUMBER.test(t)) value = Number(t.replaceAll('.', '').replace(',', '.'));
  else if (DOT_DECIMAL.test(t)) value = Number(t);
  else throw parseError(SOURCE, `value ${describe(text)} is not a number`);
  return value === 0 ? null : value;
}

const CR_TIMESTAMP = /^(\d{1,2})\/(\d{1,2})\/(\d{4}),?\s+(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s*([ap])\.?\s?m\.?)?$/i;
const LOCAL_ISO = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?$/;
const DATE_ONLY = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;

function crInstant(y: number, mo: number, d: number, h: number, mi: number, s: number, text: string): string {
  const date = `${String(y).padStart(4, '0')}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
  if (!isIsoDate(date) || h > 23 || mi > 59 || s > 59) throw parseError(SOURCE, `timestamp ${describe(text)} is no real time`);
  return new Date(Date.UTC(y, mo - 1, d, h + CR_OFFSET_HOURS, mi, s)).toISOString();
}

/**
 * `20/10/2026 08:30 a.m.` (also `a. m.`, `AM`, with seconds, or 24-hour without a suffix), in
 * Costa Rica time, to an ISO instant in UTC. `12:05 a.m.` is five past midnight, `12:05 p.m.` five
 * past noon. Empty, `-` and `N/D` are no time; anything else unreadable is a parse error.
 */
export function parseCrTimestamp(text: string): string | null {
  const t = text.replace(/\s+/g, ' ').trim();
  if (NO_VALUE.test(t.replaceAll(' ', ''))) return null;
  const m = CR_TIMESTAMP.exec(t);
  if (m) {
    let hour = Number(m[4]);
    const meridiem = m[7]?.toLowerCase();
    if (meridiem !== undefined) {
      if (hour < 1 || hour > 12) throw parseError(SOURCE, `timestamp ${describe(text)} has hour ${hour} with a.m./p.m.`);
      if (meridiem === 'a' && hour === 12) hour = 0;
      if (meridiem === 'p' && hour < 12) hour += 12;
    }
    return crInstant(Number(m[3]), Number(m[2]), Number(m[1]), hour, Number(m[5]), Number(m[6] ?? 0), text);
  }
  const local = LOCAL_ISO.exec(t);
  if (local) return crInstant(Number(local[1]), Number(local[2]), Number(local[3]), Number(local[4]), Number(local[5]), Number(local[6] ?? 0), text);
  if (/^\d{4}-\d{2}-\d{2}T[\d:.]+(?:Z|[+-]\d{2}:?\d{2})$/.test(t) && !Number.isNaN(Date.parse(t))) return new Date(Date.parse(t)).toISOString();
  const day = DATE_ONLY.exec(t);
  if (day) return crInstant(Number(day[3]), Number(day[2]), Number(day[1]), 0, 0, 0, text);
  throw parseError(SOURCE, `timestamp ${describe(text)} is not dd/mm/yyyy hh:mm a.m.|p.m.`);
}

interface Columns {
  name: number;
  buy: number;
  sell: number;
  /** Every column that holds a value (spread and time included): a heading row has none of them. */
  values: number[];
  updated: number | undefined;
}

/** The header row, if `texts` is one: it names a buy and a sell column. */
function headerColumns(texts: string[]): Columns | undefined {
  const norm = texts.map(normalizeName);
  const find = (test: (n: string) => boolean) => {
    const i = norm.findIndex(test);
    return i < 0 ? undefined : i;
  };
  const buy = find((n) => /\bcompra\b/.test(n));
  const sell = find((n) => /\bventa\b/.test(n));
  if (buy === undefined || sell === undefined || buy === sell) return undefined;
  const spread = find((n) => /\bdiferencial\b/.test(n));
  const updated = find((n) => /actualiz|\bfecha\b|\bhora\b/.test(n));
  const taken = new Set([buy, sell, spread, updated].filter((i): i is number => i !== undefined));
  const name = find((n) => /\bentidad|\binstituci|\bnombre\b|\bintermediari/.test(n)) ?? norm.findIndex((_n, i) => !taken.has(i));
  if (name < 0 || taken.has(name)) return undefined;
  const values = [buy, sell, spread, updated].filter((i): i is number => i !== undefined);
  return { name, buy, sell, values, updated };
}

/**
 * Reads one day's `ObtenerDatosCuadroPersonalizado?idGrupoVariable=1015` answer into quotes, in
 * the table's order. Institutions without a value on either side are left out. Columns are found
 * by their header text; rows before the header (a title) are skipped.
 */
export function parseCuadroPersonalizado(body: string, date: string): VentanillaQuote[] {
  const json = parseJsonBody(body, SOURCE);
  if (!isRecord(json)) throw parseError(SOURCE, `expected an object, got ${describe(json)}`);
  if ('CodigoError' in json) throw parseError(SOURCE, `error ${describe(json.CodigoError)}: ${describe(json.Mensaje)}`);
  if (json.estado === false) throw parseError(SOURCE, `estado false on ${date}: ${describe(json.mensaje)}`);
  if (json.estado !== true || !isRecord(json.datos) || !Array.isArray(json.datos.indicadores)) {
    throw parseError(SOURCE, `unexpected shape on ${date}: ${describe(json)}`);
  }
  const rows = json.datos.indicadores;
  if (rows.length === 0) return [];

  let columns: Columns | undefined;
  let groupType: InstitutionType | null = null;
  const quotes: VentanillaQuote[] = [];
  const seen = new Map<string, VentanillaQuote>();
  for (const row of rows) {
    if (!Array.isArray(row)) throw parseError(SOURCE, `row is not an array of cells on ${date}: ${describe(row)}`);
    const texts = row.map(cellText);
    const header = headerColumns(texts);
    if (header) {
      columns = header;
      continue;
    }
    if (!columns) continue; // a title above the header
    const name = texts[columns.name] ?? '';
    if (name === '') continue;
    if (columns.values.every((i) => (texts[i] ?? '') === '')) {
      // A name and nothing else: a group heading, or an institution without quotes today.
      const heading = typeFromGroupHeading(name);
      if (heading) groupType = heading;
      else if (!matchInstitution({ name }) && !inferType(name)) groupType = null; // a heading we do not know
      continue;
    }
    const buy = parseAmount(texts[columns.buy] ?? '');
    const sell = parseAmount(texts[columns.sell] ?? '');
    if (buy === null && sell === null) continue;
    const updatedAt = columns.updated === undefined ? null : parseCrTimestamp(texts[columns.updated] ?? '');
    const entry = matchInstitution({ name });
    const quote: VentanillaQuote = {
      institutionId: entry?.id ?? slugify(name),
      name: entry?.name ?? name,
      type: entry?.type ?? groupType ?? inferType(name),
      buy,
      sell,
      updatedAt,
      known: entry !== null,
    };
    const twin = seen.get(quote.institutionId);
    if (twin) {
      if (twin.buy === quote.buy && twin.sell === quote.sell) continue;
      throw parseError(SOURCE, `${quote.name} appears twice on ${date} with different values`);
    }
    seen.set(quote.institutionId, quote);
    quotes.push(quote);
  }
  if (!columns) throw parseError(SOURCE, `no header row with Compra and Venta on ${date}: ${describe(rows[0])}`);
  return quotes;
}

export interface VentanillaSiteOptions extends CsrfTokenOptions {
  /** A token provider to share with the official site source; one of its own otherwise. */
  csrf?: CsrfTokenProvider;
}

export function createVentanillaSiteSource(opts: VentanillaSiteOptions): VentanillaSource {
  const maxChunkDays = 31;
  const csrf = opts.csrf ?? createCsrfTokenProvider(opts);

  async function day(token: string, date: string, signal: AbortSignal | undefined): Promise<VentanillaQuote[]> {
    const query = `idGrupoVariable=${VENTANILLA_GROUP}&fechaAConsultar=${date}`;
    const res = await fetchUpstream(joinUrl(opts.baseUrl, `${SITE_VENTANILLA_PATH}?${query}`), {
      ...opts,
      source: SOURCE,
      headers: siteHeaders(token),
      signal,
    });
    return parseCuadroPersonalizado(res.text, date);
  }

  return {
    name: SOURCE,
    maxChunkDays,
    async fetchRange(from, to, signal) {
      assertRange(from, to, maxChunkDays);
      const days: VentanillaDay[] = [];
      // One day per request, one after the other: the site is a shared public service.
      for (let date = from; date <= to; date = addDays(date, 1)) {
        const quotes = await withCsrfToken(csrf, (token) => day(token, date, signal), signal);
        if (quotes.length > 0) days.push({ date, quotes });
      }
      return days;
    },
  };
}
