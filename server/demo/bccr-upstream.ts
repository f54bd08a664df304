/**
 * The simulated central bank: one local HTTP server that plays all three upstreams (the token
 * API, the public site's API and Hacienda's) on their real paths and in their real formats,
 * backed by a synthetic history, with faults that can be switched on per upstream. `npm run demo`
 * syncs from it, and the tests do too, so that the demo's data goes through the very adapters and
 * checks the real data does. It keeps the real services' quirks the adapters must live with: the
 * site's table ignores FechaInicio and holds the 100 days up to FechaFin, its CSRF token comes
 * bare, its token header is taken in both spellings, and dates are plain `YYYY-MM-DD`.
 * Hacienda's euro (`/indicadores/tc/euro`) is served too, with `colones` null once told it is after hours.
 * Base addresses for the adapters: `sddeUrl`, `siteUrl`, `haciendaUrl`. The window (ventanilla)
 * quotes are served on both BCCR routes: cuadro 1015 on the token API (`ventanillaSdde`) and
 * group 1015 of the site API (`ventanillaSite`). MONEX (cuadro 219) is served on the token API:
 * indicators 3436, 3437, 3439 and 3446 in the series' shape, business days only, 0 in all four on
 * the fake's holidays, and the metadata of 3446 that states the amount's unit.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { addDays, calendarDay, daysBetween, isIsoDate } from '../../shared/dates';
import { DERIVED_CURRENCIES } from '../../shared/currency-catalog';
import { MONEX_INDICATORS, type MonexFigure } from '../../shared/monex';
import {
  SYNTHETIC_FIRST_DATE,
  syntheticCross,
  syntheticMonex,
  syntheticRate,
  syntheticVentanilla,
  type FakeInstitutionRow,
  type FakeMonexDay,
} from './synthetic-history';

export type { FakeInstitutionRow, FakeMonexDay } from './synthetic-history';

export type FakeRoute = 'sdde' | 'siteToken' | 'site' | 'hacienda' | 'haciendaEuro' | 'ventanillaSdde' | 'ventanillaSite' | 'metadata';
/** `hang` never answers; `reset` drops the connection before any answer (a network failure). */
export type FaultKind = 'empty' | '401' | '400' | '429' | '500' | 'html' | 'truncated' | 'hang' | 'reset' | 'outOfBounds' | 'estadoFalse' | 'code503';
/** A fault applies to every request of its route until cleared, or to the next `times` ones. */
export type Fault = FaultKind | { kind: FaultKind; times?: number; retryAfter?: string };
export type DayRate = { buy: number | null; sell: number | null } | null;
/** Per-date override: a value replaces the synthetic one, `null` is a day without data, `undefined` keeps it. */
export type RateOverride = (date: string) => DayRate | undefined;
/** Per-currency, per-date override of the cross rates: a value replaces the synthetic one, `null` is a gap, `undefined` keeps it. */
export type CrossOverride = (currency: string, date: string) => number | null | undefined;
/** Per-date override of MONEX: figures replace the synthetic ones (all 0: no session), `null` publishes nothing, `undefined` keeps them. */
export type MonexOverride = (date: string) => FakeMonexDay | null | undefined;
/** Per-date override of the window quotes: rows replace the synthetic ones, `null` is a day without any, `undefined` keeps them. */
export type VentanillaOverride = (date: string) => FakeInstitutionRow[] | null | undefined;

/**
 * What Hacienda's euro answers today: `dolares` (default: the synthetic cross rate of today, which
 * Hacienda has even when the central bank's series does not yet) and whether the business day is
 * over, when `colones` is null.
 */
export interface FakeHaciendaEuro {
  dolares?: number;
  afterHours?: boolean;
}

export interface RecordedRequest {
  route: FakeRoute | 'unknown';
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
}

