/** Small hand-made windows: falling, rising and flat, 30 days of January 2025. */
import { addDays } from '../../../shared/dates';
import type { RatePoint } from '../../../server/domain/types';

const cents = (v: number) => Math.round(v * 100) / 100;

/** 30 days from `start`, the sell rate given by `sell(i)` and buy ₡6.30 below it. */
export function series(sell: (i: number) => number, days = 30, start = '2025-01-01'): RatePoint[] {
  return Array.from({ length: days }, (_, i) => {
    const s = cents(sell(i));
    return { date: addDays(start, i), buy: cents(s - 6.3), sell: s };
  });
}

/** ₡520.10 down by ₡0.25 a day to ₡512.85: −₡7.25, −1.394 % (appreciation), low volatility. */
export const falling = () => series((i) => 520.1 - 0.25 * i);
/** ₡500.00 up by ₡0.30 a day to ₡508.70: +₡8.70, +1.74 % (depreciation). */
export const rising = () => series((i) => 500 + 0.3 * i);
/** ₡506.00 to ₡506.50 in even steps: +0.0988 % (stable), trend stable as well. */
export const flat = () => series((i) => 506 + (0.5 * i) / 29);

/**
 * The year, June 1, 2024 to May 31, 2025: up ₡0.05 a day for 300 days (₡510.00 →
 * ₡524.95), then down to ₡507.96 in 65: −0.4 % over 365 days while both trends point up.
 */
export const upThenDownYear = () => series((i) => (i < 300 ? 510 + 0.05 * i : 524.95 - ((524.95 - 507.96) * (i - 299)) / 65), 365, '2024-06-01');
