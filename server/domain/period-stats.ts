/**
 * Period statistics computed from records in memory: how /exchange-rate/stats answers for a
 * derived currency, whose records exist only once derived (the dollar's are summed in SQL). The
 * same Period object, per month or year, each side as the month close computes it.
 */
import type { ExchangeRate, PeriodStats } from '../../shared/types';
import { periodSide } from './month-close';

export function periodStatsOf(records: readonly ExchangeRate[], kind: 'monthly' | 'yearly'): PeriodStats[] {
  const length = kind === 'monthly' ? 7 : 4;
  const groups: ExchangeRate[][] = [];
  for (const record of records) {
    const group = groups.at(-1);
    if (group && (group[0] as ExchangeRate).date.slice(0, length) === record.date.slice(0, length)) group.push(record);
    else groups.push([record]);
  }
  return groups.map((group) => ({
    period: (group[0] as ExchangeRate).date.slice(0, length),
    from: (group[0] as ExchangeRate).date,
    to: (group.at(-1) as ExchangeRate).date,
    count: group.length,
    buy: periodSide(group, 'buy'),
    sell: periodSide(group, 'sell'),
  }));
}
