/**
 * The series of every currency, read from memory: the dollar's own, and each derived one built by
 * joining the currency's cross rates with the dollar's series of the same days (domain/derive.ts).
 * A derived series is loaded when first asked for and dropped with the dollar's whenever rates
 * change. At most MAX_DERIVED_LOADED are held at once, the least recently read let go first, so
 * memory stays bounded however many of the 42 currencies are asked for (bench/README.md has the
 * figure).
 */
import { DOLLAR, derivedCurrency, PROVISIONAL_CURRENCIES, type DerivedCurrency } from '../../shared/currency-catalog';
import type { ExchangeRate, ProvisionalRate } from '../../shared/types';
import { derivedRecord } from '../domain/derive';
import { provisionalRecord } from '../domain/provisional';
import type { CrossRatesStore } from './cross-rates';
import type { ProvisionalRatesStore } from './provisional-rates';
import { cachedSeries, type RateSeries, readSeries } from './series-reader';

export const MAX_DERIVED_LOADED = 8;
/** How long a provisional lookup is reused: a sync's write drops it at once anyway (ratesChanged). */
export const PROVISIONAL_TTL_MS = 60_000;
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
  /**
   * Today's provisional record of a code (Hacienda's euro, `buy: null`), or null: never part of
   * `of(code)`, so no window, statistic or chart ever holds it. The caller decides whether the
   * series' own record wins (it always does once stored).
   */
  provisional(code: string, today: string): Promise<ProvisionalRate | null>;
}

export function createCurrencySeries(deps: {
  dollar: RateSeries;
  cross: CrossRatesStore;
  /** Absent: no provisional values (a store that predates them, or tests of the series alone). */
  provisional?: Pick<ProvisionalRatesStore, 'byDate'>;
  onRatesChanged: (listener: () => void) => void;
  now?: () => number;
}): CurrencySeries {
  const loaded = new Map<string, RateSeries>();
  // One listener for all of them: a change drops every derived series (the dollar's drops itself).
  const provisional = new Map<string, { at: number; record: Promise<ProvisionalRate | null> }>();
  const now = deps.now ?? Date.now;
  deps.onRatesChanged(() => {
    loaded.clear();
    provisional.clear();
  });
  const build = (currency: DerivedCurrency): RateSeries => {
    const current = cachedSeries(
      async () => {
        const [dollar, cross] = await Promise.all([deps.dollar.range(...ALL), deps.cross.range(currency.code, ...ALL)]);
        return deriveSeries(currency, dollar, cross);
      },
      () => undefined,
      deps.now,
    );
    return readSeries(current);
  };
  const readProvisional = async (currency: DerivedCurrency, today: string): Promise<ProvisionalRate | null> => {
    const [value, dollar] = await Promise.all([deps.provisional?.byDate(currency.code, today), deps.dollar.byDate(today)]);
    return value ? provisionalRecord(currency, value, dollar) : null;
  };
  return {
    provisional(code, today) {
      const currency = derivedCurrency(code);
      if (!currency || !deps.provisional || !PROVISIONAL_CURRENCIES.includes(code)) return Promise.resolve(null);
      const key = `${code} ${today}`;
      const cached = provisional.get(key);
      if (cached && now() - cached.at < PROVISIONAL_TTL_MS) return cached.record;
      const record = readProvisional(currency, today);
      provisional.clear();
      provisional.set(key, { at: now(), record });
      // A failed lookup is not kept: the next request asks again.
      record.catch(() => provisional.delete(key));
      return record;
    },
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
