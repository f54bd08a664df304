/**
 * `fill=previous`: an earlier day's record answered for a day that has none of its own, its date
 * in `carriedFrom`. Never past today: a later day's rate has not been published, it is not a gap.
 */
import type { ExchangeRate } from '../../../shared/types';
import type { RateSeries } from '../../store/series-reader';

export function carried(record: ExchangeRate, date: string): ExchangeRate {
  return { ...record, date, carriedFrom: record.date };
}

/** The record of `date`; with `fill`, the latest earlier one carried to it when the day has none. */
export async function recordOf(rates: Pick<RateSeries, 'byDate' | 'before'>, date: string, today: string, fill: boolean): Promise<ExchangeRate | null> {
  const record = await rates.byDate(date);
  if (record || !fill || date > today) return record;
  const earlier = await rates.before(date);
  return earlier && carried(earlier, date);
}

/** The latest record; with `fill`, carried to today when it is older. */
export async function latestOf(rates: Pick<RateSeries, 'latest'>, today: string, fill: boolean): Promise<ExchangeRate | null> {
  const latest = await rates.latest(today);
  return latest && fill && latest.date < today ? carried(latest, today) : latest;
}