export interface FakeUpstreamOptions {
  /** The BCCR token the SDDE route accepts (`Authorization: Bearer …`). */
  token?: string;
  /** The last day with data, and Hacienda's "today" (default: today in Costa Rica). */
  today?: string;
  /** Serve only institutions the catalog lists (the demo), not the made-up one the tests need. */
  catalogInstitutionsOnly?: boolean;
  /** How Hacienda writes `fecha`: a plain `YYYY-MM-DD`, as its 2026 answers do (default), or the older `…T00:00:00-06:00`. */
  haciendaDates?: 'plain' | 'offset';
}

export interface FakeUpstream {
  url: string;
  sddeUrl: string;
  siteUrl: string;
  haciendaUrl: string;
  token: string;
  today: string;
  requests: RecordedRequest[];
  setFault(route: FakeRoute, fault: Fault | null): void;
  setRates(fn: RateOverride | null): void;
  /** The value the fake serves for a day (after overrides), null when it has none. */
  rateFor(date: string): DayRate;
  setCross(fn: CrossOverride | null): void;
  /** Hacienda's euro of today; null goes back to the default. */
  setHaciendaEuro(euro: FakeHaciendaEuro | null): void;
  /** The body Hacienda's euro answers now (before faults). */
  haciendaEuroFor(): { fecha: string; dolares: number; colones: number | null };
  /** The cross rate the fake serves for a currency and day (after overrides), null on a gap. */
  crossFor(currency: string, date: string): number | null;
  setVentanilla(fn: VentanillaOverride | null): void;
  setMonex(fn: MonexOverride | null): void;
  /** The MONEX figures the fake publishes for a day (after overrides), null when it publishes nothing. */
  monexFor(date: string): FakeMonexDay | null;
  /** The unit the metadata of indicator 3446 states. */
  monexUnit: string;
  /** The window rows the fake serves for a day (after overrides), [] when it has none. */
  ventanillaFor(date: string): FakeInstitutionRow[];
  /** Makes every CSRF token issued so far invalid, as an expiry would. */
  revokeCsrfTokens(): void;
  close(): Promise<void>;
}

interface Reply {
  status: number;
  body: string;
  type?: string;
  headers?: Record<string, string>;
}

export const SDDE_PREFIX = '/SDDE/api/Bccr.GE.SDDE.Publico.Indicadores.API';
const SITE_PREFIX = '/SDDE/api';
const SITE_TOKEN = `${SITE_PREFIX}/Bccr.GE.SDDE.IndicadoresSitioExterno.ServiciosUsuario.API/Token/GenereCSRF`;
const SITE_CUADRO = `${SITE_PREFIX}/Bccr.GE.SDDE.IndicadoresSitioExterno.GrupoVariables.API/CuadroGrupoVariables/ObtenerDatosCuadro`;
const SITE_VENTANILLA = `${SITE_PREFIX}/Bccr.GE.SDDE.IndicadoresSitioExterno.GrupoVariables.API/CuadroPersonalizadoGrupoVariables/ObtenerDatosCuadroPersonalizado`;
const HACIENDA = '/indicadores/tc/dolar';
const HACIENDA_EURO = '/indicadores/tc/euro';
const SITE_ORIGIN = 'https://sdd.bccr.fi.cr';
const SITE_MAX_DAYS = 100;
const MONTHS_ES = ['ene', 'feb', 'mar', 'abr', 'may', 'jun', 'jul', 'ago', 'set', 'oct', 'nov', 'dic'];
const MONTHS_EN = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const JSON_TYPE = 'application/json; charset=utf-8';

const json = (status: number, value: unknown, headers?: Record<string, string>): Reply => ({
  status,
  body: JSON.stringify(value),
  type: JSON_TYPE,
  ...(headers ? { headers } : {}),
});
const codigoError = (mensaje: string): Reply => json(400, { CodigoError: '400', Mensaje: mensaje });
/** What the fake's metadata of indicator 3446 says the amount is counted in. */
export const FAKE_MONEX_UNIT = 'Millones de dólares';
const MONEX_BY_INDICATOR = new Map<string, MonexFigure>(Object.entries(MONEX_INDICATORS).map(([figure, code]) => [code, figure as MonexFigure]));
const SDDE_EMPTY = { estado: true, mensaje: 'No existen datos para las fechas suministradas.', datos: [] };

