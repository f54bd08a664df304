/**
 * The best-rate ranking of the window quotes (docs/api.md). `operation` is the
 * institution's side: `buy` ranks who pays the most colones for your dollars, `sell` who charges
 * the fewest. Fresh quotes come before stale ones; equal quotes share a rank (1, 1, 3).
 */
import type { RateSide } from '../../shared/currencies';
import type { Institution, RankedInstitution } from '../../shared/types';
import { statistic } from './rounding';

export interface OfficialRate {
  buy: number;
  sell: number;
}

export function rankInstitutions(institutions: readonly Institution[], operation: RateSide, official: OfficialRate | null): RankedInstitution[] {
  const better = operation === 'buy' ? (a: number, b: number) => b - a : (a: number, b: number) => a - b;
  const order = [...institutions].sort(
    (a, b) => Number(a.stale) - Number(b.stale) || better(a[operation], b[operation]) || a.name.localeCompare(b.name, 'es', { sensitivity: 'base' }),
  );
  const ranked: RankedInstitution[] = [];
  order.forEach((institution, i) => {
    const previous = ranked[i - 1];
    const tied = previous !== undefined && previous.stale === institution.stale && previous[operation] === institution[operation];
    ranked.push({
      rank: tied ? previous.rank : i + 1,
      ...institution,
      vsOfficial: official ? statistic(institution[operation] - official[operation]) : null,
    });
  });
  return ranked;
}
