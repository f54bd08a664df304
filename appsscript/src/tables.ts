/**
 * The tables the functions spill into the sheet. Dates become real spreadsheet dates (`toDate`
 * gives a Date at midnight of the sheet's zone), numbers stay numbers so the sheet's own number
 * format applies, and a missing value is an empty cell.
 */
import type { Analytics, ExchangeRate, RankedInstitution, SideAnalytics } from '../../shared/types';
import type { Messages } from './messages';

export type Cell = string | number | Date;
/** What the ranking table shows of an institution. */
export type BestRow = Pick<RankedInstitution, 'rank' | 'name' | 'type' | 'buy' | 'sell' | 'vsOfficial'>;
export type ToDate = (day: string) => Date;

export function historyTable(records: readonly Pick<ExchangeRate, 'date' | 'buy' | 'sell'>[], t: Messages, toDate: ToDate): Cell[][] {
  return [[...t.historyHeader], ...records.map((r) => [toDate(r.date), r.buy, r.sell])];
}

export function bestTable(best: { ranking: readonly BestRow[] }, t: Messages): Cell[][] {
  return [[...t.bestHeader], ...best.ranking.map((i) => [i.rank, i.name, t.institutionTypes[i.type] ?? i.type, i.buy, i.sell, i.vsOfficial ?? ''])];
}

const SIDE_METRICS = [
  'average',
  'min',
  'minDate',
  'max',
  'maxDate',
  'first',
  'last',
  'change',
  'changePercent',
  'volatility',
  'trend',
  'slopePerDay',
] as const satisfies ReadonlyArray<keyof SideAnalytics>;

export function analyticsTable(a: Analytics, t: Messages, toDate: ToDate): Cell[][] {
  const rows: Cell[][] = [[...t.analyticsHeader], [t.analytics.from, toDate(a.from)], [t.analytics.to, toDate(a.to)], [t.analytics.count, a.count]];
  for (const side of ['buy', 'sell'] as const) {
    const stats = a[side];
    for (const metric of SIDE_METRICS) {
      const value = stats[metric];
      const cell: Cell =
        metric === 'minDate' || metric === 'maxDate'
          ? toDate(String(value))
          : metric === 'trend'
            ? (t.trends[String(value)] ?? String(value))
            : (value as number);
      rows.push([`${t.analytics[side]}: ${t.analytics[metric]}`, cell]);
    }
  }
  return rows;
}
