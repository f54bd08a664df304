import Decimal from 'decimal.js';
import { LIMITS } from '../../shared/limits';

/**
 * Rounds to `places` decimals, half away from zero (docs/api.md).
 *
 * Numbers go through decimal.js, which reads a float by its shortest representation: 1.005 is
 * taken as the decimal 1.005 and rounds to 1.01, as a person expects, where `Math.round(x * 100)`
 * would see 100.49999… and give 1.00. decimal.js's ROUND_HALF_UP rounds ties away from zero
 * (−0.125 → −0.13).
 */
export function roundHalfAway(value: number | string | Decimal, places: number): number {
  const d = new Decimal(value);
  if (!d.isFinite()) throw new RangeError(`cannot round a non-finite value (${d.toString()})`);
  const n = d.toDecimalPlaces(places, Decimal.ROUND_HALF_UP).toNumber();
  // A small negative value rounds to −0, which `Object.is` and some clients tell apart from 0.
  return n === 0 ? 0 : n;
}

/** Money results: 2 decimals. */
export function money(value: number | string | Decimal): number {
  return roundHalfAway(value, LIMITS.decimals.money);
}

/** Derived statistics (averages, percentages, volatility, slopes, trend values): 4 decimals. */
export function statistic(value: number | string | Decimal): number {
  return roundHalfAway(value, LIMITS.decimals.statistic);
}
