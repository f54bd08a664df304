/**
 * The data the add-on tests' server holds: an official rate for every day from FIRST to LAST
 * except the GAPS, from a formula (so tests can compute any expected value), with a few days
 * pinned to the figures the rounding examples use (halves that binary floats miss), and one
 * window snapshot on LAST.
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
