/** The verdict of `/insights`: what the window did to the colón, read from one number. */
import type { Verdict } from '../../../shared/types';

/**
 * A quarter of a percent either way is the line between a move and noise (docs/api.md).
 * The sell rate is colones per dollar, so fewer colones (a negative change) means a stronger
 * colón. Both ends are inclusive: exactly −0.25 is appreciation, exactly 0.25 depreciation.
 */
export const VERDICT_THRESHOLD_PERCENT = 0.25;

export function verdictOf(sellChangePercent: number): Verdict {
  if (!Number.isFinite(sellChangePercent)) throw new RangeError(`changePercent must be a finite number, got ${sellChangePercent}`);
  if (sellChangePercent <= -VERDICT_THRESHOLD_PERCENT) return 'appreciation';
  if (sellChangePercent >= VERDICT_THRESHOLD_PERCENT) return 'depreciation';
  return 'stable';
}
