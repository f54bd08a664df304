import Decimal from 'decimal.js';
import fc from 'fast-check';
import { addDays } from '../../../shared/dates';
import { analyze, trendOf } from '../../../server/domain/analytics';
import type { RatePoint } from '../../../server/domain/types';

const point = (date: string, buy: number, sell: number): RatePoint => ({ date, buy, sell });

describe('analyze: a hand-computed series with a gap', () => {
  // x = calendar days since 2025-01-01: 0, 1, 2, 4 (2025-01-04 is missing).
  const points = [point('2025-01-01', 100, 500), point('2025-01-02', 110, 502), point('2025-01-03', 99, 500), point('2025-01-05', 108.9, 502)];
  const result = analyze(points);

  it('reports the window actually present', () => {
    expect(result.from).toBe('2025-01-01');
    expect(result.to).toBe('2025-01-05');
    expect(result.count).toBe(4);
  });

  it('computes every buy statistic', () => {
    // average = (100 + 110 + 99 + 108.9) / 4 = 417.9 / 4 = 104.475
    // change = 108.9 − 100 = 8.9; changePercent = 8.9 / 100 × 100 = 8.9
    // percentage changes: +10, −10, +10; mean 10/3; deviations 20/3, −40/3, 20/3;
    //   squares sum 400/9 + 1600/9 + 400/9 = 800/3; / (3 − 1) = 400/3; sqrt = 11.54700… → 11.547
    // slope: mean x = 7/4, Sxx = 3.0625 + 0.5625 + 0.0625 + 5.0625 = 8.75,
    //   Sxy = Σ(x − 7/4)·y = −175 − 82.5 + 24.75 + 245.025 = 12.275; slope = 1.402857… → 1.4029
    // trend: |1.402857 × 4 days| = 5.61 ≥ 0.1 % × 104.475 = 0.104 → up
    expect(result.buy).toEqual({
      average: 104.475,
      min: 99,
      minDate: '2025-01-03',
      max: 110,
      maxDate: '2025-01-02',
      first: 100,
      last: 108.9,
      change: 8.9,
      changePercent: 8.9,
      volatility: 11.547,
      trend: 'up',
      slopePerDay: 1.4029,
    });
  });

  it('computes every sell statistic, taking the earliest date of a repeated extreme', () => {
    // min 500 on 01-01 and 01-03 → 2025-01-01; max 502 on 01-02 and 01-05 → 2025-01-02.
    // average = 2004 / 4 = 501; change = 2; changePercent = 2 / 500 × 100 = 0.4
    // percentage changes: 0.4, −100/251 = −0.398406…, 0.4; mean 0.133865;
    //   deviations 0.266135, −0.532271, 0.266135; squares sum 0.424968; / 2 = 0.212484;
    //   sqrt = 0.460960 → 0.461
    // slope: Sxy = −1.75·500 − 0.75·502 + 0.25·500 + 2.25·502 = 3; 3 / 8.75 = 0.342857 → 0.3429
    // trend: 0.342857 × 4 = 1.37 ≥ 0.501 → up
    expect(result.sell).toEqual({
      average: 501,
      min: 500,
      minDate: '2025-01-01',
      max: 502,
      maxDate: '2025-01-02',
      first: 500,
      last: 502,
      change: 2,
      changePercent: 0.4,
      volatility: 0.461,
      trend: 'up',
      slopePerDay: 0.3429,
    });
  });
});

describe('analyze: small windows', () => {
  it('a single record: volatility 0, slope 0, stable, change 0', () => {
    const { buy, count, from, to } = analyze([point('2025-01-15', 506.47, 512.82)]);
    expect({ count, from, to }).toEqual({ count: 1, from: '2025-01-15', to: '2025-01-15' });
    expect(buy).toEqual({
      average: 506.47,
      min: 506.47,
      minDate: '2025-01-15',
      max: 506.47,
      maxDate: '2025-01-15',
      first: 506.47,
      last: 506.47,
      change: 0,
      changePercent: 0,
      volatility: 0,
      trend: 'stable',
      slopePerDay: 0,
    });
  });

  it('two records: volatility 0 (one change has no spread), slope is the difference per day', () => {
    const { sell } = analyze([point('2025-01-01', 500, 500), point('2025-01-03', 500, 510)]);
    expect(sell.volatility).toBe(0);
    expect(sell.slopePerDay).toBe(5);
    expect(sell.change).toBe(10);
    expect(sell.changePercent).toBe(2);
    expect(sell.trend).toBe('up');
  });

  it('a flat series is stable with zero volatility', () => {
    const flat = [1, 2, 3].map((d) => point(`2025-01-0${d}`, 500, 500));
    expect(analyze(flat).sell).toMatchObject({ volatility: 0, slopePerDay: 0, trend: 'stable', change: 0 });
  });

  it('change is exact decimal arithmetic, not float subtraction', () => {
    // 512.82 − 506.47 in floats is 6.350000000000023.
    const { sell } = analyze([point('2025-01-01', 1, 506.47), point('2025-01-02', 1, 512.82)]);
    expect(sell.change).toBe(6.35);
  });
});

