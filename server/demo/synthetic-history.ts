/**
 * A deterministic stand-in for the official USD/CRC history, one value per calendar day from
 * 1983-01-01, following the real one's shape (≈41 in 1983, ≈135 in 1992, ≈300 in 2000, ≈500 from 2006,
 * a peak near 690 in 2022, back near 505 by 2025), with sell − buy between 1 and 15.
 */
import type { DerivedCurrency } from '../../shared/currency-catalog';
import { addDays, dayNumber, daysBetween } from '../../shared/dates';

export const SYNTHETIC_FIRST_DATE = '1983-01-01';

const ANCHORS: readonly [[string, number], ...Array<[string, number]>] = [
  ['1983-01-01', 41],
  ['1992-03-02', 135],
  ['1995-01-01', 180],
  ['2000-01-01', 300],
  ['2006-01-01', 495],
  ['2010-01-01', 560],
  ['2015-01-01', 535],
  ['2019-01-01', 605],
  ['2022-07-01', 690],
  ['2023-07-01', 540],
  ['2025-06-01', 505],
  ['2040-01-01', 560],
];

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

function trend(date: string): number {
  let [d0, v0] = ANCHORS[0];
  for (const [d1, v1] of ANCHORS.slice(1)) {
    if (date <= d1) return v0 + ((v1 - v0) * daysBetween(d0, date)) / daysBetween(d0, d1);
    [d0, v0] = [d1, v1];
  }
  return v0;
}

/**
 * Saturday, Sunday and Monday carry the same value, as in the real series (each day's value
 * comes from the previous business day's market), so weekends are priced from Saturday.
 */
function marketDay(date: string): string {
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay(); // 0 = Sunday
  if (weekday === 0) return addDays(date, -1);
  if (weekday === 1) return addDays(date, -2);
  return date;
}

export function syntheticRate(date: string): { buy: number; sell: number } {
  const day = marketDay(date);
  const n = daysBetween(SYNTHETIC_FIRST_DATE, day);
  const level = trend(day);
  // Wiggles scale with the level, so the early, small values stay positive and plausible.
  const buy = round2(level + (level / 125) * (4 * Math.sin(n / 37) + 1.5 * Math.sin(n / 5.3)));
  const spread = round2(7 + 4 * Math.sin(n / 53) + 2 * Math.sin(n / 7.7));
  return { buy, sell: round2(buy + spread) };
}

/**
 * One institution's line of the window (ventanilla) table as the fake serves it, in both
 * formats: a row of the site's table and a buy/sell/spread triple of series in cuadro 1015.
 */
export interface FakeInstitutionRow {
  /** As the central bank prints it, in the site's table and in `nombreIndicador`. */
  name: string;
  /** The group heading above the row in the site's table ("Bancos públicos"); a change prints a heading row. */
  group?: string;
  /** Cuadro 1015 codes; the fake makes up codes from 90001 on (in no catalog) where absent. */
  buyCode?: string;
  sellCode?: string;
  /** null is `N/D` in the site's table and a null point in cuadro 1015. */
  buy: number | null;
  sell: number | null;
  /** ISO instant of the institution's own update; the site prints it in Costa Rica time. */
  updatedAt?: string | null;
  /** Print `a. m.`/`p. m.` (with a space) instead of `a.m.`/`p.m.`. */
  spacedMeridiem?: boolean;
}

interface SyntheticInstitution {
  name: string;
  group?: string;
  buyCode?: string;
  sellCode?: string;
  /** Costa Rica time of the update; `dayBefore` for an institution that did not update today. */
  time: string;
  dayBefore?: boolean;
  noSell?: boolean;
  spacedMeridiem?: boolean;
}

/** A dozen institutions of every group: known codes, an unknown name, an `N/D`, a stale time. */
const SYNTHETIC_INSTITUTIONS: SyntheticInstitution[] = [
  { name: 'Banco de Costa Rica', group: 'Bancos públicos', buyCode: '3148', sellCode: '3207', time: '08:30' },
  { name: 'Banco Nacional de Costa Rica', buyCode: '3149', sellCode: '3208', time: '08:05' },
  { name: 'Banco Popular y de Desarrollo Comunal', buyCode: '3179', sellCode: '3209', time: '09:15' },
  { name: 'Banco BAC San José S.A.', group: 'Bancos privados', buyCode: '3181', sellCode: '3215', time: '08:30' },
  { name: 'Banco Davivienda (Costa Rica) S.A.', time: '10:00' },
  { name: 'Banco Promerica de Costa Rica S.A.', time: '12:05', noSell: true, spacedMeridiem: true },
  { name: 'Financiera Desyfin S.A.', group: 'Financieras', time: '07:45' },
  { name: 'Grupo Mutual Alajuela - La Vivienda de Ahorro y Préstamo', group: 'Mutuales', time: '11:20' },
  { name: 'Coopenae R.L.', group: 'Cooperativas', time: '16:45', dayBefore: true },
  { name: 'Teledolar S.A.', group: 'Casas de cambio', buyCode: '3201', sellCode: '3271', time: '00:05' },
  { name: 'Casa de Cambio Ficticia S.A.', time: '13:10' },
  { name: 'BN Valores Puesto de Bolsa S.A.', group: 'Puestos de bolsa', time: '09:40' },
];

