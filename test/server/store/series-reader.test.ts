import fc from 'fast-check';
import { addDays } from '../../../shared/dates';
import type { ExchangeRate } from '../../../shared/types';
import { chartOfColumns } from '../../../server/domain/chart';
import { columnsOf } from '../../../server/domain/series';
import { loadedSeries, readSeries } from '../../../server/store/series-reader';

/** `count` business days of 2-decimal rates from 1983 on, as the store hands them over. */
function records(count: number, sellOf: (i: number) => number): ExchangeRate[] {
  return Array.from({ length: count }, (_, i) => {
    const sell = sellOf(i);
    return {
      date: addDays('1983-01-03', i + 2 * Math.floor(i / 5)),
      buy: Math.round(sell * 0.99 * 100) / 100,
      sell,
      source: 'BCCR',
      fetchedAt: '2025-01-14T18:05:12.000Z',
    } as ExchangeRate;
  });
}

/**
 * The charts of windows of `all` read through one series in memory (its sums made once, for the
 * first), and made from each window's points alone.
 */
function chartsOf(all: ExchangeRate[]) {
  const series = loadedSeries(all, 0);
  const reader = readSeries(async () => series);
  return async (a: number, b: number, points: number) => {
    const window = all.slice(a, b + 1).map(({ date, buy, sell }) => ({ date, buy, sell }));
    const columns = await reader.columns(window[0]?.date ?? '', window.at(-1)?.date ?? '');
    return { fromSeries: chartOfColumns(columns, points), fromPoints: chartOfColumns(columnsOf(window), points), columns };
  };
}

describe('charts of a series in memory', () => {
  const history = records(16000, (i) => Math.round((40 + 12 * i ** 0.6 + 20 * Math.sin(i / 90)) * 100) / 100);

  it('fit their trend lines from the sums the series keeps, and give the chart the points alone give', async () => {
    const bothCharts = chartsOf(history);
    const { columns } = await bothCharts(0, 15999, 500);
    expect(columns.fit).toBeDefined();
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 15999 }), fc.integer({ min: 0, max: 15999 }), fc.integer({ min: 2, max: 500 }), async (a, length, points) => {
        const b = Math.min(15999, a + length);
        const { fromSeries, fromPoints } = await bothCharts(a, b, points);
        const { trend, ...plotted } = fromSeries;
        expect(JSON.stringify(plotted)).toBe(JSON.stringify({ ...fromPoints, trend: undefined }));
        // The same figures, but where the two-pass fit rounds a tie the wrong way (line-sums.test.ts):
        // then one unit of the fourth decimal apart, counted in units (0.0013 − 0.0012 is a hair over 0.0001 in floats).
        const units = (figure: number) => Math.round(figure * 10_000);
        for (const side of ['buy', 'sell'] as const) {
          for (const figure of ['slopePerDay', 'start', 'end'] as const)
            expect(Math.abs(units(trend[side][figure]) - units(fromPoints.trend[side][figure]))).toBeLessThanOrEqual(1);
        }
      }),
      { numRuns: 100 },
    );
  });

  it('fit each window themselves when the values do not scale to whole units', async () => {
    const thirds = records(400, (i) => 500 + i / 3);
    const { fromSeries, fromPoints, columns } = await chartsOf(thirds)(10, 390, 90);
    expect(columns.fit).toBeUndefined();
    expect(fromSeries).toEqual(fromPoints);
  });
});