describe('trend threshold: 0.1 % of the average over the days spanned', () => {
  // Two records two calendar days apart (the span is 2 days, not 1 record step).
  const trendOfPair = (a: number, b: number) => analyze([point('2025-01-01', a, a), point('2025-01-03', b, b)]).sell.trend;

  it('exactly at the threshold counts (≥)', () => {
    // slope 1/day × 2 days = 2; average 2000; 0.1 % of 2000 = 2 → up
    expect(trendOfPair(1999, 2001)).toBe('up');
    expect(trendOfPair(2001, 1999)).toBe('down');
  });

  it('just below is stable', () => {
    // move 1.99 < 0.1 % × 1999.995 = 1.999995 (0.0995 %)
    expect(trendOfPair(1999, 2000.99)).toBe('stable');
    expect(trendOfPair(2000.99, 1999)).toBe('stable');
  });

  it('just above is up or down', () => {
    // move 2.01 ≥ 0.1 % × 2000.005 = 2.000005 (0.1005 %)
    expect(trendOfPair(1999, 2001.01)).toBe('up');
    expect(trendOfPair(2001.01, 1999)).toBe('down');
  });

  it('trendOf uses the span in calendar days', () => {
    expect(trendOf(0.1, 10, 1000)).toBe('up'); // 1 ≥ 1
    expect(trendOf(0.1, 9, 1000)).toBe('stable'); // 0.9 < 1
    expect(trendOf(-0.1, 10, 1000)).toBe('down');
    expect(trendOf(0, 10, 0)).toBe('stable');
  });
});

describe('analyze: input contract', () => {
  it('refuses an empty series, unordered or duplicate dates, and non-positive rates', () => {
    expect(() => analyze([])).toThrow(RangeError);
    expect(() => analyze([point('2025-01-02', 1, 1), point('2025-01-01', 1, 1)])).toThrow(RangeError);
    expect(() => analyze([point('2025-01-01', 1, 1), point('2025-01-01', 1, 1)])).toThrow(RangeError);
    expect(() => analyze([point('2025-13-01', 1, 1), point('2025-01-01', 1, 1)])).toThrow(RangeError);
    expect(() => analyze([point('2025-01-01', 0, 1)])).toThrow(RangeError);
    expect(() => analyze([point('2025-01-01', 1, Number.NaN)])).toThrow(RangeError);
  });

  it('handles 20,000 records', () => {
    const points = Array.from({ length: 20000 }, (_, i) => point(addDays('1970-01-01', i), 500 + Math.round(100 * Math.sin(i / 50)) / 100, 506 + i / 10000));
    const result = analyze(points);
    expect(result.count).toBe(20000);
    expect(result.sell.slopePerDay).toBe(0.0001);
    expect(result.sell.trend).toBe('up');
  });
});

/** Ascending dates with random gaps and 2-decimal rates, like the official series. */
const seriesArb = fc
  .array(
    fc.record({
      gap: fc.integer({ min: 1, max: 5 }),
      buy: fc.integer({ min: 1, max: 100_000 }),
      sell: fc.integer({ min: 1, max: 100_000 }),
    }),
    { minLength: 1, maxLength: 60 },
  )
  .map((rows) => {
    let date = '2020-01-01';
    return rows.map((r, i) => {
      if (i > 0) date = addDays(date, r.gap);
      return point(date, r.buy / 100, r.sell / 100);
    });
  });

describe('analyze: invariants (property)', () => {
  it('holds for any ascending series', () => {
    fc.assert(
      fc.property(seriesArb, (points) => {
        const result = analyze(points);
        expect(result.count).toBe(points.length);
        expect(result.from).toBe(points[0].date);
        expect(result.to).toBe(points[points.length - 1].date);
        for (const side of ['buy', 'sell'] as const) {
          const s = result[side];
          const values = points.map((p) => p[side]);
          expect(s.min).toBeLessThanOrEqual(s.average);
          expect(s.average).toBeLessThanOrEqual(s.max);
          for (const v of [s.first, s.last]) {
            expect(s.min).toBeLessThanOrEqual(v);
            expect(v).toBeLessThanOrEqual(s.max);
          }
          expect(s.min).toBe(Math.min(...values));
          expect(s.max).toBe(Math.max(...values));
          expect(points.find((p) => p[side] === s.min)?.date).toBe(s.minDate);
          expect(points.find((p) => p[side] === s.max)?.date).toBe(s.maxDate);
          expect(s.first).toBe(values[0]);
          expect(s.last).toBe(values[values.length - 1]);
          expect(s.change).toBe(new Decimal(s.last).minus(s.first).toNumber());
          expect(s.volatility).toBeGreaterThanOrEqual(0);
          if (points.length < 3) expect(s.volatility).toBe(0);
          if (points.length === 1) expect(s.slopePerDay).toBe(0);
          // The rounded slope may be 0 where the unrounded one decided the trend, never the opposite sign.
          if (s.trend === 'up') expect(s.slopePerDay).toBeGreaterThanOrEqual(0);
          if (s.trend === 'down') expect(s.slopePerDay).toBeLessThanOrEqual(0);
          if (s.slopePerDay > 0) expect(s.trend).not.toBe('down');
          if (s.slopePerDay < 0) expect(s.trend).not.toBe('up');
          if (s.slopePerDay === 0 && points.length === 1) expect(s.trend).toBe('stable');
        }
      }),
    );
  });
});
