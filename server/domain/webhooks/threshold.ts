/**
 * `threshold.crossed`: a subscription's line on one side of the rate (above n, below n, or both).
 * It fires once when a newly stored rate crosses to the far side, and is re-armed when a later rate
 * is back on the near side. The state is which side the last rate was on.
 */
export interface Threshold {
  side: 'buy' | 'sell';
  above?: number;
  below?: number;
}

/** Where a value stands: `above` past the upper line, `below` past the lower one, `inside` otherwise. */
export type ThresholdState = 'above' | 'below' | 'inside';

export function stateOf(threshold: Threshold, value: number): ThresholdState {
  if (threshold.above !== undefined && value > threshold.above) return 'above';
  if (threshold.below !== undefined && value < threshold.below) return 'below';
  return 'inside';
}

/**
 * Whether moving from `previous` to `next` crosses a line. A subscription starts from where the
 * latest stored rate stands when it is made; with no rate stored then (null), the first rate seen
 * only arms it.
 */
export function crossed(previous: ThresholdState | null, next: ThresholdState): 'above' | 'below' | null {
  if (previous === null || previous === next || next === 'inside') return null;
  return next;
}
