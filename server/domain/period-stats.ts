/**
 * Period statistics, per calendar month or year: how /exchange-rate/stats answers for every
 * currency, from the series each keeps in memory (series-reader.ts). Each side as the month close
 * computes it.
 */
import type { ExchangeRate, PeriodStats } from '../../shared/types';
import { periodSide } from './month-close';

export type PeriodKind = 'monthly' | 'yearly';

/** The period a `YYYY-MM-DD` day is in: `YYYY-MM`, or `YYYY`. */
export const periodOf = (date: string, kind: PeriodKind): string => date.slice(0, kind === 'monthly' ? 7 : 4);

/** After every `YYYY-MM-DD` day: where the period after 9999's would start. */
const AFTER_ALL_DAYS = '\uffff';

/** The first day of the period after `period` (`YYYY-MM` or `YYYY`), as a bound for days compared as text. */
export function nextPeriodStart(period: string): string {
  const year = Number(period.slice(0, 4));
  const month = period.length === 7 ? Number(period.slice(5)) : 12;
  if (month < 12) return `${period.slice(0, 4)}-${String(month + 1).padStart(2, '0')}-01`;
  // A five-digit year would sort before every four-digit one.
  return year < 9999 ? `${String(year + 1).padStart(4, '0')}-01-01` : AFTER_ALL_DAYS;
}

/** The statistics of one period's records (at least one, ascending). */
export function statsOfPeriod(period: string, records: readonly ExchangeRate[]): PeriodStats {
  return {
    period,
    from: (records[0] as ExchangeRate).date,
    to: (records[records.length - 1] as ExchangeRate).date,
    count: records.length,
    buy: periodSide(records, 'buy'),
    sell: periodSide(records, 'sell'),
  };
}
