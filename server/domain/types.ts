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
