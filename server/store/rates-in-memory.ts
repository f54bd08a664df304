/**
 * The official series kept in memory for reading: some 16,000 small records since 1983 that only
 * change when a sync writes. Every read route (latest, a day, windows, conversions, charts, the
 * site's widgets, insights) is then a binary search and a slice instead of a query; a 20,000-day
 * chart no longer waits for the database to hand over every row. Dropped when rates change (the
 * change feed reaches every instance), and reloaded after a few minutes anyway in case a notice
 * was missed. Period stats stay in SQL, and health asks the database itself.
 */
import { dayNumber } from '../../shared/dates';
import type { ExchangeRate } from '../../shared/types';
import { columnsOf } from '../domain/series';
import type { RateColumns, RatePoint } from '../domain/types';
import type { RatesStore } from './rates';

export const SERIES_TTL_MS = 5 * 60_000;

interface Series {
  records: ExchangeRate[];
  /** The same days as calculations take them, with their day numbers worked out once. */
  points: RatePoint[];
  dates: string[];
  /** And as columns, for the long windows of charts. */
  days: Float64Array;
  buys: Float64Array;
  sells: Float64Array;
  loadedAt: number;
}

/** The first index whose date is not before `date` (dates ascending). */
function lowerBound(dates: readonly string[], date: string): number {
  let lo = 0;
  let hi = dates.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((dates[mid] as string) < date) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function createRatesInMemory(store: RatesStore, onRatesChanged: (listener: () => void) => void, now: () => number = Date.now) {
  let loaded: Series | null = null;
  let loading: Promise<Series> | null = null;
  let generation = 0;
  onRatesChanged(() => {
    generation++;
    loaded = null;
    loading = null;
  });

  const load = (): Promise<Series> => {
    const started = generation;
    const pending = store
      .range('0001-01-01', '9999-12-31')
      .then((records) => {
        const points = records.map(({ date, buy, sell }) => ({ date, buy, sell, day: dayNumber(date) }));
        const { dates, days, buys, sells } = columnsOf(points);
        const series = { records, points, dates, days, buys, sells, loadedAt: now() };
        // A load that raced with a change still answers its callers, but is not kept for later ones.
        if (started === generation) loaded = series;
        return series;
      })
      .finally(() => {
        if (loading === pending) loading = null;
      });
    return pending;
  };

  /** The series, loaded at most once at a time however many requests ask for it. */
  const current = (): Promise<Series> => {
    if (loaded && now() - loaded.loadedAt < SERIES_TTL_MS) return Promise.resolve(loaded);
    loading ??= load();
    return loading;
  };

  const slice = async <K extends 'records' | 'points'>(kind: K, from: string, to: string): Promise<Series[K]> => {
    const series = await current();
    return series[kind].slice(lowerBound(series.dates, from), lowerBound(series.dates, `${to}\uffff`)) as Series[K];
  };

  return {
    ...store,
    async latest(today: string): Promise<ExchangeRate | null> {
      const { records, dates } = await current();
      return records[lowerBound(dates, `${today}\uffff`) - 1] ?? null;
    },
    async byDate(date: string): Promise<ExchangeRate | null> {
      const { records, dates } = await current();
      const i = lowerBound(dates, date);
      return dates[i] === date ? (records[i] ?? null) : null;
    },
    /** The first and last stored days: what a 404 for a day says the series spans. */
    async earliestDate(): Promise<string | null> {
      return (await current()).dates[0] ?? null;
    },
    async lastStoredDate(): Promise<string | null> {
      return (await current()).dates.at(-1) ?? null;
    },
    range: (from: string, to: string): Promise<ExchangeRate[]> => slice('records', from, to),
    points: (from: string, to: string): Promise<RatePoint[]> => slice('points', from, to),
    /** A window as columns: views of the series, nothing copied but the dates' references. */
    async columns(from: string, to: string): Promise<RateColumns> {
      const { dates, days, buys, sells } = await current();
      const start = lowerBound(dates, from);
      const end = lowerBound(dates, `${to}\uffff`);
      return { dates: dates.slice(start, end), days: days.subarray(start, end), buys: buys.subarray(start, end), sells: sells.subarray(start, end) };
    },
  };
}
