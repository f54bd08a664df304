import Decimal from 'decimal.js';
import fc from 'fast-check';
import { lineSums } from '../../../server/domain/line-sums';
import { leastSquares } from '../../../server/domain/regression';
import { statistic } from '../../../server/domain/rounding';

/** A day number and a 2-decimal rate for each of `length` business days from 1983 on. */
function series(length: number): { days: Float64Array; values: Float64Array } {
  const days = new Float64Array(length);
  const values = new Float64Array(length);
  for (let i = 0; i < length; i++) {
    days[i] = 4749 + i + 2 * Math.floor(i / 5);
    values[i] = Math.round((40 + 12 * i ** 0.6 + 20 * Math.sin(i / 90)) * 100) / 100;
  }
  return { days, values };
}

/** The least-squares line in decimal arithmetic, to 40 digits: the figures the sums must give. */
function exactLine(xs: number[], ys: number[]): { slope: Decimal; intercept: Decimal } {
  const D = Decimal.clone({ precision: 40 });
  const n = new D(xs.length);
  const sum = (terms: number[]) => terms.reduce((total, term) => total.plus(new D(term)), new D(0));
  const sx = sum(xs);
  const sy = sum(ys);
  const sxx = xs.reduce((total, x) => total.plus(new D(x).times(x)), new D(0));
  const sxy = xs.reduce((total, x, i) => total.plus(new D(x).times(new D(ys[i] as number))), new D(0));
  const denominator = n.times(sxx).minus(sx.times(sx));
  const slope = denominator.isZero() ? new D(0) : n.times(sxy).minus(sx.times(sy)).div(denominator);
  return { slope, intercept: sy.minus(slope.times(sx)).div(n) };
}

describe('lineSums: the least-squares line of a window from running sums', () => {
  it('fits a hand-computed line, in any window', () => {
    // xs 0, 1, 3 against 500, 501, 503: slope 1, intercept 500 (regression.test.ts).
    const sums = lineSums([20000, 20001, 20003], [500, 501, 503]);
    expect(sums?.lineOf(0, 3)).toEqual({ slope: 1, intercept: 500 });
    // From the second day on: x 0 and 2 against 501 and 503.
    expect(sums?.lineOf(1, 3)).toEqual({ slope: 1, intercept: 501 });
  });

  it('is flat at the value for a window of one day', () => {
    expect(lineSums([9000, 9001], [512.82, 513.1])?.lineOf(1, 2)).toEqual({ slope: 0, intercept: 513.1 });
  });

  it('refuses an empty window', () => {
    expect(() => lineSums([1, 2], [3, 4])?.lineOf(1, 1)).toThrow(RangeError);
  });

  it('gives the exact line of any window of a 16,000-day series, to the statistics’ 4 decimals', () => {
    const { days, values } = series(16000);
    const sums = lineSums(days, values);
    if (!sums) throw new Error('a 2-decimal series keeps sums');
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 15999 }), fc.integer({ min: 1, max: 2000 }), (start, length) => {
        const end = Math.min(16000, start + length);
        const exact = exactLine(
          Array.from(days.subarray(start, end), (day) => day - (days[start] as number)),
          Array.from(values.subarray(start, end)),
        );
        const line = sums.lineOf(start, end);
        expect(statistic(line.slope)).toBe(statistic(exact.slope));
        expect(statistic(line.intercept)).toBe(statistic(exact.intercept));
      }),
      { numRuns: 150 },
    );
  });

  it('agrees with the two-pass fit over long windows', () => {
    const { days, values } = series(16000);
    const sums = lineSums(days, values);
    for (const [start, end] of [
      [0, 16000],
      [3000, 16000],
      [6000, 15000],
    ] as const) {
      const twoPass = leastSquares(
        Array.from(days.subarray(start, end), (day) => day - (days[start] as number)),
        values.subarray(start, end),
      );
      const line = sums?.lineOf(start, end);
      expect(line?.slope).toBeCloseTo(twoPass.slope, 12);
      expect(line?.intercept).toBeCloseTo(twoPass.intercept, 9);
    }
  });

  it('rounds a tie as the exact line has it, where the two-pass fit is a hair off', () => {
    // 500.07 to 500.08 in 8 days: a slope of 0.00125 exactly, which rounds half away to 0.0013.
    expect(leastSquares([0, 8], [500.07, 500.08]).slope).toBeLessThan(0.00125);
    const line = lineSums([100, 108], [500.07, 500.08])?.lineOf(0, 2);
    expect(line).toEqual({ slope: 0.00125, intercept: 500.07 });
    expect(statistic(line?.slope ?? Number.NaN)).toBe(0.0013);
  });

  it('keeps no sums for values with more decimals than they scale to, or sums past 2^53', () => {
    expect(lineSums([1, 2, 3], [1 / 3, 0.5, 0.25])).toBeNull();
    expect(lineSums([1, 2, 3], [2 ** 52, 2 ** 52, 1])).toBeNull();
    expect(lineSums([1, 2, 3], [500.1234, 500.12, 500])).not.toBeNull();
  });
});
