/**
 * Calendar months as `YYYY-MM` and the figures a bookkeeper closes one with (docs/api.md, "GET
 * /exchange-rate/close"): which days are there, which are missing, the closing record, and the
 * Period statistics of each side. Pure: the caller hands in the month's records and the dates
 * that decide what "missing" and "complete" mean.
 */
import type { ExchangeRate, MonthClose, PeriodSide } from '../../shared/types';
import { averageOf, changeBetween } from './exact-sums';

/** `YYYY-MM` with a month from 01 to 12; the year is checked by {@link isYearMonth}. */
export const YEAR_MONTH_PATTERN = '^\\d{4}-(0[1-9]|1[0-2])$';
const YEAR_MONTH = new RegExp(YEAR_MONTH_PATTERN);

/** True for a `YYYY-MM` month of the years 0001 to 9999 (there is no year 0000, as for dates). */
export function isYearMonth(value: string): boolean {
  return YEAR_MONTH.test(value) && !value.startsWith('0000');
}

/** The month a `YYYY-MM-DD` day belongs to. */
export function monthOf(date: string): string {
  return date.slice(0, 7);
}

/** How many calendar days the month has: 28 to 31, February 29 in Gregorian leap years. */
export function daysInMonth(month: string): number {
  if (!isYearMonth(month)) throw new RangeError(`not a YYYY-MM month: "${month}"`);
  const year = Number(month.slice(0, 4));
  const number = Number(month.slice(5));
  // Plain arithmetic rather than Date: Date.UTC reads the years 0–99 as 1900–1999.
  if (number === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(number) ? 30 : 31;
}

/** The first and last calendar days of a month. */
export function monthBounds(month: string): { first: string; last: string } {
  return { first: `${month}-01`, last: `${month}-${String(daysInMonth(month)).padStart(2, '0')}` };
}

/**
 * Whether `month` is after the month of `today`. Four-digit years make `YYYY-MM` strings sort
 * like the months they name.
 */
export function isAfterMonthOf(month: string, today: string): boolean {
  return month > monthOf(today);
}

/** Average, extremes, first, last and change of one side, as the Period object has them. */
export function periodSide(records: readonly ExchangeRate[], side: 'buy' | 'sell'): PeriodSide {
  const values = new Array<number>(records.length);
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  // One pass, not a map and two spreads: a whole history's monthly statistics are 1,000 of these.
  for (let i = 0; i < records.length; i++) {
    const value = (records[i] as ExchangeRate)[side];
    values[i] = value;
    if (value < min) min = value;
    if (value > max) max = value;
  }
  const first = values[0] as number;
  const last = values[values.length - 1] as number;
  return {
    // The sum is exact and the 4-decimal rounding of sum / n is the only one, as SQL NUMERIC has it.
    average: averageOf(values),
    min,
    max,
    first,
    last,
    change: changeBetween(first, last),
  };
}

export interface MonthCloseInput {
  /** `YYYY-MM`. */
  month: string;
  /** Every stored record of the month, ascending by date; at least one. */
  records: readonly ExchangeRate[];
  /** The latest date (of the record /exchange-rate/latest returns), or null when there is none. */
  latestDate: string | null;
  /** The calendar day in Costa Rica now. */
  today: string;
}

/** The MonthClose object of a month that has at least one record. */
export function closeMonth({ month, records, latestDate, today }: MonthCloseInput): MonthClose {
  const { first, last } = monthBounds(month);
  if (records.length === 0) throw new RangeError(`${month} has no record to close it with`);
  let previous = '';
  for (const record of records) {
    // Out-of-month or unordered input would give a wrong `missing` and wrong first/last values.
    if (!(record.date >= first && record.date <= last && record.date > previous)) {
      throw new RangeError(`records must be ascending days of ${month}; got ${record.date} after "${previous}"`);
    }
    previous = record.date;
  }

  const present = new Set(records.map((r) => r.date));
  const missing: string[] = [];
  // Only up to the latest date: the days after it are not late, they have not come yet (and with
  // no latest date at all, none has).
  if (latestDate !== null && latestDate >= first) {
    const until = latestDate < last ? Number(latestDate.slice(8)) : daysInMonth(month);
    // The month's days written out, not stepped through as dates: the same days, without a Date each.
    for (let number = 1; number <= until; number++) {
      const day = `${month}-${String(number).padStart(2, '0')}`;
      if (!present.has(day)) missing.push(day);
    }
  }

  const days = daysInMonth(month);
  const lastRecord = records[records.length - 1] as ExchangeRate;
  return {
    month,
    from: (records[0] as ExchangeRate).date,
    to: lastRecord.date,
    daysInMonth: days,
    daysPresent: records.length,
    missing,
    // A month still running is never complete, even when the central bank has already published
    // the rate of its last day (it does so the afternoon before).
    complete: records.length === days && month < monthOf(today),
    // The last calendar day's own record, or null: never the last day that happens to have one.
    closing: lastRecord.date === last ? lastRecord : null,
    buy: periodSide(records, 'buy'),
    sell: periodSide(records, 'sell'),
  };
}