function routeOf(path: string): { route: FakeRoute; code?: string } | undefined {
  const sdde = new RegExp(`^${SDDE_PREFIX}/indicadoresEconomicos/(?<code>\\d+)/series$`).exec(path)?.groups?.code;
  if (sdde !== undefined) return { route: 'sdde', code: sdde };
  const metadata = new RegExp(`^${SDDE_PREFIX}/indicadoresEconomicos/(?<code>\\d+)/metadata$`).exec(path)?.groups?.code;
  if (metadata !== undefined) return { route: 'metadata', code: metadata };
  const cuadro = new RegExp(`^${SDDE_PREFIX}/cuadro/(?<code>\\d+)/series$`).exec(path)?.groups?.code;
  if (cuadro !== undefined) return { route: 'ventanillaSdde', code: cuadro };
  if (path === SITE_VENTANILLA) return { route: 'ventanillaSite' };
  if (path === SITE_TOKEN) return { route: 'siteToken' };
  if (path === SITE_CUADRO) return { route: 'site' };
  if (path === HACIENDA) return { route: 'hacienda' };
  if (path === HACIENDA_EURO) return { route: 'haciendaEuro' };
  return undefined;
}

function daysOf(from: string, to: string): string[] {
  const days: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) days.push(d);
  return days;
}

/** `1234.5` → `1.234,50` (es) or `1,234.50` (en), as the site prints cells. */
function formatCell(value: number | null | undefined, locale: 'es' | 'en'): string {
  if (value === null || value === undefined) return '';
  const [int, frac] = value.toFixed(2).split('.') as [string, string];
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, locale === 'es' ? '.' : ',');
  return locale === 'es' ? `${grouped},${frac}` : `${grouped}.${frac}`;
}

function columnTitle(date: string, months: string[]): string {
  const [y, m, d] = date.split('-') as [string, string, string];
  return `${Number(d)} ${months[Number(m) - 1]} ${y}`;
}

