/** The input every calculation in this layer works on: one official quote per calendar day. */
export interface RatePoint {
  /** `YYYY-MM-DD`. Arrays of points are ascending by date; days without a quote may be missing. */
  date: string;
  buy: number;
  sell: number;
}
