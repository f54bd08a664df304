/**
 * Calendar-day arithmetic on `YYYY-MM-DD` strings. Dates are days, not instants: working in UTC
 * milliseconds keeps every step free of the host's time zone.
 */
const DAY_MS = 86_400_000;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a `YYYY-MM-DD` string that names a real calendar day (`2024-02-30` is not one). */
export function isIsoDate(value: string): boolean {
  const m = ISO_DATE.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = new Date(0);
  // setUTCFullYear rather than Date.UTC, which reads the years 0–99 as 1900–1999.
  t.setUTCFullYear(y, mo - 1, d);
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d && y >= 1;
}

/** 00:00 UTC of a `YYYY-MM-DD` day in milliseconds, NaN when the text is not one. */
function toUtcMs(date: string): number {
  return ISO_DATE.test(date) ? Date.parse(`${date}T00:00:00Z`) : Number.NaN;
}

export function fromUtcMs(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export function addDays(date: string, days: number): string {
  return fromUtcMs(toUtcMs(date) + days * DAY_MS);
}

/** Whole calendar days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return dayNumber(to) - dayNumber(from);
}

/** Days since 1970-01-01 (negative before it), NaN when `date` is not a `YYYY-MM-DD` day. */
export function dayNumber(date: string): number {
  return toUtcMs(date) / DAY_MS;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The calendar day of `instant` in `timeZone` (by default Costa Rica's). */
export function calendarDay(instant: Date, timeZone = 'America/Costa_Rica'): string {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formatters.set(timeZone, formatter);
  }
  const parts = formatter.formatToParts(instant);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}`;
}

/**
 * The days of `from..to` (inclusive, ascending) that `present` does not hold: the gaps a sync
 * reports and a catch-up counts. `from > to` is an empty span and has none.
 */
export function missingDays(from: string, to: string, present: ReadonlySet<string>): string[] {
  // A malformed end would never be passed by the loop below: refuse it instead of spinning.
  for (const day of [from, to]) if (!isIsoDate(day)) throw new RangeError(`${JSON.stringify(day)} is not a YYYY-MM-DD calendar day`);
  const missing: string[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) if (!present.has(day)) missing.push(day);
  return missing;
}
