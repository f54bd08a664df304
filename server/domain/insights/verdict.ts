/** The verdict of `/insights`: what the window did to the colón, read from its sell rate's change. */
import type { Verdict } from '../../../shared/types';
import { statistic } from '../rounding';

/** The line between a move and noise for windows of up to this many days (docs/api.md). */
export const VERDICT_BASE_PERCENT = 0.25;
export const VERDICT_BASE_DAYS = 30;

/**
 * The line, in percent: ±0.25 % for windows of up to 30 days, ±0.25 × √(days / 30) % beyond, with
 * `days` the calendar days from the window's first record to its last, inclusive.
 *
 * Why the square root: day-to-day moves of the rate largely offset each other, so the change a
 * window gathers without any lasting pressure grows like the square root of its length (a random
 * walk), not like its length. One fixed line called a year's −0.4 % an appreciation although a
 * year drifts that much with no pressure at all. Short windows keep the fixed 0.25 %, so the
 * default 30-day answer reads as it always has. Rounded to 4 decimals like every statistic, so
 * the line compared is the one reported.
 */
export function verdictThreshold(spanDays: number): number {
  if (!Number.isInteger(spanDays) || spanDays < 1) throw new RangeError(`spanDays must be a positive integer, got ${spanDays}`);
  return statistic(VERDICT_BASE_PERCENT * Math.sqrt(Math.max(spanDays, VERDICT_BASE_DAYS) / VERDICT_BASE_DAYS));
}

/**
 * The sell rate is colones per dollar, so fewer colones (a negative change) means a stronger
 * colón. Both ends are inclusive: exactly −line is appreciation, exactly +line depreciation.
 */
export function verdictOf(sellChangePercent: number, spanDays: number): Verdict {
  if (!Number.isFinite(sellChangePercent)) throw new RangeError(`changePercent must be a finite number, got ${sellChangePercent}`);
  const line = verdictThreshold(spanDays);
  if (sellChangePercent <= -line) return 'appreciation';
  if (sellChangePercent >= line) return 'depreciation';
  return 'stable';
}