function base64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** An ISO instant as the site prints it, in Costa Rica time: `20/10/2026 08:30 a.m.` or `… a. m.`. */
export function formatCrTimestamp(iso: string, spaced = false): string {
  const local = new Date(Date.parse(iso) - 6 * 3_600_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  const h = local.getUTCHours();
  const hour12 = h % 12 === 0 ? 12 : h % 12;
  const meridiem = h < 12 ? (spaced ? 'a. m.' : 'a.m.') : spaced ? 'p. m.' : 'p.m.';
  return `${pad(local.getUTCDate())}/${pad(local.getUTCMonth() + 1)}/${local.getUTCFullYear()} ${pad(hour12)}:${pad(local.getUTCMinutes())} ${meridiem}`;
}

const VENTANILLA_TITLE = 'Tipo de cambio de compra y de venta del dólar de los Estados Unidos de América en ventanilla';
const VENTANILLA_HEADER = ['Entidad', 'Compra', 'Venta', 'Diferencial', 'Fecha de última actualización'];
const SITE_VENTANILLA_EMPTY = { estado: true, mensaje: 'Consulta exitosa', datos: { indicadores: [] } };

const HTML_PAGE =
  '<!DOCTYPE html><html lang="es"><head><title>Sitio en mantenimiento</title></head>' +
  '<body><h1>Estamos en mantenimiento</h1><p>Intente más tarde.</p></body></html>';

export async function startFakeUpstream(opts: FakeUpstreamOptions = {}): Promise<FakeUpstream> {
  const token = opts.token ?? 'test-token';
  const today = opts.today ?? calendarDay(new Date());
  const haciendaDates = opts.haciendaDates ?? 'plain';
  const requests: RecordedRequest[] = [];
  const faults = new Map<FakeRoute, { kind: FaultKind; times?: number; retryAfter?: string }>();
  let override: RateOverride | null = null;
  let ventanillaOverride: VentanillaOverride | null = null;
  let crossOverride: CrossOverride | null = null;
  let haciendaEuro: FakeHaciendaEuro = {};
  let monexOverride: MonexOverride | null = null;
  const byIndicator = new Map(DERIVED_CURRENCIES.map((c) => [c.indicator, c]));
  // Codes for the series of institutions without a known code: stable for the fake's life.
  const madeUpCodes = new Map<string, number>();
  let csrf = new Set<string>();
  let issued = 0;

  function rateFor(date: string): DayRate {
    if (date < SYNTHETIC_FIRST_DATE || date > today) return null;
    const custom = override?.(date);
    return custom === undefined ? syntheticRate(date) : custom;
  }

  function crossFor(code: string, date: string): number | null {
    const currency = DERIVED_CURRENCIES.find((c) => c.code === code);
    if (!currency || date < SYNTHETIC_FIRST_DATE || date > today) return null;
    const custom = crossOverride?.(code, date);
    return custom === undefined ? syntheticCross(currency, date) : custom;
  }

  function monexFor(date: string): FakeMonexDay | null {
    if (date < SYNTHETIC_FIRST_DATE || date > today) return null;
    const custom = monexOverride?.(date);
    return custom === undefined ? syntheticMonex(date) : custom;
  }

  function metadata(code: string | undefined, h: IncomingHttpHeaders): Reply {
    if (h.authorization !== `Bearer ${token}`) return json(401, { statusCode: 401, message: 'Access denied due to invalid or missing token.' });
    if (code !== MONEX_INDICATORS.volume) return codigoError(`El indicador ${code} no existe.`);
    return json(200, {
      estado: true,
      mensaje: 'Consulta exitosa',
      datos: [{ codigoIndicador: code, nombreIndicador: 'MONEX: monto total negociado', unidadMedida: FAKE_MONEX_UNIT, periodicidad: 'Diaria', cuadro: '219' }],
    });
  }

  function ventanillaFor(date: string): FakeInstitutionRow[] {
    if (date < SYNTHETIC_FIRST_DATE || date > today) return [];
    const custom = ventanillaOverride?.(date);
    return custom === undefined ? syntheticVentanilla(date, { catalogOnly: opts.catalogInstitutionsOnly === true }) : (custom ?? []);
  }

  /** Every institution buys at 99999 and sells at 5: parses, and fails any sanity check. */
  const ventanillaOutOfBounds = (date: string): FakeInstitutionRow[] => ventanillaFor(date).map((r) => ({ ...r, buy: 99999, sell: 5 }));

  const outOfBounds = (date: string): DayRate => (daysBetween(SYNTHETIC_FIRST_DATE, date) % 2 === 0 ? { buy: 5, sell: 99999 } : { buy: 99999, sell: 5 });

  function sdde(code: string | undefined, q: URLSearchParams, h: IncomingHttpHeaders, rates: (d: string) => DayRate): Reply {
    if (h.authorization !== `Bearer ${token}`) return json(401, { statusCode: 401, message: 'Access denied due to invalid or missing token.' });
    const cross = code === undefined ? undefined : byIndicator.get(code);
    const monex = code === undefined ? undefined : MONEX_BY_INDICATOR.get(code);
    if (code !== '317' && code !== '318' && !cross && !monex) return codigoError(`El indicador ${code} no existe.`);
    const [fi, ff] = [q.get('fechaInicio'), q.get('fechaFin')];
    if (fi === null || ff === null) return codigoError('Los parámetros fechaInicio y fechaFin son requeridos.');
    // The real API answers other date formats with an empty result, not an error.
    const asIso = (s: string) => (/^\d{4}\/\d{2}\/\d{2}$/.test(s) ? s.replaceAll('/', '-') : '');
    const [from, to] = [asIso(fi), asIso(ff)];
    if (!isIsoDate(from) || !isIsoDate(to)) return json(200, SDDE_EMPTY);
    const side = code === '317' ? 'buy' : 'sell';
    const start = from < SYNTHETIC_FIRST_DATE ? SYNTHETIC_FIRST_DATE : from;
    const valueOn = (date: string) => (monex ? monexFor(date)?.[monex] : cross ? crossFor(cross.code, date) : rates(date)?.[side]);
    const points = daysOf(start, to < today ? to : today).flatMap((date) => {
      const value = valueOn(date);
      if (value === null || value === undefined) return [];
      // As upstream prints them: a plain date, and the value with 8 decimals.
      return [`{"fecha":"${date}","valorDatoPorPeriodo":${value.toFixed(8)}}`];
    });
    if (points.length === 0) return json(200, SDDE_EMPTY);
    const name = monex
      ? `MONEX: ${monex}`
      : cross
        ? `${cross.name.es} (${cross.quote === 'usdPerUnit' ? 'dólares por unidad' : 'unidades por dólar'})`
        : side === 'buy'
          ? 'Tipo cambio compra'
          : 'Tipo cambio venta';
    const body = `{"estado":true,"mensaje":"Consulta exitosa","datos":[{"codigoIndicador":"${code}","nombreIndicador":"${name}","series":[${points.join(',')}]}]}`;
    return { status: 200, body, type: JSON_TYPE };
  }

  function siteToken(): Reply {
    issued += 1;
    const jwt = `${base64url({ alg: 'HS256', typ: 'JWT' })}.${base64url({ n: issued, iat: Date.now() })}.c2lnbmF0dXJl`;
    csrf.add(jwt);
    // The bare token, without quotes, as the real endpoint answers it.
    return { status: 200, body: jwt, type: 'text/plain; charset=utf-8' };
  }

  /** The real API takes the token header spelt `token_csrf` and `Token-Csrf` (HTTP lowercases both). */
  function hasValidCsrf(h: IncomingHttpHeaders): boolean {
    const sent = h.token_csrf ?? h['token-csrf'];
    return typeof sent === 'string' && csrf.has(sent);
  }

  function site(q: URLSearchParams, h: IncomingHttpHeaders, rates: (d: string) => DayRate): Reply {
    if (!hasValidCsrf(h)) return { status: 401, body: '' };
    if (h.origin !== SITE_ORIGIN) return { status: 403, body: 'Origin not allowed', type: 'text/plain' };
    const [fi, ff] = [q.get('FechaInicio') ?? '', q.get('FechaFin') ?? ''];
    const dayOf = (s: string) => /^(?<day>\d{4}-\d{2}-\d{2})(T00:00:00)?$/.exec(s)?.groups?.day;
    const [d1, d2] = [dayOf(fi), dayOf(ff)];
    if (q.get('IdGrupoVariable') !== '1' || d1 === undefined || d2 === undefined || !isIsoDate(d1) || !isIsoDate(d2)) {
      return codigoError('Parámetros inválidos.');
    }
    // The real table ignores FechaInicio (it is only validated): it holds the 100 days up to FechaFin.
    const last = d2 < today ? d2 : today;
    const first = addDays(last, 1 - SITE_MAX_DAYS);
    const days = daysOf(first < SYNTHETIC_FIRST_DATE ? SYNTHETIC_FIRST_DATE : first, last);
    const cells = (pick: (r: NonNullable<DayRate>) => number | null) =>
      Object.fromEntries(
        days.flatMap((date, i) => {
          const r = rates(date);
          const v = r ? pick(r) : null;
          return [
            [`serie${i + 1}`, formatCell(v, 'es')],
            [`serie${i + 1}Ingles`, formatCell(v, 'en')],
          ];
        }),
      );
    return json(200, {
      informacionDelCuadro: { codGrupoVariablePublicado: 1, decimales: 2 },
      columnas: [
        { field: 'nombre', tituloEspanol: 'Indicadores', tituloIngles: 'Indicators' },
        ...days.map((date, i) => ({ field: `serie${i + 1}`, tituloEspanol: columnTitle(date, MONTHS_ES), tituloIngles: columnTitle(date, MONTHS_EN) })),
      ],
      indicadoresRaiz: [
        { idIndicador: 317, nombreEspanol: 'Compra', series: cells((r) => r.buy) },
        { idIndicador: 318, nombreEspanol: 'Venta', series: cells((r) => r.sell) },
        // A neighbour in group 1 that the adapter must ignore.
        { idIndicador: 3323, nombreEspanol: 'Tipo de cambio promedio MONEX', series: cells((r) => (r.sell === null ? null : r.sell - 1)) },
      ],
    });
  }

  function codesOf(row: FakeInstitutionRow): { buy: string; sell: string; spread: string } {
    let base = madeUpCodes.get(row.name);
    if (base === undefined) {
      base = 90001 + 3 * madeUpCodes.size;
      madeUpCodes.set(row.name, base);
    }
    return { buy: row.buyCode ?? String(base), sell: row.sellCode ?? String(base + 1), spread: String(base + 2) };
  }

  function ventanillaSdde(code: string | undefined, q: URLSearchParams, h: IncomingHttpHeaders, rows: (d: string) => FakeInstitutionRow[]): Reply {
    if (h.authorization !== `Bearer ${token}`) return json(401, { statusCode: 401, message: 'Access denied due to invalid or missing token.' });
    if (code !== '1015') return codigoError(`El cuadro ${code} no existe.`);
    const [fi, ff] = [q.get('fechaInicio'), q.get('fechaFin')];
    if (fi === null || ff === null) return codigoError('Los parámetros fechaInicio y fechaFin son requeridos.');
    const asIso = (s: string) => (/^\d{4}\/\d{2}\/\d{2}$/.test(s) ? s.replaceAll('/', '-') : '');
    const [from, to] = [asIso(fi), asIso(ff)];
    if (!isIsoDate(from) || !isIsoDate(to)) return json(200, SDDE_EMPTY);
    const start = from < SYNTHETIC_FIRST_DATE ? SYNTHETIC_FIRST_DATE : from;
    // Indicators in the order institutions first appear; one buy, one sell, one spread series each.
    const indicators = new Map<string, { codigoIndicador: string; nombreIndicador: string; series: string[] }>();
    const point = (codigo: string, nombre: string, fecha: string, value: number | null) => {
      let indicator = indicators.get(codigo);
      if (!indicator) {
        indicator = { codigoIndicador: codigo, nombreIndicador: nombre, series: [] };
        indicators.set(codigo, indicator);
      }
      indicator.series.push(`{"fecha":"${fecha}","valorDatoPorPeriodo":${value === null ? 'null' : value.toFixed(8)}}`);
    };
    for (const date of daysOf(start, to < today ? to : today)) {
      for (const row of rows(date)) {
        const codes = codesOf(row);
        point(codes.buy, `${row.name} - compra`, date, row.buy);
        point(codes.sell, `${row.name} - venta`, date, row.sell);
        point(codes.spread, `${row.name} - diferencial`, date, row.buy === null || row.sell === null ? null : Math.round((row.sell - row.buy) * 100) / 100);
      }
    }
    if (indicators.size === 0) return json(200, SDDE_EMPTY);
    const list = [...indicators.values()].map(
      (i) => `{"codigoIndicador":"${i.codigoIndicador}","nombreIndicador":${JSON.stringify(i.nombreIndicador)},"series":[${i.series.join(',')}]}`,
    );
    const body = `{"estado":true,"mensaje":"Consulta exitosa","datos":[{"titulo":${JSON.stringify(VENTANILLA_TITLE)},"periodicidad":"Diaria","indicadores":[${list.join(',')}]}]}`;
    return { status: 200, body, type: JSON_TYPE };
  }

  function ventanillaSite(q: URLSearchParams, h: IncomingHttpHeaders, rows: (d: string) => FakeInstitutionRow[]): Reply {
    if (!hasValidCsrf(h)) return { status: 401, body: '' };
    if (h.origin !== SITE_ORIGIN) return { status: 403, body: 'Origin not allowed', type: 'text/plain' };
    const date = q.get('fechaAConsultar') ?? '';
    if (q.get('idGrupoVariable') !== '1015' || !/^\d{4}-\d{2}-\d{2}$/.test(date) || !isIsoDate(date)) return codigoError('Parámetros inválidos.');
    const cell = (valorEspanol: string) => ({ valorEspanol });
    const table: Array<Array<{ valorEspanol: string }>> = [VENTANILLA_HEADER.map(cell)];
    let group: string | undefined;
    for (const row of rows(date)) {
      if (row.group !== undefined && row.group !== group) {
        group = row.group;
        table.push([group, '', '', '', ''].map(cell));
      }
      const nd = (v: number | null) => (v === null ? 'N/D' : formatCell(v, 'es'));
      const spread = row.buy === null || row.sell === null ? '-' : formatCell(row.sell - row.buy, 'es');
      const updated = row.updatedAt ? formatCrTimestamp(row.updatedAt, row.spacedMeridiem) : '';
      table.push([row.name, nd(row.buy), nd(row.sell), spread, updated].map(cell));
    }
    return json(200, { estado: true, mensaje: 'Consulta exitosa', datos: { indicadores: table } });
  }

  function hacienda(rates: (d: string) => DayRate): Reply {
    const r = rates(today);
    const fecha = haciendaDates === 'offset' ? `${today}T00:00:00-06:00` : today;
    return json(200, { venta: { fecha, valor: r?.sell ?? null }, compra: { fecha, valor: r?.buy ?? null } });
  }

  /** `colones` is `dolares` × today's dollar sell to 2 decimals, as Hacienda's; null after hours or without a sell. */
  function haciendaEuroFor(): { fecha: string; dolares: number; colones: number | null } {
    const euro = DERIVED_CURRENCIES.find((c) => c.code === 'EUR');
    const dolares = haciendaEuro.dolares ?? (euro ? syntheticCross(euro, today) : null) ?? 1.1;
    const sell = rateFor(today)?.sell ?? null;
    const colones = haciendaEuro.afterHours || sell === null ? null : Math.round(dolares * sell * 100) / 100;
    const fecha = haciendaDates === 'offset' ? `${today}T00:00:00-06:00` : today;
    return { fecha, dolares, colones };
  }

  /** Faults that replace the whole answer; undefined for those that shape the normal one. */
  function faultReply(kind: FaultKind, route: FakeRoute, retryAfter: string | undefined): Reply | undefined {
    switch (kind) {
      case 'empty':
        if (route === 'sdde' || route === 'ventanillaSdde') return json(200, SDDE_EMPTY);
        if (route === 'ventanillaSite') return json(200, SITE_VENTANILLA_EMPTY);
        if (route === 'site')
          return json(200, {
            informacionDelCuadro: { codGrupoVariablePublicado: 1, decimales: 2 },
            columnas: [{ field: 'nombre', tituloEspanol: 'Indicadores' }],
            indicadoresRaiz: [],
          });
        if (route === 'hacienda' || route === 'haciendaEuro') return { status: 200, body: '{}', type: JSON_TYPE };
        return { status: 200, body: '', type: 'text/plain' };
      case '401':
        return json(401, { statusCode: 401, message: 'Access denied due to invalid or missing token.' });
      case '400':
        return codigoError('Parámetros inválidos: revise el formato de las fechas.');
      case '429':
        return json(429, { statusCode: 429, message: 'Rate limit is exceeded.' }, retryAfter === undefined ? undefined : { 'Retry-After': retryAfter });
      case '500':
        return json(500, { statusCode: 500, message: 'Internal server error' });
      case 'html':
        return { status: 200, body: HTML_PAGE, type: 'text/html; charset=utf-8' };
      case 'estadoFalse':
        return json(200, { estado: false, mensaje: 'Ocurrió un error al procesar la consulta.', datos: null });
      case 'code503':
        return json(200, { code: 503, status: 'Service unavailable' });
      default:
        return undefined;
    }
  }

  function takeFault(route: FakeRoute): { kind: FaultKind; retryAfter?: string } | undefined {
    const fault = faults.get(route);
    if (fault?.times !== undefined && --fault.times <= 0) faults.delete(route);
    return fault;
  }

  function answer(u: URL, req: IncomingMessage, res: ServerResponse): void {
    const match = routeOf(u.pathname);
    requests.push({ route: match?.route ?? 'unknown', method: req.method ?? 'GET', path: u.pathname, query: u.searchParams, headers: req.headers });
    if (!match) {
      send(res, { status: 404, body: 'Not Found', type: 'text/plain' });
      return;
    }
    const fault = takeFault(match.route);
    if (fault?.kind === 'hang') return; // never answered; close() drops the connection
    if (fault?.kind === 'reset') {
      req.socket.destroy();
      return;
    }
    const replaced = fault && faultReply(fault.kind, match.route, fault.retryAfter);
    if (replaced) {
      send(res, replaced);
      return;
    }
    const rates = fault?.kind === 'outOfBounds' ? outOfBounds : rateFor;
    const h = req.headers;
    const q = u.searchParams;
    const ventanilla = fault?.kind === 'outOfBounds' ? ventanillaOutOfBounds : ventanillaFor;
    const reply =
      match.route === 'sdde'
        ? sdde(match.code, q, h, rates)
        : match.route === 'metadata'
          ? metadata(match.code, h)
          : match.route === 'ventanillaSdde'
            ? ventanillaSdde(match.code, q, h, ventanilla)
            : match.route === 'ventanillaSite'
              ? ventanillaSite(q, h, ventanilla)
              : match.route === 'siteToken'
                ? siteToken()
                : match.route === 'site'
                  ? site(q, h, rates)
                  : match.route === 'haciendaEuro'
                    ? json(200, haciendaEuroFor())
                    : hacienda(rates);
    // A connection dropped mid-body: the client gets a 200 whose JSON stops halfway.
    send(res, fault?.kind === 'truncated' ? { ...reply, body: reply.body.slice(0, Math.floor(reply.body.length / 2)) } : reply);
  }

  function send(res: ServerResponse, reply: Reply): void {
    res.writeHead(reply.status, { 'Content-Type': reply.type ?? 'text/plain', ...reply.headers });
    res.end(reply.body);
  }

  const server = createServer((req, res) => answer(new URL(req.url ?? '/', 'http://fake'), req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    sddeUrl: `${url}${SDDE_PREFIX}`,
    siteUrl: `${url}${SITE_PREFIX}`,
    haciendaUrl: url,
    token,
    today,
    requests,
    setFault(route, fault) {
      if (fault === null) faults.delete(route);
      else faults.set(route, typeof fault === 'string' ? { kind: fault } : { ...fault });
    },
    setRates(fn) {
      override = fn;
    },
    rateFor,
    setCross(fn) {
      crossOverride = fn;
    },
    crossFor,
    setHaciendaEuro(euro) {
      haciendaEuro = euro ?? {};
    },
    haciendaEuroFor,
    setMonex(fn) {
      monexOverride = fn;
    },
    monexFor,
    monexUnit: FAKE_MONEX_UNIT,
    setVentanilla(fn) {
      ventanillaOverride = fn;
    },
    ventanillaFor,
    revokeCsrfTokens() {
      csrf = new Set();
    },
    close() {
      return new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        // Ends hanging requests and idle keep-alive sockets, or close() would wait for them.
        server.closeAllConnections();
      });
    },
  };
}
