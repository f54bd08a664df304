/**
 * A series of daily records held in memory and read by binary search: what every read route asks
 * of a currency's rates, the dollar's (rates-in-memory.ts) and each derived one's
 * (currency-series.ts) alike.
 */
import { dayNumber } from '../../shared/dates';
import type { ChartPoint, ExchangeRate, PeriodStats } from '../../shared/types';
import { deepFreeze } from '../domain/freeze';
import { type PeriodKind, periodOf, statsOfPeriod } from '../domain/period-stats';
import { type LineSums, lineSums } from '../domain/line-sums';
import { columnsOf } from '../domain/series';
import { frozenSlice } from '../domain/slices';
import type { RateColumns, RatePoint } from '../domain/types';

export const SERIES_TTL_MS = 5 * 60_000;

export interface LoadedSeries {
  /** Frozen, as each record is: its windows are written from texts kept for it (answer-json.ts). */
  records: readonly ExchangeRate[];
  /** The same days as calculations take them, with their day numbers worked out once. */
  points: RatePoint[];
  dates: string[];
  /** And as columns, for the long windows of charts. */
  days: Float64Array;
  buys: Float64Array;
  sells: Float64Array;
  loadedAt: number;
  /** The days grouped by period, per kind, made the first time that kind's statistics are asked for (periodIndexOf). */
  periods: Partial<Record<PeriodKind, PeriodIndex>>;
  /** Each day as a chart point, made the first time a chart keeps it (plottedPoint). */
  plotted: Array<ChartPoint | undefined>;
  /** The running sums that fit each side's line over a window, made for the first chart (lineSumsOf). */
  lines?: Record<'buy' | 'sell', LineSums> | null;
}

/** What the read routes ask of one currency's series. */
export interface RateSeries {
  latest(today: string): Promise<ExchangeRate | null>;
  byDate(date: string): Promise<ExchangeRate | null>;
  /** The latest record before `date`: what a day without a rate carries with fill=previous. */
  before(date: string): Promise<ExchangeRate | null>;
  /** The records of [from, to], frozen: a part of the series that answer-json.ts writes from its kept text. */
  range(from: string, to: string): Promise<readonly ExchangeRate[]>;
  points(from: string, to: string): Promise<RatePoint[]>;
  columns(from: string, to: string): Promise<RateColumns>;
  earliestDate(): Promise<string | null>;
  lastStoredDate(): Promise<string | null>;
  periodStats(kind: PeriodKind, from: string, to: string): Promise<PeriodStats[]>;
}

/**
 * The series made of `records`, which it takes over: they and the array are frozen in place, not
 * copied (a whole history is some 16,000 records, read from the store for this alone).
 */
export function loadedSeries(records: ExchangeRate[], loadedAt: number): LoadedSeries {
  // Handed out to every request: frozen, so none can change one, and each one's JSON is written once.
  for (const record of records) deepFreeze(record);
  Object.freeze(records);
  const points = records.map(({ date, buy, sell }) => ({ date, buy, sell, day: dayNumber(date) }));
  const { dates, days, buys, sells } = columnsOf(points);
  return {
    records,
    points,
    dates,
    days,
    buys,
    sells,
    loadedAt,
    periods: {},
    plotted: new Array<ChartPoint | undefined>(records.length).fill(undefined),
  };
}

/** The series' running sums for its trend lines, made once; null when its values keep none. */
function lineSumsOf(series: LoadedSeries): Record<'buy' | 'sell', LineSums> | null {
  if (series.lines === undefined) {
    const buy = lineSums(series.days, series.buys);
    const sell = lineSums(series.days, series.sells);
    series.lines = buy && sell ? { buy, sell } : null;
  }
  return series.lines;
}

/**
 * The series' `index`-th day as a chart point, the same frozen object for every chart that keeps
 * it: its JSON is written once (http/answer-json.ts), where a chart of 500 new points spent more
 * time writing them than choosing them.
 */
function plottedPoint(series: LoadedSeries, index: number): ChartPoint {
  let point = series.plotted[index];
  if (point === undefined) {
    point = Object.freeze({ date: series.dates[index] as string, buy: series.buys[index] as number, sell: series.sells[index] as number });
    series.plotted[index] = point;
  }
  return point;
}

