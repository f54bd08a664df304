import fc from 'fast-check';
import { leastSquares } from '../../../server/domain/regression';

describe('leastSquares', () => {
  it('fits a hand-computed line', () => {
    // xs 0,1,3 (mean 4/3), ys 500,501,503 (mean 1504/3).
    // Sxx = (16 + 1 + 25) / 9 = 14/3; Sxy = (−4/3)·500 + (−1/3)·501 + (5/3)·503 = 14/3.
    // slope = 1; intercept = 1504/3 − 4/3 = 500.
    const { slope, intercept } = leastSquares([0, 1, 3], [500, 501, 503]);
    expect(slope).toBeCloseTo(1, 12);
    expect(intercept).toBeCloseTo(500, 10);
  });

  it('recovers an exact line', () => {
    const xs = [0, 2, 5, 9, 10];
    const ys = xs.map((x) => 3 - 0.5 * x);
    const { slope, intercept } = leastSquares(xs, ys);
    expect(slope).toBeCloseTo(-0.5, 12);
    expect(intercept).toBeCloseTo(3, 12);
  });

  it('is flat at the single y for one point', () => {
    expect(leastSquares([7], [512.82])).toEqual({ slope: 0, intercept: 512.82 });
  });

  it('is flat at the mean of the ys when every x is the same', () => {
    expect(leastSquares([3, 3, 3], [1, 2, 6])).toEqual({ slope: 0, intercept: 3 });
  });

  it('refuses empty or mismatched input', () => {
    expect(() => leastSquares([], [])).toThrow(RangeError);
    expect(() => leastSquares([1, 2], [1])).toThrow(RangeError);
  });

  it('stays accurate far from the origin (centred form)', () => {
    // The naive n·Σxy − Σx·Σy form loses the slope when x and y are large and the slope tiny.
    const xs = Array.from({ length: 20000 }, (_, i) => 1e6 + i);
    const ys = xs.map((x) => 500 + 1e-6 * (x - 1e6));
    expect(leastSquares(xs, ys).slope).toBeCloseTo(1e-6, 12);
  });

  it('passes through the means (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 1, max: 100000 })), {
          minLength: 1,
          maxLength: 50,
        }),
        (pairs) => {
          const xs = pairs.map(([x]) => x);
          const ys = pairs.map(([, y]) => y / 100);
          const { slope, intercept } = leastSquares(xs, ys);
          const meanX = xs.reduce((s, v) => s + v, 0) / xs.length;
          const meanY = ys.reduce((s, v) => s + v, 0) / ys.length;
          expect(intercept + slope * meanX).toBeCloseTo(meanY, 6);
        },
      ),
    );
  });
});
