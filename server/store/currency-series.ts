/**
 * The series of every currency, read from memory: the dollar's own, and each derived one built by
 * joining the currency's cross rates with the dollar's series of the same days (domain/derive.ts).
 * A derived series is loaded when first asked for and dropped with the dollar's whenever rates
 * change. At most MAX_DERIVED_LOADED are held at once, the least recently read let go first, so
 * memory stays bounded however many of the 42 currencies are asked for (bench/README.md has the
 * figure).
 */
import { DOLLAR, derivedCurrency, type DerivedCurrency } from '../../shared/currency-catalog';
import type { ExchangeRate } from '../../shared/types';
import { derivedRecord } from '../domain/derive';
import { periodStatsOf } from '../domain/period-stats';
import type { CrossRatesStore } from './cross-rates';
import { cachedSeries, type RateSeries, readSeries } from './series-reader';

export const MAX_DERIVED_LOADED = 8;
const ALL = ['0001-01-01', '9999-12-31'] as const;

/** Joins a currency's cross rates with the dollar's records (both ascending); a day the dollar lacks has no derived rate. */
export function deriveSeries(currency: DerivedCurrency, dollar: readonly ExchangeRate[], cross: Awaited<ReturnType<CrossRatesStore['range']>>): ExchangeRate[] {
  const records: ExchangeRate[] = [];
  let i = 0;
  for (const value of cross) {
    while (i < dollar.length && (dollar[i] as ExchangeRate).date < value.date) i++;
    const usd = dollar[i];
    if (usd?.date === value.date) records.push(derivedRecord(currency, usd, value));
  }
  return records;
}

export interface CurrencySeries {
  /** The series of a code from the catalog (upper case); USD is the official one. */
  of(code: string): RateSeries;
}

export function createCurrencySeries(deps: {
  dollar: RateSeries;
  cross: CrossRatesStore;
  onRatesChanged: (listener: () => void) => void;
  now?: () => number;
}): CurrencySeries {
  const loaded = new Map<string, RateSeries>();
  // One listener for all of them: a change drops every derived series (the dollar's drops itself).
  deps.onRatesChanged(() => loaded.clear());
  const build = (currency: DerivedCurrency): RateSeries => {
    const current = cachedSeries(
      async () => {
        const [dollar, cross] = await Promise.all([deps.dollar.range(...ALL), deps.cross.range(currency.code, ...ALL)]);
        return deriveSeries(currency, dollar, cross);
      },
      () => undefined,
      deps.now,
    );
    const reads = readSeries(current);
    return { ...reads, periodStats: async (kind, from, to) => periodStatsOf(await reads.range(from, to), kind) };
  };
  return {
    of(code) {
      if (code === DOLLAR.code) return deps.dollar;
      const currency = derivedCurrency(code);
      if (!currency) throw new RangeError(`${code} is not in the currency catalog`);
      let series = loaded.get(code);
      if (series) loaded.delete(code);
      else series = build(currency);
      // Re-inserted last: the Map's order is then the order of last use.
      loaded.set(code, series);
      if (loaded.size > MAX_DERIVED_LOADED) loaded.delete(loaded.keys().next().value as string);
      return series;
    },
  };
}