/** The first index below `length` at which `before` turns false (it holds for a prefix of the indexes). */
function partitionPoint(length: number, before: (index: number) => boolean): number {
  let lo = 0;
  let hi = length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (before(mid)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The first index whose date is not before `date` (dates ascending). */
const lowerBound = (dates: readonly string[], date: string): number => partitionPoint(dates.length, (i) => (dates[i] as string) < date);

/**
 * A series loaded at most once at a time however many requests ask for it, dropped when rates
 * change (`onChanged`) and reloaded after SERIES_TTL_MS anyway, in case a notice was missed.
 */
export function cachedSeries(load: () => Promise<ExchangeRate[]>, onChanged: (listener: () => void) => void, now: () => number = Date.now) {
  let loaded: LoadedSeries | null = null;
  let loading: Promise<LoadedSeries> | null = null;
  let generation = 0;
  onChanged(() => {
    generation++;
    loaded = null;
    loading = null;
  });
  const reload = (): Promise<LoadedSeries> => {
    const started = generation;
    const pending = load()
      .then((records) => {
        const series = loadedSeries(records, now());
        // A load that raced with a change still answers its callers, but is not kept for later ones.
        if (started === generation) loaded = series;
        return series;
      })
      .finally(() => {
        if (loading === pending) loading = null;
      });
    return pending;
  };
  return (): Promise<LoadedSeries> => {
    if (loaded && now() - loaded.loadedAt < SERIES_TTL_MS) return Promise.resolve(loaded);
    loading ??= reload();
    return loading;
  };
}

/** A series' days grouped by the periods of one kind. */
interface PeriodIndex {
  names: string[];
  /** Where each period's days start in the series; one more entry: the series' length. */
  starts: number[];
  /** Each period's statistics, once asked for whole (all of its days in the series). */
  whole: Array<PeriodStats | undefined>;
}

function periodIndexOf(series: LoadedSeries, kind: PeriodKind): PeriodIndex {
  let index = series.periods[kind];
  if (!index) {
    const names: string[] = [];
    const starts: number[] = [];
    series.dates.forEach((date, i) => {
      const period = periodOf(date, kind);
      if (period !== names.at(-1)) {
        names.push(period);
        starts.push(i);
      }
    });
    starts.push(series.dates.length);
    index = { names, starts, whole: new Array<PeriodStats | undefined>(names.length).fill(undefined) };
    series.periods[kind] = index;
  }
  return index;
}

/** The first index whose value is above `value` (values ascending). */
const upperBound = (values: readonly number[], value: number): number => partitionPoint(values.length, (i) => (values[i] as number) <= value);

/**
 * The statistics of each period [from, to] reaches into. A period the range holds whole (all of
 * its records in the series) is the same whatever the range asked: computed once per loaded
 * series, so that a whole history's months cost a lookup each, not the sums of 16,000 records.
 * The periods' bounds are worked out once per series and kind, not per request.
 */
function periodStatsIn(series: LoadedSeries, kind: PeriodKind, from: string, to: string): PeriodStats[] {
  const { dates, records } = series;
  const start = lowerBound(dates, from);
  const end = lowerBound(dates, `${to}\uffff`);
  const periods: PeriodStats[] = [];
  if (start >= end) return periods;
  const { names, starts, whole } = periodIndexOf(series, kind);
  for (let p = upperBound(starts, start) - 1; (starts[p] as number) < end; p++) {
    const first = Math.max(starts[p] as number, start);
    const next = Math.min(starts[p + 1] as number, end);
    const name = names[p] as string;
    if (first === starts[p] && next === starts[p + 1]) {
      // Handed to every request that covers the period: frozen, and its JSON written once (answer-json.ts).
      let stats = whole[p];
      if (stats === undefined) {
        stats = deepFreeze(statsOfPeriod(name, records.slice(first, next)));
        whole[p] = stats;
      }
      periods.push(stats);
    } else periods.push(statsOfPeriod(name, records.slice(first, next)));
  }
  return periods;
}

/** The reads of a series kept in memory. */
export function readSeries(current: () => Promise<LoadedSeries>): RateSeries {
  const bounds = ({ dates }: LoadedSeries, from: string, to: string) => [lowerBound(dates, from), lowerBound(dates, `${to}\uffff`)] as const;
  return {
    async latest(today) {
      const { records, dates } = await current();
      return records[lowerBound(dates, `${today}\uffff`) - 1] ?? null;
    },
    async byDate(date) {
      const { records, dates } = await current();
      const i = lowerBound(dates, date);
      return dates[i] === date ? (records[i] ?? null) : null;
    },
    async before(date) {
      const { records, dates } = await current();
      return records[lowerBound(dates, date) - 1] ?? null;
    },
    async earliestDate() {
      return (await current()).dates[0] ?? null;
    },
    async lastStoredDate() {
      return (await current()).dates.at(-1) ?? null;
    },
    async range(from, to) {
      const series = await current();
      return frozenSlice(series.records, ...bounds(series, from, to));
    },
    async points(from, to) {
      const series = await current();
      return series.points.slice(...bounds(series, from, to));
    },
    periodStats: async (kind, from, to) => periodStatsIn(await current(), kind, from, to),
    /** A window as columns: views of the series, nothing copied but the dates' references. */
    async columns(from, to) {
      const series = await current();
      const { dates, days, buys, sells } = series;
      const start = lowerBound(dates, from);
      const end = lowerBound(dates, `${to}\uffff`);
      const lines = lineSumsOf(series);
      return {
        date: (i) => dates[start + i] as string,
        days: days.subarray(start, end),
        buys: buys.subarray(start, end),
        sells: sells.subarray(start, end),
        point: (i) => plottedPoint(series, start + i),
        ...(lines && { fit: (side: 'buy' | 'sell') => lines[side].lineOf(start, end) }),
      };
    },
  };
}
