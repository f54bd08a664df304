/**
 * The data the add-on tests' server holds: an official rate for every day from FIRST to LAST
 * except the GAPS, from a formula (so tests can compute any expected value), with a few days
 * pinned to the figures the rounding examples use (halves that binary floats miss), and one
 * window snapshot on LAST. Two currencies derived from cross rates against the dollar: the euro
 * (dollars per unit) and the yen (units per dollar), on weekdays from CROSS_FIRST to LAST but
 * their holidays, as the central bank publishes them.
 */
import { addDays, daysBetween } from '../../../shared/dates';
import type { InstitutionType } from '../../../shared/institutions';

export const FIRST = '2023-01-01';
export const LAST = '2025-01-31';

/** Days whose rates the rounding examples need (0.5 × 493.35, 0.1 × 506.47). */
const PINNED: Record<string, { buy: number; sell: number }> = {
  '2025-01-15': { buy: 506.47, sell: 512.82 },
  '2024-06-03': { buy: 487.1, sell: 493.35 },
};

export function quoteOf(date: string): { buy: number; sell: number } {
  const pinned = PINNED[date];
  if (pinned) return pinned;
  const i = daysBetween(FIRST, date);
  const buyCents = 49_000 + ((i * 37) % 1_700);
  const sellCents = buyCents + 550 + (i % 9) * 10;
  return { buy: buyCents / 100, sell: sellCents / 100 };
}

/**
 * Days with no rate, for the month close: April 2023 lacks its last day (no closing record) and a
 * day inside; March 2023 lacks a day inside only (closing record present, month incomplete).
 */
export const GAPS: ReadonlySet<string> = new Set(['2023-03-15', '2023-04-10', '2023-04-30']);

/** The days the server has a rate for. */
export function allDays(): string[] {
  const out: string[] = [];
  for (let d = FIRST; d <= LAST; d = addDays(d, 1)) if (!GAPS.has(d)) out.push(d);
  return out;
}

export const INSTITUTIONS: ReadonlyArray<{ id: string; name: string; type: InstitutionType; buy: number; sell: number }> = [
  { id: 'banco-nacional', name: 'Banco Nacional de Costa Rica', type: 'public_bank', buy: 505, sell: 515 },
  { id: 'bac', name: 'Banco BAC San José', type: 'private_bank', buy: 506, sell: 514 },
  { id: 'teledolar', name: 'Teledolar', type: 'exchange_house', buy: 507.5, sell: 513.25 },
  { id: 'coopeservidores', name: 'Coopeservidores', type: 'cooperative', buy: 504, sell: 516 },
];

/** The first day of the cross rates: 2024 and January 2025, a span with no gap in the dollar's series. */
export const CROSS_FIRST = '2024-01-01';

/** Weekdays without a cross rate: the euro's Good Friday, Christmas and the New Year; the yen's New Year. */
export const CROSS_HOLIDAYS: Record<'EUR' | 'JPY', ReadonlySet<string>> = {
  EUR: new Set(['2024-01-01', '2024-03-29', '2024-12-25', '2024-12-26', '2025-01-01']),
  JPY: new Set(['2024-01-01', '2024-01-02', '2024-01-03', '2025-01-01', '2025-01-02', '2025-01-03']),
};

/** Pinned for the exact examples: 2025-01-15's dollar (506.47 / 512.82) × 1.0301, and ÷ 156.42. */
const CROSS_PINNED: Record<'EUR' | 'JPY', Record<string, number>> = {
  EUR: { '2025-01-15': 1.0301 },
  JPY: { '2025-01-15': 156.42 },
};

const isWeekend = (date: string): boolean => [0, 6].includes(new Date(`${date}T00:00:00Z`).getUTCDay());

/** The cross rate the central bank published for a day, in the catalog's direction, or null for a day it published none. */
export function crossOf(currency: 'EUR' | 'JPY', date: string): number | null {
  if (date < CROSS_FIRST || date > LAST || isWeekend(date) || CROSS_HOLIDAYS[currency].has(date)) return null;
  const pinned = CROSS_PINNED[currency][date];
  if (pinned !== undefined) return pinned;
  const i = daysBetween(CROSS_FIRST, date);
  return currency === 'EUR' ? (10_500 + ((i * 7) % 600)) / 10_000 : (14_000 + ((i * 13) % 2_000)) / 100;
}

/** Every cross rate the server holds. */
export function allCrossRates(): Array<{ currency: 'EUR' | 'JPY'; date: string; value: number }> {
  const out: Array<{ currency: 'EUR' | 'JPY'; date: string; value: number }> = [];
  for (const currency of ['EUR', 'JPY'] as const) {
    for (let d = CROSS_FIRST; d <= LAST; d = addDays(d, 1)) {
      const value = crossOf(currency, d);
      if (value !== null) out.push({ currency, date: d, value });
    }
  }
  return out;
}

/** The days of MONEX the server holds: January 2025, sessions on weekdays but New Year's Day. */
export const MONEX_FIRST = '2025-01-01';

/** A MONEX day: its figures, or null for a day without a session. */
export function monexOf(date: string): { average: number; min: number; max: number; volume: number } | null {
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
  if (weekday === 0 || weekday === 6 || date === '2025-01-01') return null;
  const average = Math.round((quoteOf(date).sell - 1) * 100) / 100;
  return {
    average,
    min: Math.round((average - 1.5) * 100) / 100,
    max: Math.round((average + 2.25) * 100) / 100,
    volume: 10 + (daysBetween(MONEX_FIRST, date) % 7),
  };
}
