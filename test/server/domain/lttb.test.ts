import fc from 'fast-check';
import { lttb, lttbIndexes } from '../../../server/domain/lttb';

type P = { x: number; y: number };
const px = (p: P) => p.x;
const py = (p: P) => p.y;
const line = (ys: number[]): P[] => ys.map((y, x) => ({ x, y }));

describe('lttb: edge cases', () => {
  it('returns a copy when there is nothing to drop', () => {
    const data = line([1, 2, 3]);
    const out = lttb(data, 3, px, py);
    expect(out).toEqual(data);
    expect(out).not.toBe(data);
    expect(lttb(data, 500, px, py)).toEqual(data);
    expect(lttb([], 3, px, py)).toEqual([]);
  });

  it('threshold 2 keeps only the first and last points', () => {
    const data = line([1, 9, 2, 8]);
    expect(lttb(data, 2, px, py)).toEqual([data[0], data[3]]);
  });

  it('a threshold below 2 is treated as 2, since the ends are always kept', () => {
    const data = line([1, 9, 2, 8]);
    expect(lttb(data, 1, px, py)).toEqual([data[0], data[3]]);
    expect(lttb(data, 0, px, py)).toEqual([data[0], data[3]]);
    expect(lttb(line([1, 2]), 1, px, py)).toEqual(line([1, 2]));
    expect(lttb(line([1]), 0, px, py)).toEqual(line([1]));
  });

  it('refuses a non-integer threshold', () => {
    expect(() => lttb(line([1, 2, 3, 4]), 2.5, px, py)).toThrow(RangeError);
  });
});

describe('lttb: the standard algorithm', () => {
  it('keeps the peak of a single bucket', () => {
    // threshold 3 → one bucket with the inner points 1..3; (2, 10) makes the largest triangle.
    const data = line([0, 0, 10, 0, 0]);
    expect(lttb(data, 3, px, py)).toEqual([data[0], data[2], data[4]]);
  });

  it('picks the largest triangle against the previous pick and the next bucket average', () => {
    // n = 8, threshold 4: buckets [1,4) and [4,7), then the last point 7.
    // Bucket 1: a = (0,0), next-bucket average = ((4+5+6)/3, (0+0+0)/3) = (5, 0);
    //   areas ∝ |(0−5)(y−0) − (0−x)(0−0)| = 5|y| → the largest |y| is at x=2 (y=−7).
    // Bucket 2: a = (2,−7), next average = (7, 1); area ∝ |(2−7)(y+7) − (2−x)(8)|:
    //   x=4,y=0 → |−35 + 16| = 19; x=5,y=0 → |−35 + 24| = 11; x=6,y=0 → |−35 + 32| = 3 → x=4.
    const data = line([0, 3, -7, 1, 0, 0, 0, 1]);
    expect(lttb(data, 4, px, py).map(px)).toEqual([0, 2, 4, 7]);
  });

  it('uses x, so unevenly spaced points are weighed by their position', () => {
    const data: P[] = [
      { x: 0, y: 0 },
      { x: 1, y: 1 },
      { x: 100, y: 1 },
      { x: 101, y: 0 },
    ];
    // One bucket of two inner points against a = (0,0) and the last point (101, 0):
    // area ∝ |(0−101)(y) − (0−x)(0)| = 101·y, equal; the first of the bucket wins ties.
    expect(lttb(data, 3, px, py)).toEqual([data[0], data[1], data[3]]);
  });
});

describe('lttb: properties', () => {
  const dataArb = fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { maxLength: 300 }).map((ys) => ys.map((y, i) => ({ x: i * 2 + (i % 3), y })));

  it('returns min(n, threshold) original elements in order, with the first and last kept', () => {
    fc.assert(
      fc.property(dataArb, fc.integer({ min: 2, max: 320 }), (data, threshold) => {
        const out = lttb(data, threshold, px, py);
        expect(out.length).toBe(Math.min(data.length, threshold));
        const positions = out.map((p) => data.indexOf(p));
        for (const i of positions) expect(i).toBeGreaterThanOrEqual(0);
        for (let k = 1; k < positions.length; k++) expect(positions[k]).toBeGreaterThan(positions[k - 1]);
        if (data.length > 0) {
          expect(out[0]).toBe(data[0]);
          expect(out[out.length - 1]).toBe(data[data.length - 1]);
        }
      }),
    );
  });
});

describe('lttbIndexes with an origin', () => {
  it('keeps the same indexes from day numbers and their first day as from the offsets', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1000, max: 90000 })), { minLength: 1, maxLength: 400 }),
        fc.integer({ min: 4000, max: 25000 }),
        fc.integer({ min: 2, max: 120 }),
        (steps, firstDay, threshold) => {
          let day = firstDay;
          const days = steps.map(([step]) => (day += step));
          const ys = steps.map(([, hundredths]) => hundredths / 100);
          const offsets = days.map((d) => d - (days[0] as number));
          expect(lttbIndexes(days, ys, threshold, days[0])).toEqual(lttbIndexes(offsets, ys, threshold));
        },
      ),
    );
  });
});
