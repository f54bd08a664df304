/**
 * The bounds a row must meet before it is stored: 0 < buy ≤ sell, both inside a plausible band,
 * and a spread under 50 colones. A row that fails is rejected and logged by the caller, never
 * stored: one absurd value would poison every statistic after it.
 */
import { daysBetween, isIsoDate } from '../../shared/dates';

export const SANITY_BOUNDS = {
  /** CRC per USD today. The colón has stayed far inside this band since the mid-1990s. */
  minRate: 100,
  maxRate: 2000,
  /** The colón stood near 40 per dollar in 1983 and passed 100 around 1990: older rows get their own band. */
  early: { until: '1995-01-01', minRate: 20, maxRate: 400 },
  /** sell − buy must stay strictly under this. */
  maxSpread: 50,
  /** Tomorrow's value is published the afternoon before (after the MONEX session). */
  maxDaysAhead: 1,
  /** The official history starts in 1983. */
  firstDate: '1983-01-01',
} as const;

/** Null when the row is plausible, otherwise the reason it is not. `today` is Costa Rica's day. */
export function checkRate(r: { date: string; buy: number; sell: number }, today: string): string | null {
  const b = SANITY_BOUNDS;
  if (!isIsoDate(today)) throw new RangeError(`today ${JSON.stringify(today)} is not a YYYY-MM-DD calendar day`);
  if (!isIsoDate(r.date)) return `date ${JSON.stringify(r.date)} is not a YYYY-MM-DD calendar day`;
  if (r.date < b.firstDate) return `date ${r.date} is before the official history (${b.firstDate})`;
  if (daysBetween(today, r.date) > b.maxDaysAhead) return `date ${r.date} is more than ${b.maxDaysAhead} day after today (${today})`;
  if (!Number.isFinite(r.buy) || !Number.isFinite(r.sell)) return `buy ${r.buy} / sell ${r.sell} is not a finite number`;
  if (r.buy <= 0) return `buy ${r.buy} is not positive`;
  if (r.buy > r.sell) return `buy ${r.buy} is above sell ${r.sell}`;
  const band = r.date < b.early.until ? b.early : b;
  for (const [side, value] of [
    ['buy', r.buy],
    ['sell', r.sell],
  ] as const) {
    if (value < band.minRate || value > band.maxRate) return `${side} ${value} is outside ${band.minRate}..${band.maxRate} CRC`;
  }
  if (r.sell - r.buy >= b.maxSpread) return `spread ${(r.sell - r.buy).toFixed(2)} is not under ${b.maxSpread} CRC`;
  return null;
}
