/**
 * Dates as Sheets hands them over and as the API wants them. A date cell reaches a custom
 * function as a `Date` at midnight of the spreadsheet's time zone: its calendar day is that
 * zone's day, so it is read with `Utilities.formatDate(date, sheetZone, 'yyyy-MM-dd')`. Never
 * `toISOString()`: in UTC, a midnight in Madrid is still the day before.
 *
 * Everything here is pure: the zone-aware formatter comes in as a function.
 */
import { isYearMonth, monthOf } from '../../shared/arguments';
import { addDays, isIsoDate } from '../../shared/dates';

/** `Utilities.formatDate` bound to one time zone. */
export type ZoneFormat = (date: Date, pattern: string) => string;

/** Sheets' serial day 0 (serial 1 is 1899-12-31). */
const SERIAL_EPOCH = '1899-12-30';
/** 9999-12-31, the last day Sheets shows. */
const MAX_SERIAL = 2_958_465;

/** True for a valid Date from any realm (values from Sheets are not always this realm's Dates). */
export function isDate(value: unknown): value is Date {
  return Object.prototype.toString.call(value) === '[object Date]' && !Number.isNaN((value as Date).getTime());
}

export function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

export type DateCell = { kind: 'blank' } | { kind: 'date'; date: string } | { kind: 'invalid'; text: string };

/**
 * Reads one cell as a calendar day: a date cell, `YYYY-MM-DD` text, or a date serial number
 * (a date cell formatted as a number). `format` is the sheet zone's formatter.
 */
export function readDateCell(value: unknown, format: ZoneFormat): DateCell {
  if (isBlank(value)) return { kind: 'blank' };
  if (isDate(value)) return { kind: 'date', date: format(value, 'yyyy-MM-dd') };
  if (typeof value === 'number' && Number.isFinite(value) && value >= 1 && value <= MAX_SERIAL) {
    return { kind: 'date', date: addDays(SERIAL_EPOCH, Math.floor(value)) };
  }
  if (typeof value === 'string' && isIsoDate(value.trim())) return { kind: 'date', date: value.trim() };
  return { kind: 'invalid', text: String(value) };
}

export type MonthCell = { kind: 'blank' } | { kind: 'month'; month: string } | { kind: 'invalid'; text: string };

/**
 * Reads one cell as a calendar month: a date cell (any day of the month: Sheets turns a typed
 * "2025-01" into the date 2025-01-01), `YYYY-MM` text, `YYYY-MM-DD` text or a date serial number.
 * Whether the month is after the current one is the caller's check (it needs today).
 */
export function readMonthCell(value: unknown, format: ZoneFormat): MonthCell {
  if (typeof value === 'string' && isYearMonth(value.trim())) return { kind: 'month', month: value.trim() };
  const day = readDateCell(value, format);
  if (day.kind === 'date') return { kind: 'month', month: monthOf(day.date) };
  return day;
}

/** Memoises a formatter by instant: a column of 1,000 date cells holds few distinct days. */
export function memoFormat(format: ZoneFormat): ZoneFormat {
  const seen = new Map<string, string>();
  return (date, pattern) => {
    const key = `${date.getTime()}|${pattern}`;
    let text = seen.get(key);
    if (text === undefined) {
      text = format(date, pattern);
      seen.set(key, text);
    }
    return text;
  };
}

/** "+0100" / "-0600" / "+0530" → minutes east of UTC. */
export function offsetMinutes(zoneOffset: string): number {
  const m = /^([+-])(\d{2}):?(\d{2})$/.exec(zoneOffset.trim());
  if (!m) throw new RangeError(`unreadable zone offset "${zoneOffset}"`);
  const minutes = Number(m[2]) * 60 + Number(m[3]);
  return m[1] === '-' ? -minutes : minutes;
}

/**
 * The instant of midnight starting `day` in the sheet's zone, so that a returned Date shows as
 * that day in the sheet (Sheets reads returned Dates in the spreadsheet's zone). The zone's
 * offset is taken at that midnight itself, which matters on daylight-saving days.
 */
export function midnightInZone(day: string, format: ZoneFormat): Date {
  const utcMidnight = Date.parse(`${day}T00:00:00Z`);
  let offset = offsetMinutes(format(new Date(utcMidnight), 'Z'));
  let instant = utcMidnight - offset * 60_000;
  const second = offsetMinutes(format(new Date(instant), 'Z'));
  if (second !== offset) {
    offset = second;
    instant = utcMidnight - offset * 60_000;
  }
  // A zone that skips midnight (a DST change at 00:00) starts that day at 01:00.
  if (format(new Date(instant), 'yyyy-MM-dd') !== day) instant += 3_600_000;
  return new Date(instant);
}

/** "2025-01" → first and last day of that month. */
export function monthBounds(month: string): { first: string; last: string } {
  const first = `${month}-01`;
  const [y, m] = month.split('-').map(Number) as [number, number];
  const next = m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`;
  return { first, last: addDays(next, -1) };
}
