/**
 * The official series kept in memory for reading: some 16,000 small records since 1983 that only
 * change when a sync writes. Every read route (latest, a day, windows, conversions, charts, the
 * site's widgets, insights, period statistics) is then a binary search and a slice instead of a
 * query; a 20,000-day chart no longer waits for the database to hand over every row. Dropped when
 * rates change (the change feed reaches every instance), and reloaded after a few minutes anyway
 * in case a notice was missed. Health asks the database itself.
 */
import type { RatesStore } from './rates';
import { cachedSeries, type RateSeries, readSeries } from './series-reader';

export { SERIES_TTL_MS } from './series-reader';

export function createRatesInMemory(
  store: RatesStore,
  onRatesChanged: (listener: () => void) => void,
  now: () => number = Date.now,
): Omit<RatesStore, keyof RateSeries> & RateSeries {
  const current = cachedSeries(() => store.range('0001-01-01', '9999-12-31'), onRatesChanged, now);
  return { ...store, ...readSeries(current) };
}
