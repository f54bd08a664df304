/** `fill=previous`: an earlier day's record answered for a day that has none of its own. */
import type { ExchangeRate } from '../../../shared/types';

export function carried(record: ExchangeRate, date: string): ExchangeRate {
  return { ...record, date, carriedFrom: record.date };
}
