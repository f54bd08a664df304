/**
 * The latest official rate as the site shows it, read once per data change: every widget on
 * every page polls for it, so it is kept in memory until rates are written (or the day turns),
 * already serialised with its ETag.
 */
import { calendarDay } from '../../shared/dates';
import type { ExchangeRate } from '../../shared/types';
import { strongEtag } from '../http/etag';
import type { RatesStore } from '../store/rates';

/** What /widget-data.json answers; all null before the first rate is stored. */
export interface WidgetData {
  date: string | null;
  buy: number | null;
  sell: number | null;
  source: string | null;
  fetchedAt: string | null;
}

export interface LatestSnapshot {
  rate: ExchangeRate | null;
  /** The /widget-data.json body and its strong ETag. */
  json: string;
  etag: string;
}

export interface LatestRate {
  get(): Promise<LatestSnapshot>;
}

export function toWidgetData(rate: ExchangeRate | null): WidgetData {
  return rate
    ? { date: rate.date, buy: rate.buy, sell: rate.sell, source: rate.source, fetchedAt: rate.fetchedAt }
    : { date: null, buy: null, sell: null, source: null, fetchedAt: null };
}

export function createLatestRate(deps: { rates: RatesStore; clock: () => Date; onRatesChanged: (listener: () => void) => void }): LatestRate {
  let cached: { today: string; snapshot: Promise<LatestSnapshot> } | null = null;
  // A change drops the snapshot, even one still being read: the next request reads again.
  deps.onRatesChanged(() => {
    cached = null;
  });

  return {
    get() {
      const today = calendarDay(deps.clock());
      if (cached && cached.today === today) return cached.snapshot;
      const snapshot = deps.rates.latest(today).then((rate) => {
        const json = JSON.stringify(toWidgetData(rate));
        return { rate, json, etag: strongEtag(json) };
      });
      cached = { today, snapshot };
      // A failed read is not remembered: the next request tries again.
      snapshot.catch(() => {
        if (cached?.snapshot === snapshot) cached = null;
      });
      return snapshot;
    },
  };
}
