/**
 * The provenance of a derived day: its two inputs (the dollar's rate and the cross rate of the same
 * day) each have their own log of readings and revisions; the derived record's are worked out from
 * both. A revision of either input is a revision of the derived day, its values before derived
 * with the other input as it stands.
 */
import type { DerivedCurrency } from '../../shared/currency-catalog';
import type { ProvenanceRevision, Revision } from '../../shared/types';
import { colonesPerUnit } from './derive';

export interface CrossRevisionInput {
  date: string;
  value: number;
  source: ProvenanceRevision['source'];
  observedAt: string;
  newValue: number;
  newSource: ProvenanceRevision['source'];
  replacedAt: string;
}

export interface DollarValues {
  buy: number;
  sell: number;
  source: ProvenanceRevision['source'];
}

const derive = (currency: DerivedCurrency, dollar: { buy: number; sell: number }, published: number) => ({
  buy: colonesPerUnit(dollar.buy, published, currency.quote),
  sell: colonesPerUnit(dollar.sell, published, currency.quote),
});

/** The values a derived day had before, oldest first: from its cross rate's revisions and the dollar's. */
export function derivedDayRevisions(
  currency: DerivedCurrency,
  now: { dollar: DollarValues; published: number; source: ProvenanceRevision['source'] },
  cross: readonly CrossRevisionInput[],
  dollar: readonly ProvenanceRevision[],
): ProvenanceRevision[] {
  const revisions = [
    ...cross.map((r) => ({ ...derive(currency, now.dollar, r.value), source: r.source, observedAt: r.observedAt, replacedAt: r.replacedAt })),
    ...dollar.map((r) => ({ ...derive(currency, r, now.published), source: now.source, observedAt: r.observedAt, replacedAt: r.replacedAt })),
  ];
  return revisions.sort((a, b) => (a.replacedAt < b.replacedAt ? -1 : a.replacedAt > b.replacedAt ? 1 : 0));
}

/**
 * The revisions of a currency's days in a span, ascending by day then time: each cross revision
 * with the dollar's rate of its day, each revision of the dollar with the day's cross rate.
 * `dollarOf` and `publishedOf` give the inputs as they stand (undefined: that day has none).
 */
export function derivedSpanRevisions(
  currency: DerivedCurrency,
  cross: readonly CrossRevisionInput[],
  dollar: readonly Revision[],
  dollarOf: (date: string) => DollarValues | undefined,
  publishedOf: (date: string) => { value: number; source: ProvenanceRevision['source'] } | undefined,
): Revision[] {
  const revisions: Revision[] = [];
  for (const r of cross) {
    const usd = dollarOf(r.date);
    if (!usd) continue;
    revisions.push({
      date: r.date,
      before: { ...derive(currency, usd, r.value), source: r.source },
      after: { ...derive(currency, usd, r.newValue), source: r.newSource },
      revisedAt: r.replacedAt,
    });
  }
  for (const r of dollar) {
    const published = publishedOf(r.date);
    if (!published) continue;
    revisions.push({
      date: r.date,
      before: { ...derive(currency, r.before, published.value), source: published.source },
      after: { ...derive(currency, r.after, published.value), source: published.source },
      revisedAt: r.revisedAt,
    });
  }
  const key = (r: Revision) => `${r.date} ${r.revisedAt}`;
  return revisions.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}
