import type { ChartPoint } from '../../shared/types';
import type { Line } from './regression';

/** The input every calculation in this layer works on: one official quote per calendar day. */
export interface RatePoint {
  /** `YYYY-MM-DD`. Arrays of points are ascending by date; days without a quote may be missing. */
  date: string;
  buy: number;
  sell: number;
  /**
   * The date as days since 1970-01-01, when the caller has it already: a series kept in memory
   * works it out once, instead of every chart over 40 years parsing 16,000 dates again.
   */
  day?: number;
}

/**
 * A series as columns, ascending by date, every column the same length: what a long window is
 * read as when only a few of its points end up in the answer (a chart over 40 years keeps 500 of
 * 15,000). Typed arrays cut from the series kept in memory without copying; walking them costs a
 * fraction of walking 15,000 objects.
 */
export interface RateColumns {
  /** The window's `i`-th day, `YYYY-MM-DD` (the series in memory hands out its own, copying none). */
  date(i: number): string;
  /** Days since 1970-01-01. */
  readonly days: ArrayLike<number>;
  readonly buys: ArrayLike<number>;
  readonly sells: ArrayLike<number>;
  /**
   * The window's `i`-th day as a chart point. The series in memory hands out the same frozen
   * object each time, so a point's JSON is written once, however many charts keep it.
   */
  point(i: number): ChartPoint;
  /**
   * The least-squares line of one side over the window's days (x = 0 on its first day), when the
   * series keeps the sums that give it at once (line-sums.ts); absent, the chart fits the window.
   */
  fit?(side: 'buy' | 'sell'): Line;
}
