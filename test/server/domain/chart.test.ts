import { addDays, daysBetween } from '../../../shared/dates';
import { chartOfColumns } from '../../../server/domain/chart';
import { leastSquares } from '../../../server/domain/regression';
import { statistic } from '../../../server/domain/rounding';
import { columnsOf } from '../../../server/domain/series';
import type { RatePoint } from '../../../server/domain/types';

/** The chart the route builds from a series' columns. */
const chartOf = (points: readonly RatePoint[], maxPoints: number) => chartOfColumns(columnsOf(points), maxPoints);

describe('chartOfColumns: a short window', () => {
  // xs 0, 1, 3; sell 500, 501, 503 → slope 1, intercept 500 (see regression.test.ts);
  // at `to` (x = 3) the line is 503. buy is flat at 490.
  const points: RatePoint[] = [
    { date: '2025-01-01', buy: 490, sell: 500 },
    { date: '2025-01-02', buy: 490, sell: 501 },
    { date: '2025-01-04', buy: 490, sell: 503 },
  ];

  it('keeps every point when there are no more than requested', () => {
    const chart = chartOf(points, 90);
    expect(chart).toEqual({
      from: '2025-01-01',
      to: '2025-01-04',
      points: 3,
      series: points,
      trend: {
        buy: { slopePerDay: 0, start: 490, end: 490 },
        sell: { slopePerDay: 1, start: 500, end: 503 },
      },
    });
  });

  it('with 2 points asked, keeps the first and last only; the trend still uses all points', () => {
    const chart = chartOf(points, 2);
    expect(chart.points).toBe(2);
    expect(chart.series.map((p) => p.date)).toEqual(['2025-01-01', '2025-01-04']);
    expect(chart.trend.sell).toEqual({ slopePerDay: 1, start: 500, end: 503 });
  });

  it('a single record is a flat line at its value', () => {
    const chart = chartOf([points[0]], 90);
    expect(chart.points).toBe(1);
    expect(chart.trend.sell).toEqual({ slopePerDay: 0, start: 500, end: 500 });
  });

  it('outputs only date, buy and sell, even if the input carries more', () => {
    const rich = points.map((p) => ({ ...p, source: 'BCCR' }));
    expect(Object.keys(chartOf(rich, 90).series[0]).sort()).toEqual(['buy', 'date', 'sell']);
  });

  it('refuses an empty window', () => {
    expect(() => chartOf([], 90)).toThrow(RangeError);
  });

  it('refuses points out of order, twice the same day, or a malformed date', () => {
    const [first, second, third] = points as [RatePoint, RatePoint, RatePoint];
    expect(() => chartOf([first, third, second], 90)).toThrow(/strictly ascending valid dates; got 2025-01-02 at index 2/);
    expect(() => chartOf([first, first], 90)).toThrow(RangeError);
    expect(() => chartOf([{ ...first, date: '2025-13-45' }, second], 90)).toThrow(RangeError);
    expect(() => chartOf([first, { ...second, date: 'soon' }], 90)).toThrow(RangeError);
  });
});

describe('chartOfColumns: downsampling on sell', () => {
  it('picks dates by sell and takes buy from the same dates', () => {
    // sell has a spike on day 3; buy has a bigger one on day 6 that LTTB on sell must ignore.
    const sells = [500, 500, 500, 520, 500, 500, 500, 500, 500];
    const points: RatePoint[] = sells.map((sell, i) => ({
      date: addDays('2025-02-01', i),
      buy: i === 6 ? 900 : sell - 10,
      sell,
    }));
    const chart = chartOf(points, 3);
    expect(chart.series).toEqual([points[0], points[3], points[8]]);
  });
});

describe('chartOfColumns: 20,000 records', () => {
  const points: RatePoint[] = Array.from({ length: 20000 }, (_, i) => {
    const sell = Math.round((520 + 15 * Math.sin(i / 400) - i / 1000) * 100) / 100;
    return { date: addDays('1970-01-01', i + Math.floor(i / 1000)), buy: Math.round((sell - 6.5) * 100) / 100, sell };
  });

  it('returns at most maxPoints, keeps the ends, and fits the trend over every record', () => {
    // How fast is the bench's (its uncached 10,000–20,000-day chart row), not a test's clock.
    const chart = chartOf(points, 500);

    expect(chart.points).toBe(500);
    expect(chart.series).toHaveLength(500);
    expect(chart.series[0]).toEqual(points[0]);
    expect(chart.series[499]).toEqual(points[19999]);
    expect(chart.from).toBe(points[0].date);
    expect(chart.to).toBe(points[19999].date);

    const xs = points.map((p) => daysBetween(points[0].date, p.date));
    const span = xs[xs.length - 1];
    for (const side of ['buy', 'sell'] as const) {
      const full = leastSquares(
        xs,
        points.map((p) => p[side]),
      );
      expect(chart.trend[side]).toEqual({
        slopePerDay: statistic(full.slope),
        start: statistic(full.intercept),
        end: statistic(full.intercept + full.slope * span),
      });
      // The kept points alone give a different line, so this really is the fit over all records.
      const keptXs = chart.series.map((p) => daysBetween(points[0].date, p.date));
      const kept = leastSquares(
        keptXs,
        chart.series.map((p) => p[side]),
      );
      expect(statistic(kept.intercept)).not.toBe(chart.trend[side].start);
    }
  });
});
