import { ExchangeRateError } from './errors';

/** A day for the API: a `YYYY-MM-DD` string, sent as is, or a `Date`, sent as its Costa Rica day. */
export type DateInput = Date | string;

const TIME_ZONE = 'America/Costa_Rica';
/** Costa Rica keeps UTC−6 all year (no daylight saving time since 1992). */
const OFFSET_MS = -6 * 3_600_000;

let formatter: Intl.DateTimeFormat | null | undefined;

function costaRicaFormatter(): Intl.DateTimeFormat | null {
  if (formatter === undefined) {
    try {
      formatter = new Intl.DateTimeFormat('en-CA', { timeZone: TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' });
    } catch {
      // A runtime without time zone data: the fixed offset gives the same day.
      formatter = null;
    }
  }
  return formatter;
}

/**
 * The calendar day of `instant` in Costa Rica, the day the API means by a date. Never
 * `toISOString()`: that is the UTC day, a day late every evening from 18:00 in Costa Rica.
 */
export function costaRicaDay(instant: Date): string {
  const f = costaRicaFormatter();
  if (f) {
    const parts = f.formatToParts(instant);
    const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
    return `${get('year')}-${get('month')}-${get('day')}`;
  }
  return new Date(instant.getTime() + OFFSET_MS).toISOString().slice(0, 10);
}

/** The query value of a date parameter; the server checks strings (and names the parameter). */
export function toApiDate(value: DateInput, name: string): string {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) {
      throw new ExchangeRateError({ code: 'BAD_REQUEST', message: `Parameter "${name}" is an invalid Date` });
    }
    return costaRicaDay(value);
  }
  return value;
}
