/**
 * The API behind the public site sdd.bccr.fi.cr: no personal token, so a fresh install gets
 * data. A CSRF JWT first, then the pivoted table of indicator group 1, which ignores FechaInicio
 * and holds the 100 days up to FechaFin: the days before the span asked are dropped.
 */
import { isIsoDate } from '../../shared/dates';
import { assertRange } from './chunks';
import { fetchUpstream, joinUrl, type RequestPolicy } from './http';
import { describe, isRecord, parseJsonBody } from './json';
import { parseError, UpstreamError, type OfficialSource, type SourceRate } from './types';

const SOURCE = 'bccr-site';
export const SITE_TOKEN_PATH = '/Bccr.GE.SDDE.IndicadoresSitioExterno.ServiciosUsuario.API/Token/GenereCSRF';
export const SITE_CUADRO_PATH = '/Bccr.GE.SDDE.IndicadoresSitioExterno.GrupoVariables.API/CuadroGrupoVariables/ObtenerDatosCuadro';
/** The site's own origin: the API expects the request to look like it comes from its page. */
export const SITE_ORIGIN = 'https://sdd.bccr.fi.cr';
const BUY_ID = '317';
const SELL_ID = '318';

// Costa Rica writes September as "set" (setiembre); "sep" and "sept" appear too.
const MONTHS: Record<string, number> = {
  ene: 1,
  jan: 1,
  feb: 2,
  mar: 3,
  abr: 4,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  ago: 8,
  aug: 8,
  set: 9,
  sep: 9,
  sept: 9,
  oct: 10,
  nov: 11,
  dic: 12,
  dec: 12,
};

/** `15 dic 2025`, `5 Set. 2025`, `15 dec 2025` → `YYYY-MM-DD`; undefined when it is no such title. */
export function parseColumnTitle(title: unknown): string | undefined {
  if (typeof title !== 'string') return undefined;
  const m = /^(\d{1,2})[\s-]+([a-záéíóú]+)\.?[\s-]+(\d{4})$/i.exec(title.trim());
  if (!m) return undefined;
  const month = MONTHS[(m[2] ?? '').toLowerCase()];
  if (month === undefined) return undefined;
  const date = `${m[3]}-${String(month).padStart(2, '0')}-${(m[1] ?? '').padStart(2, '0')}`;
  return isIsoDate(date) ? date : undefined;
}

const ES_NUMBER = /^\d{1,3}(?:\.\d{3})*(?:,\d+)?$|^\d+(?:,\d+)?$/;
const EN_NUMBER = /^\d{1,3}(?:,\d{3})*(?:\.\d+)?$|^\d+(?:\.\d+)?$/;

/** A cell of the table: `"494,34"` / `"1.234,56"` (es) or `"494.34"` (en); `""` and zero mean no value. */
export function parseCell(raw: unknown, english: boolean): number | null {
  if (raw === undefined || raw === null) return null;
  if (typeof raw === 'number') return Number.isFinite(raw) && raw !== 0 ? raw : null;
  if (typeof raw !== 'string') throw parseError(SOURCE, `cell is not a string: ${describe(raw)}`);
  const text = raw.trim();
  if (text === '') return null;
  if (!(english ? EN_NUMBER : ES_NUMBER).test(text)) throw parseError(SOURCE, `cell ${describe(raw)} is not a number`);
  const value = Number(english ? text.replaceAll(',', '') : text.replaceAll('.', '').replace(',', '.'));
  return value === 0 ? null : value;
}

/** The indicator rows may be nested under a parent; look through every array of objects. */
function findIndicator(nodes: unknown, id: string): Record<string, unknown> | undefined {
  if (!Array.isArray(nodes)) return undefined;
  for (const node of nodes) {
    if (!isRecord(node)) continue;
    if (String(node.idIndicador) === id) return node;
    for (const child of Object.values(node)) {
      const found = findIndicator(child, id);
      if (found) return found;
    }
  }
  return undefined;
}

function dateColumns(columnas: unknown): Array<{ field: string; date: string }> {
  if (!Array.isArray(columnas)) throw parseError(SOURCE, `columnas is not an array: ${describe(columnas)}`);
  return columnas
    .filter((c): c is Record<string, unknown> => isRecord(c) && typeof c.field === 'string' && /^serie\d+$/.test(c.field))
    .map((c) => {
      const date = parseColumnTitle(c.tituloEspanol) ?? parseColumnTitle(c.tituloIngles);
      if (date === undefined) throw parseError(SOURCE, `column ${String(c.field)} has no readable date: ${describe(c)}`);
      return { field: String(c.field), date };
    });
}

function cellOf(row: Record<string, unknown> | undefined, field: string): number | null {
  if (row === undefined || !isRecord(row.series)) return null;
  // The English cell has a plain decimal dot; the Spanish one is the fallback.
  const english = row.series[`${field}Ingles`];
  return english !== undefined && english !== '' ? parseCell(english, true) : parseCell(row.series[field], false);
}