/** The institution of the synthetic set that no catalog knows. */
export const SYNTHETIC_UNKNOWN_INSTITUTION = 'Casa de Cambio Ficticia S.A.';

/** `2026-10-20` at `08:30` Costa Rica time (UTC−6) as an ISO instant. */
export function costaRicaInstant(date: string, time: string): string {
  return new Date(Date.parse(`${date}T${time}:00-06:00`)).toISOString();
}

export interface SyntheticVentanillaOptions {
  /**
   * Leave out the institution no catalog knows. It is there so the tests see the sync store an
   * unknown name and warn about it; the demo's own bank must not make the demo warn about itself.
   */
  catalogOnly?: boolean;
}

/**
 * The window quotes of a day: each institution a few colones around the synthetic official rate,
 * buying at most 4 below its buy and selling at most 4 above its sell, so buy ≤ sell always.
 */
export function syntheticVentanilla(date: string, options: SyntheticVentanillaOptions = {}): FakeInstitutionRow[] {
  const official = syntheticRate(date);
  const n = daysBetween(SYNTHETIC_FIRST_DATE, date);
  const rows = SYNTHETIC_INSTITUTIONS.map((inst, i) => {
    const below = ((((n * 7 + i * 5) % 9) + 9) % 9) / 2;
    const above = ((((n * 3 + i * 11) % 9) + 9) % 9) / 2;
    const row: FakeInstitutionRow = {
      name: inst.name,
      buy: round2(official.buy - below),
      sell: inst.noSell ? null : round2(official.sell + above),
      updatedAt: costaRicaInstant(inst.dayBefore ? addDays(date, -1) : date, inst.time),
    };
    if (inst.group !== undefined) row.group = inst.group;
    if (inst.buyCode !== undefined) row.buyCode = inst.buyCode;
    if (inst.sellCode !== undefined) row.sellCode = inst.sellCode;
    if (inst.spacedMeridiem) row.spacedMeridiem = true;
    return row;
  });
  // Filtered after the values are made, so that every other institution's quotes stay the same.
  return options.catalogOnly ? rows.filter((row) => row.name !== SYNTHETIC_UNKNOWN_INSTITUTION) : rows;
}

/**
 * A currency's cross rate against the dollar as the central bank publishes it: business days
 * only (the real series has no weekends), around the geometric middle of the currency's plausible
 * band with a slow wiggle, printed to 4 decimals as the real ones are. Null on a weekend.
 */
export function syntheticCross(currency: DerivedCurrency, date: string): number | null {
  // 1970-01-01 was a Thursday: counted from it plus 4, Sunday is 0 and Saturday 6.
  const weekday = (((dayNumber(date) + 4) % 7) + 7) % 7;
  if (weekday === 0 || weekday === 6) return null;
  const [low, high] = currency.bounds.map(Math.log) as [number, number];
  const n = daysBetween(SYNTHETIC_FIRST_DATE, date);
  // Within the middle third of the band (in logarithms): narrow bands (the dirham's) included.
  const wiggle = 0.28 * Math.sin(n / 41) + 0.05 * Math.sin(n / 6.1);
  return Number(Math.exp((low + high) / 2 + ((high - low) / 2) * wiggle).toFixed(4));
}

/** One MONEX day as the fake publishes it: the four figures, all 0 on a day without a session. */
export interface FakeMonexDay {
  average: number;
  min: number;
  max: number;
  volume: number;
}

/** Easter Sunday of a year (the anonymous Gregorian algorithm). */
function easter(year: number): string {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** The fake's own market holidays: Costa Rica's fixed ones, and the whole Holy Week (Monday to Friday before Easter). */
const FIXED_HOLIDAYS = ['01-01', '04-11', '05-01', '07-25', '08-15', '09-15', '12-01', '12-25'];

export function syntheticMonexHoliday(date: string): boolean {
  if (FIXED_HOLIDAYS.includes(date.slice(5))) return true;
  const sunday = easter(Number(date.slice(0, 4)));
  return date >= addDays(sunday, -6) && date <= addDays(sunday, -2);
}

/**
 * A MONEX day as the central bank publishes it: business days only (null on a weekend, nothing
 * published), 0 in every figure on a holiday the fake knows, and otherwise a session around the
 * synthetic sell rate (min ≤ average ≤ max, an amount of some millions of dollars).
 */
export function syntheticMonex(date: string): FakeMonexDay | null {
  const weekday = (((dayNumber(date) + 4) % 7) + 7) % 7;
  if (weekday === 0 || weekday === 6) return null;
  if (syntheticMonexHoliday(date)) return { average: 0, min: 0, max: 0, volume: 0 };
  const n = daysBetween(SYNTHETIC_FIRST_DATE, date);
  const average = round2(syntheticRate(date).sell - 1.5 + Math.sin(n / 3.1));
  return {
    average,
    min: round2(average - 1 - Math.abs(Math.sin(n / 4.3)) * 2),
    max: round2(average + 1 + Math.abs(Math.sin(n / 5.7)) * 2),
    volume: round2(12 + 6 * Math.sin(n / 9.1)),
  };
}
