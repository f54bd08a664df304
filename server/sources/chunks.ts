import { addDays, daysBetween, isIsoDate } from '../../shared/dates';

function assertDates(from: string, to: string): void {
  if (!isIsoDate(from)) throw new RangeError(`from ${JSON.stringify(from)} is not a YYYY-MM-DD calendar day`);
  if (!isIsoDate(to)) throw new RangeError(`to ${JSON.stringify(to)} is not a YYYY-MM-DD calendar day`);
}

/**
 * Splits the inclusive span `from..to` into consecutive inclusive chunks of at most `maxDays`
 * days, because each upstream caps what one request may ask for (a year for the token API,
 * 100 days for the site API). `from > to` is an empty span.
 */
export function chunkRange(from: string, to: string, maxDays: number): Array<[string, string]> {
  assertDates(from, to);
  if (!Number.isInteger(maxDays) || maxDays < 1) throw new RangeError(`maxDays must be a positive integer, got ${maxDays}`);
  const chunks: Array<[string, string]> = [];
  let start = from;
  while (start <= to) {
    // Compare before adding: a huge maxDays (Hacienda's) would step past the last representable date.
    const end = daysBetween(start, to) < maxDays ? to : addDays(start, maxDays - 1);
    chunks.push([start, end]);
    start = addDays(end, 1);
  }
  return chunks;
}

/** Guards an adapter's `fetchRange`: splitting long spans is the caller's job (`chunkRange`). */
export function assertRange(from: string, to: string, maxDays: number): void {
  assertDates(from, to);
  if (from > to) throw new RangeError(`from ${from} is after to ${to}`);
  const days = daysBetween(from, to) + 1;
  if (days > maxDays) throw new RangeError(`${from}..${to} spans ${days} days, more than ${maxDays}: split it with chunkRange`);
}
