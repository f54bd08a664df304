import type { Analytics, SideAnalytics, Trend } from '../../shared/types';
import { Dec } from './decimal';
import { leastSquares } from './regression';
import { statistic } from './rounding';
import { dayOffsets } from './series';
import type { RatePoint } from './types';

type Side = 'buy' | 'sell';

const SCALE = 10_000;

/**
 * The Analytics object of docs/api.md for a non-empty series, ascending by date.
 * One pass per side plus the two O(n) passes of the regression, so 20,000 days stay cheap.
 */
export function analyze(points: readonly RatePoint[]): Analytics {
  const xs = dayOffsets(points);
  return {
    from: points[0].date,
    to: points[points.length - 1].date,
    count: points.length,
    buy: analyzeSide(points, xs, 'buy'),
    sell: analyzeSide(points, xs, 'sell'),
  };
}

/**
 * `up`/`down` by the slope's sign when the line moves at least 0.1 % of the average over the
 * span of the data, else `stable`. Takes the unrounded values: rounding the slope to 4 decimals
 * first could flip the decision near the threshold.
 *
 * The comparison is written as 1000·|move| ≥ |average| because 1000 is exact in binary and
 * 0.001 is not, so a move of exactly 0.1 % is counted as `up`/`down`, as "≥" says.
 */
export function trendOf(slopePerDay: number, spanDays: number, average: number): Trend {
  if (slopePerDay === 0) return 'stable';
  const move = Math.abs(slopePerDay * spanDays);
  if (1000 * move < Math.abs(average)) return 'stable';
  return slopePerDay > 0 ? 'up' : 'down';
}

function analyzeSide(points: readonly RatePoint[], xs: readonly number[], side: Side): SideAnalytics {
  const n = points.length;
  const ys = new Array<number>(n);
  // Exact sum: the average is a money-derived figure and must not carry float drift. Rates have
  // at most 4 decimals (NUMERIC(12,4)), so they add up exactly as integers of 1/10,000 colón;
  // a value with more decimals sends the sum through decimal arithmetic instead.
  let scaledSum = 0;
  let exactAsScaled = true;
  let min = Infinity;
  let minDate = '';
  let max = -Infinity;
  let maxDate = '';
  // Welford's running mean and sum of squared deviations of the percentage changes: one pass,
  // and no cancellation from subtracting Σx² and (Σx)²/n.
  let changes = 0;
  let meanChange = 0;
  let squaredDeviations = 0;

  for (let i = 0; i < n; i++) {
    const v = points[i][side];
    // A rate is a positive number of colones; zero would make the percentages infinite.
    if (!(Number.isFinite(v) && v > 0)) {
      throw new RangeError(`${side} on ${points[i].date} must be a positive number, got ${v}`);
    }
    ys[i] = v;
    const scaled = Math.round(v * SCALE);
    if (Math.abs(v * SCALE - scaled) > 1e-6) exactAsScaled = false;
    scaledSum += scaled;
    // Strict comparisons keep the earliest date of a repeated extreme (docs/api.md: minDate/maxDate).
    if (v < min) {
      min = v;
      minDate = points[i].date;
    }
    if (v > max) {
      max = v;
      maxDate = points[i].date;
    }
    if (i > 0) {
      const pct = (v / ys[i - 1] - 1) * 100;
      changes++;
      const delta = pct - meanChange;
      meanChange += delta / changes;
      squaredDeviations += delta * (pct - meanChange);
    }
  }

  const first = ys[0];
  const last = ys[n - 1];
  const sum = exactAsScaled ? new Dec(scaledSum).div(SCALE) : ys.reduce((total, v) => total.plus(v), new Dec(0));
  const average = sum.div(n);
  // Fewer than 3 records means at most one change: no spread to measure (docs/api.md says 0).
  const volatility = n < 3 ? 0 : Math.sqrt(squaredDeviations / (changes - 1));
  const slopePerDay = n === 1 ? 0 : leastSquares(xs, ys).slope;
  const change = new Dec(last).minus(first);

  return {
    average: statistic(average),
    min,
    minDate,
    max,
    maxDate,
    first,
    last,
    change: statistic(change),
    changePercent: statistic(change.div(first).times(100)),
    volatility: statistic(volatility),
    trend: trendOf(slopePerDay, xs[n - 1], average.toNumber()),
    slopePerDay: statistic(slopePerDay),
  };
}
