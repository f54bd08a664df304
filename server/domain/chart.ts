import type { Chart, TrendLine } from '../../shared/types';
import { lttbIndexes } from './lttb';
import { type Line, leastSquares } from './regression';
import { statistic } from './rounding';
import { offsetsOfDays } from './series';
import type { RateColumns } from './types';

/**
 * The Chart object of docs/api.md for a non-empty series' columns, ascending by date (the series
 * in memory hands them over without copying).
 *
 * The series is downsampled on `sell` (buy comes from the same dates) with x in calendar days,
 * so a gap in the data counts as the time it spans. The trend lines are fitted on every point,
 * not only the kept ones: downsampling keeps peaks, which would bias the fit. A series in memory
 * hands over each window's lines from the sums it keeps (`fit`), without a pass over its days.
 */
export function chartOfColumns(columns: RateColumns, maxPoints: number): Chart {
  const { dates, days, buys, sells, point } = columns;
  const xs = offsetsOfDays(days, dates);
  const kept = lttbIndexes(xs, sells, maxPoints);
  const series = kept.map((i) => point(i));
  const span = xs[xs.length - 1] as number;

  return {
    from: dates[0] as string,
    to: dates[dates.length - 1] as string,
    points: series.length,
    series,
    trend: {
      buy: trendLine(columns.fit?.('buy') ?? leastSquares(xs, buys), span),
      sell: trendLine(columns.fit?.('sell') ?? leastSquares(xs, sells), span),
    },
  };
}

/** The fitted line's slope and its values at `from` (x = 0) and `to` (x = span). */
function trendLine({ slope, intercept }: Line, span: number): TrendLine {
  return {
    slopePerDay: statistic(slope),
    start: statistic(intercept),
    end: statistic(intercept + slope * span),
  };
}
