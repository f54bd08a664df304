/**
 * Colones per unit of a currency other than the dollar, derived from the central bank's cross
 * rate against the dollar and its colones-per-dollar rate of the same day, exactly as Hacienda
 * derives its euro (indicator 333 × 318).
 *
 * Precision: at least 10 colones, 2 decimals like the dollar; below that, 6 significant digits,
 * so that a yen (about 3.4 colones) keeps its detail and a dong (about 0.02) never rounds to 0.
 * Both half away from zero, on the exact product or quotient.
 */
import Decimal from 'decimal.js';
import type { DerivedCurrency, Quote } from '../../shared/currency-catalog';
import type { ExchangeRate } from '../../shared/types';
import { Dec } from './decimal';

const SIGNIFICANT_DIGITS = 6;

/** Rounds a derived rate by the rule above. */
export function roundDerived(exact: Decimal): number {
  const rounded = exact.gte(10) ? exact.toDecimalPlaces(2, Decimal.ROUND_HALF_UP) : exact.toSignificantDigits(SIGNIFICANT_DIGITS, Decimal.ROUND_HALF_UP);
  return rounded.toNumber();
}

/** Colones per unit from colones per dollar and the cross rate as published. */
export function colonesPerUnit(colonesPerDollar: number, published: number, quote: Quote): number {
  const usd = new Dec(colonesPerDollar);
  return roundDerived(quote === 'usdPerUnit' ? usd.times(published) : usd.dividedBy(published));
}

/** The cross rate of one day as stored. */
export interface CrossValue {
  date: string;
  value: number;
  source: ExchangeRate['source'];
  fetchedAt: Date;
}

/**
 * The derived record of a day from the dollar's record of the same day. Its `source` is the cross
 * rate's (BCCR, or DEMO on a demo instance); `fetchedAt` the later of the two readings, since the
 * record changes when either input does.
 */
export function derivedRecord(currency: DerivedCurrency, dollar: ExchangeRate, cross: CrossValue): ExchangeRate {
  const crossFetched = cross.fetchedAt.toISOString();
  return {
    date: cross.date,
    currencyFrom: currency.code,
    currencyTo: 'CRC',
    buy: colonesPerUnit(dollar.buy, cross.value, currency.quote),
    sell: colonesPerUnit(dollar.sell, cross.value, currency.quote),
    source: cross.source,
    fetchedAt: crossFetched > dollar.fetchedAt ? crossFetched : dollar.fetchedAt,
    derived: { indicator: currency.indicator, quote: currency.quote, published: cross.value, usdDate: dollar.date },
  };
}
