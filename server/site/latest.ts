/**
 * The latest rate of each currency as the site shows it, read once per data change: every widget
 * on every page polls for it, so it is kept in memory until rates are written (or the day turns),
 * already serialised with its ETag. One entry per currency of the catalog at most (43): codes
 * are checked against the catalog before anything is kept under them.
 */
import { CURRENCY_CODES, DOLLAR } from '../../shared/currency-catalog';
import { calendarDay } from '../../shared/dates';
import type { ExchangeRate } from '../../shared/types';
import { strongEtag } from '../http/etag';
import type { CurrencySeries } from '../store/currency-series';

/** What /widget-data.json answers; the rate's fields are all null before its first rate is stored. */
export interface WidgetData {
  /** The code asked for, upper case (USD by default). */
  currency: string;
  /** `official`: the dollar's own series; `derived`: colones per unit from the central bank's cross rate. */
  kind: 'official' | 'derived';
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
  /** The latest rate of `currency`, a code of the catalog in upper case (the dollar's by default). */
  get(currency?: string): Promise<LatestSnapshot>;
}

export function toWidgetData(currency: string, rate: ExchangeRate | null): WidgetData {
  const kind = currency === DOLLAR.code ? 'official' : 'derived';
  return rate
    ? { currency, kind, date: rate.date, buy: rate.buy, sell: rate.sell, source: rate.source, fetchedAt: rate.fetchedAt }
    : { currency, kind, date: null, buy: null, sell: null, source: null, fetchedAt: null };
}

export function createLatestRate(deps: { currencies: CurrencySeries; clock: () => Date; onRatesChanged: (listener: () => void) => void }): LatestRate {
  const cached = new Map<string, { today: string; snapshot: Promise<LatestSnapshot> }>();
  // A change drops every snapshot, even one still being read: the next request reads again.
  deps.onRatesChanged(() => cached.clear());

  return {
    get(currency = DOLLAR.code) {
      // Only the catalog's codes are kept, so what requests can make this map hold is bounded.
      if (!CURRENCY_CODES.includes(currency)) throw new RangeError(`${currency} is not in the currency catalog`);
      const today = calendarDay(deps.clock());
      const entry = cached.get(currency);
      if (entry && entry.today === today) return entry.snapshot;
      const snapshot = deps.currencies
        .of(currency)
        .latest(today)
        .then((rate) => {
          const json = JSON.stringify(toWidgetData(currency, rate));
          return { rate, json, etag: strongEtag(json) };
        });
      cached.set(currency, { today, snapshot });
      // A failed read is not remembered: the next request tries again.
      snapshot.catch(() => {
        if (cached.get(currency)?.snapshot === snapshot) cached.delete(currency);
      });
      return snapshot;
    },
  };
}
