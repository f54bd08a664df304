/** From a stored window quote to the API's Institution: its spread and whether it is stale. */
import { calendarDay } from '../../shared/dates';
import type { InstitutionType } from '../../shared/institutions';
import type { Institution } from '../../shared/types';
import { statistic } from './rounding';

/** A window quote with its institution, as stored, before the API's derived fields are added. */
export interface Quote {
  id: string;
  name: string;
  type: InstitutionType;
  buy: number;
  sell: number;
  updatedAt: Date | null;
}

const byName = new Intl.Collator('es', { sensitivity: 'base' });

/** Stale when the institution's own last update falls on a Costa Rica day before the snapshot's. */
export function describeQuote(quote: Quote, snapshotDate: string): Institution {
  return {
    id: quote.id,
    name: quote.name,
    type: quote.type,
    buy: quote.buy,
    sell: quote.sell,
    spread: statistic(quote.sell - quote.buy),
    updatedAt: quote.updatedAt?.toISOString() ?? null,
    stale: quote.updatedAt !== null && calendarDay(quote.updatedAt) < snapshotDate,
  };
}

/** Ordered by name as a Spanish reader expects: case and accents ignored. */
export function sortByName<T extends { name: string }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => byName.compare(a.name, b.name));
}
