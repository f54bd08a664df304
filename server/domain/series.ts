import { dayNumber } from '../../shared/dates';
import type { RateColumns, RatePoint } from './types';

/**
 * The x axis shared by analytics and the chart: calendar days since the first point's date.
 * Calendar days, not indexes: the series may have gaps, and a gap is time that passed.
 *
 * It also checks the contract both callers rely on (non-empty, valid dates, strictly ascending)
 * and throws instead of returning a meaningless slope for out-of-order input.
 */
export function dayOffsets(points: readonly RatePoint[]): number[] {
  if (points.length === 0) throw new RangeError('a series needs at least one point');
  const day = (point: RatePoint) => point.day ?? dayNumber(point.date);
  const origin = day(points[0]);
  const xs = new Array<number>(points.length);
  let previous = -1;
  for (let i = 0; i < points.length; i++) {
    const x = day(points[i]) - origin;
    // `!(x > previous)` also catches NaN from a malformed date.
    if (!(x > previous)) {
      throw new RangeError(`points must be strictly ascending valid dates; got ${points[i].date} at index ${i}`);
    }
    xs[i] = x;
    previous = x;
  }
  return xs;
}

/** The same x axis over a series' columns: its day numbers less the first one's. */
export function offsetsOfDays(days: ArrayLike<number>): Float64Array {
  const origin = days[0] as number;
  const xs = new Float64Array(days.length);
  for (let i = 0; i < days.length; i++) xs[i] = (days[i] as number) - origin;
  return xs;
}

/**
 * The columns of an array of points (whose chart points are made anew on each call), checked as
 * the chart relies on them: valid dates, strictly ascending.
 */
export function columnsOf(points: readonly RatePoint[]): RateColumns & { dates: string[]; days: Float64Array; buys: Float64Array; sells: Float64Array } {
  const dates = points.map((p) => p.date);
  const days = Float64Array.from(points, (p) => p.day ?? dayNumber(p.date));
  for (let i = 0; i < days.length; i++) {
    // `!(a > b)` also catches NaN from a malformed date.
    if (!((days[i] as number) > (i === 0 ? Number.NEGATIVE_INFINITY : (days[i - 1] as number)))) {
      throw new RangeError(`points must be strictly ascending valid dates; got ${dates[i]} at index ${i}`);
    }
  }
  const buys = Float64Array.from(points, (p) => p.buy);
  const sells = Float64Array.from(points, (p) => p.sell);
  return {
    dates,
    days,
    buys,
    sells,
    date: (i) => dates[i] as string,
    point: (i) => ({ date: dates[i] as string, buy: buys[i] as number, sell: sells[i] as number }),
  };
}