/** Reads the pivoted `ObtenerDatosCuadro` answer (dates are columns) into rows, ascending. */
export function parseCuadro(body: string): SourceRate[] {
  const json = parseJsonBody(body, SOURCE);
  if (!isRecord(json) || !('columnas' in json) || !Array.isArray(json.indicadoresRaiz)) {
    throw parseError(SOURCE, `unexpected shape: ${describe(json)}`);
  }
  const columns = dateColumns(json.columnas);
  if (columns.length === 0) return [];
  const buyRow = findIndicator(json.indicadoresRaiz, BUY_ID);
  const sellRow = findIndicator(json.indicadoresRaiz, SELL_ID);
  if (!buyRow && !sellRow) throw parseError(SOURCE, `neither indicator ${BUY_ID} nor ${SELL_ID} in the table`);
  const byDate = new Map<string, SourceRate>();
  for (const { field, date } of columns) {
    const row = { date, buy: cellOf(buyRow, field), sell: cellOf(sellRow, field) };
    if (row.buy !== null || row.sell !== null) byDate.set(date, row);
  }
  return [...byDate.values()].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}

/** The CSRF endpoint answers the JWT as text, sometimes wrapped in JSON quotes. */
export function parseCsrfToken(body: string): string {
  const token = body
    .trim()
    .replace(/^"(.*)"$/s, '$1')
    .trim();
  if (!/^[\w-]+\.[\w-]+\.[\w-]*$/.test(token)) throw parseError(SOURCE, `CSRF answer is not a JWT: ${describe(body.slice(0, 60))}`);
  return token;
}

export interface CsrfTokenOptions extends RequestPolicy {
  /** `https://apim.bccr.fi.cr/SDDE/api` (`BCCR_SITE_API_URL`). */
  baseUrl: string;
  /** The JWT is valid 24 h; renew a little before. */
  tokenMaxAgeMs?: number;
  now?: () => number;
}

/** The site's CSRF JWT, fetched once and reused until it is old or `invalidate`d. */
export interface CsrfTokenProvider {
  /** `signal` aborts the token request when this call starts one; callers that join it share its fate. */
  get(signal?: AbortSignal): Promise<string>;
  /** Forgets the token (the API said 401): the next `get` fetches a fresh one. */
  invalidate(): void;
}

export function createCsrfTokenProvider(opts: CsrfTokenOptions): CsrfTokenProvider {
  const tokenMaxAgeMs = opts.tokenMaxAgeMs ?? 23 * 3_600_000;
  const now = opts.now ?? Date.now;
  let cached: { token: string; at: number } | undefined;
  let pending: Promise<string> | undefined;

  async function fetchToken(signal: AbortSignal | undefined): Promise<string> {
    const res = await fetchUpstream(joinUrl(opts.baseUrl, SITE_TOKEN_PATH), { ...opts, source: SOURCE, headers: { Origin: SITE_ORIGIN }, signal });
    const token = parseCsrfToken(res.text);
    cached = { token, at: now() };
    return token;
  }

  return {
    get(signal) {
      if (cached && now() - cached.at < tokenMaxAgeMs) return Promise.resolve(cached.token);
      // Concurrent requests share one token request.
      pending ??= fetchToken(signal).finally(() => {
        pending = undefined;
      });
      return pending;
    },
    invalidate() {
      cached = undefined;
    },
  };
}

/**
 * Runs one request of the site API with the CSRF token. A 401 means the JWT was revoked or
 * expired early: one fresh token, one more try.
 */
export async function withCsrfToken<T>(csrf: CsrfTokenProvider, call: (token: string) => Promise<T>, signal?: AbortSignal): Promise<T> {
  try {
    return await call(await csrf.get(signal));
  } catch (err) {
    if (!(err instanceof UpstreamError && err.status === 401)) throw err;
    csrf.invalidate();
    return call(await csrf.get(signal));
  }
}

/** The headers every data request of the site API carries. */
export function siteHeaders(token: string): Record<string, string> {
  return { token_csrf: token, Origin: SITE_ORIGIN, Accept: 'application/json' };
}

export interface SiteSourceOptions extends CsrfTokenOptions {
  /** A token provider to share with the window source; one of its own otherwise. */
  csrf?: CsrfTokenProvider;
}

export function createSiteSource(opts: SiteSourceOptions): OfficialSource {
  const maxChunkDays = 90; // the site answers at most 100 days
  const csrf = opts.csrf ?? createCsrfTokenProvider(opts);

  async function cuadro(token: string, from: string, to: string, signal: AbortSignal | undefined): Promise<SourceRate[]> {
    const query = `IdGrupoVariable=1&FechaInicio=${from}T00:00:00&FechaFin=${to}&CantidadSeriesAMostrar=100`;
    const res = await fetchUpstream(joinUrl(opts.baseUrl, `${SITE_CUADRO_PATH}?${query}`), { ...opts, source: SOURCE, headers: siteHeaders(token), signal });
    return parseCuadro(res.text);
  }

  return {
    name: SOURCE,
    provider: 'BCCR',
    // The same two indicators as the token API, read from the table the public site shows.
    upstream: { buy: `BCCR public site (SDDE group 1), indicator ${BUY_ID}`, sell: `BCCR public site (SDDE group 1), indicator ${SELL_ID}` },
    maxChunkDays,
    async fetchRange(from, to, signal) {
      assertRange(from, to, maxChunkDays);
      const rows = await withCsrfToken(csrf, (token) => cuadro(token, from, to, signal), signal);
      return rows.filter((r) => r.date >= from && r.date <= to);
    },
  };
}
