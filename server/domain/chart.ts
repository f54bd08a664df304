import type { Chart, TrendLine } from '../../shared/types';
import { lttbIndexes } from './lttb';
import { type Line, leastSquares } from './regression';
import { statistic } from './rounding';
import { offsetsOfDays } from './series';
import type { RateColumns } from './types';

/**
 * The Chart object of docs/api.md for a non-empty series' columns, ascending by date as columnsOf
 * checks them (the series in memory hands them over without copying).
 *
 * The series is downsampled on `sell` (buy comes from the same dates) with x in calendar days,
 * so a gap in the data counts as the time it spans. The trend lines are fitted on every point,
 * not only the kept ones: downsampling keeps peaks, which would bias the fit. A series in memory
 * hands over each window's lines from the sums it keeps (`fit`), without a pass over its days.
 */
export function chartOfColumns(columns: RateColumns, maxPoints: number): Chart {
  const { date, days, buys, sells, point } = columns;
  if (days.length === 0) throw new RangeError('a chart needs at least one point');
  // x is the day less the first one: lttb subtracts it as it reads, with no array of offsets made.
  const origin = days[0] as number;
  const kept = lttbIndexes(days, sells, maxPoints, origin);
  const series = kept.map((i) => point(i));
  const span = (days[days.length - 1] as number) - origin;
  const lines = columns.fit ? { buy: columns.fit('buy'), sell: columns.fit('sell') } : fitEveryDay(days, buys, sells);

  return {
    from: date(0),
    to: date(days.length - 1),
    points: series.length,
    series,
    trend: {
      buy: trendLine(lines.buy, span),
      sell: trendLine(lines.sell, span),
    },
  };
}

/** Both sides' lines fitted over every day of the window, for columns that keep no sums. */
function fitEveryDay(days: ArrayLike<number>, buys: ArrayLike<number>, sells: ArrayLike<number>): Record<'buy' | 'sell', Line> {
  const xs = offsetsOfDays(days);
  return { buy: leastSquares(xs, buys), sell: leastSquares(xs, sells) };
}

/** The fitted line's slope and its values at `from` (x = 0) and `to` (x = span). */
function trendLine({ slope, intercept }: Line, span: number): TrendLine {
  return {
    slopePerDay: statistic(slope),
    start: statistic(intercept),
    end: statistic(intercept + slope * span),
  };
}
