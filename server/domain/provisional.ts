/**
 * Today's euro before the central bank publishes its cross rate: Hacienda's dollars per euro ×
 * today's dollar sell, rounded as derived rates are. Hacienda publishes no buy side, so the record
 * has `buy: null`; when today's dollar is not stored, Hacienda's own colones (the same product,
 * computed by Hacienda) stand in, and after business hours, when Hacienda gives none, there is
 * no record at all.
 */
import type { DerivedCurrency } from '../../shared/currency-catalog';
import type { ExchangeRate, ProvisionalRate } from '../../shared/types';
import { colonesPerUnit } from './derive';

/** A provisional reading as stored. */
export interface ProvisionalValue {
  date: string;
  /** Dollars per unit, as Hacienda published it. */
  published: number;
  /** Colones per unit as Hacienda computed them; null after hours. */
  colones: number | null;
  fetchedAt: Date;
}

/** The record of a provisional reading, or null when it cannot give a sell side. `dollar` is the dollar's record of the same day, if stored. */
export function provisionalRecord(currency: DerivedCurrency, value: ProvisionalValue, dollar: ExchangeRate | null): ProvisionalRate | null {
  const usd = dollar?.date === value.date ? dollar : null;
  const sell = usd ? colonesPerUnit(usd.sell, value.published, currency.quote) : value.colones;
  if (sell === null) return null;
  const fetched = value.fetchedAt.toISOString();
  return {
    date: value.date,
    currencyFrom: currency.code,
    currencyTo: 'CRC',
    buy: null,
    sell,
    source: 'Hacienda',
    fetchedAt: usd && usd.fetchedAt > fetched ? usd.fetchedAt : fetched,
    derived: { indicator: currency.indicator, quote: currency.quote, published: value.published, usdDate: value.date },
  };
}
