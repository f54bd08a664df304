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
