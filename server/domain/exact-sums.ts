/**
 * Sums, averages and differences of rates, exact as SQL NUMERIC gives them, in integers where the
 * values allow. A rate has 2 decimals (a derived one a few more): scaled to whole units (50,647
 * hundredths for 506.47), a month or a year of them adds up exactly in a double, and the 4-decimal
 * rounding of an average is integer division. Decimal arithmetic gives the same figures at some 20
 * times the cost (the average and change of a month's side: about 6 µs, against 0.25 here), and
 * stays the way for values that do not scale (more decimals, or a sum past 2^51).
 */
import type Decimal from 'decimal.js';
import { LIMITS } from '../../shared/limits';
import { Dec } from './decimal';
import { statistic } from './rounding';

/** Decimals tried for an exact sum in integers: rates have 2, derived ones a few more. */
const MAX_SCALED_DECIMALS = 6;

/**
 * Divisions of integers below this are exact enough for their floor: the true quotient is then
 * further from the next integer than a double's rounding can move it.
 */
const EXACT_DIVISION_BOUND = 2 ** 51;

/**
 * The fewest decimals (up to MAX_SCALED_DECIMALS) that every value has, so that each one times
 * 10^decimals is a whole number it gives back exactly; null when some value has more.
 */
export function decimalsOf(values: ArrayLike<number>): number | null {
  for (let decimals = 0; decimals <= MAX_SCALED_DECIMALS; decimals++) {
    const scale = 10 ** decimals;
    let exact = true;
    for (let i = 0; i < values.length && exact; i++) {
      const value = values[i] as number;
      const units = Math.round(value * scale);
      exact = units / scale === value && Number.isSafeInteger(units);
    }
    if (exact) return decimals;
  }
  return null;
}

/** The values as whole units of 10^-decimals, summed: null when some value has more decimals or the sum is too large. */
function scaled(values: readonly number[]): { units: number; decimals: number } | null {
  const decimals = decimalsOf(values);
  if (decimals === null) return null;
  const scale = 10 ** decimals;
  let units = 0;
  for (const value of values) units += Math.round(value * scale);
  return Number.isSafeInteger(units) ? { units, decimals } : null;
}

/**
 * `numerator / denominator` (a positive integer) rounded half away from zero to an integer, or
 * null when the operands are too large for that to be exact in doubles.
 */
function roundedQuotient(numerator: number, denominator: number): number | null {
  const twice = 2 * Math.abs(numerator) + denominator;
  if (!Number.isSafeInteger(numerator) || twice >= EXACT_DIVISION_BOUND) return null;
  const magnitude = Math.floor(twice / (2 * denominator));
  return numerator < 0 ? -magnitude : magnitude;
}

/** `units` / 10^decimals rounded half away from zero to the statistics' 4 decimals, or null when too large. */
function toStatistic(units: number, decimals: number, count: number): number | null {
  const places = LIMITS.decimals.statistic;
  const shift = places - decimals;
  const rounded = shift >= 0 ? roundedQuotient(units * 10 ** shift, count) : roundedQuotient(units, count * 10 ** -shift);
  if (rounded === null) return null;
  // Never −0 (rounding.ts): some clients tell it apart from 0.
  return rounded === 0 ? 0 : rounded / 10 ** places;
}

/**
 * The exact sum of `values`, each read by its shortest representation (506.47 is 506.47), as a
 * Decimal: from integers when the values scale, in Decimal arithmetic otherwise.
 */
export function exactSum(values: readonly number[]): Decimal {
  const sum = scaled(values);
  if (sum) return new Dec(sum.units).div(10 ** sum.decimals);
  return values.reduce((total, v) => total.plus(v), new Dec(0));
}

/** The average of at least one value to 4 decimals, half away from zero: SQL's round(avg(), 4). */
export function averageOf(values: readonly number[]): number {
  const sum = scaled(values);
  const average = sum && toStatistic(sum.units, sum.decimals, values.length);
  return average ?? statistic(exactSum(values).div(values.length));
}

/** `to − from` to 4 decimals, half away from zero. */
export function changeBetween(from: number, to: number): number {
  const both = scaled([from, to]);
  const change = both && toStatistic(Math.round(to * 10 ** both.decimals) - Math.round(from * 10 ** both.decimals), both.decimals, 1);
  return change ?? statistic(new Dec(to).minus(from));
}
