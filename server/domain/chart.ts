import type { Chart, TrendLine } from '../../shared/types';
import { lttbIndexes } from './lttb';
import { leastSquares } from './regression';
import { statistic } from './rounding';
import { dayOffsets } from './series';
import type { RatePoint } from './types';

/**
 * The Chart object of docs/api.md for a non-empty series, ascending by date.
 *
 * The series is downsampled on `sell` (buy comes from the same dates) with x in calendar days,
 * so a gap in the data counts as the time it spans. The trend lines are fitted on every point,
 * not only the kept ones: downsampling keeps peaks, which would bias the fit.
 */
export function buildChart(points: readonly RatePoint[], maxPoints: number): Chart {
  const xs = dayOffsets(points);
  const buys = points.map((p) => p.buy);
  const sells = points.map((p) => p.sell);
  const kept = lttbIndexes(xs, sells, maxPoints);
  const series = kept.map((i) => ({ date: points[i].date, buy: buys[i], sell: sells[i] }));
  const span = xs[xs.length - 1];

  return {
    from: points[0].date,
    to: points[points.length - 1].date,
    points: series.length,
    series,
    trend: {
      buy: trendLine(xs, buys, span),
      sell: trendLine(xs, sells, span),
    },
  };
}

/** The fitted line's slope and its values at `from` (x = 0) and `to` (x = span). */
function trendLine(xs: readonly number[], ys: readonly number[], span: number): TrendLine {
  const { slope, intercept } = leastSquares(xs, ys);
  return {
    slopePerDay: statistic(slope),
    start: statistic(intercept),
    end: statistic(intercept + slope * span),
  };
}
