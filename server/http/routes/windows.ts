/** Date windows shared by the routes: "the last N days" and explicit from/to pairs. */
import { addDays, daysBetween } from '../../../shared/dates';
import type { RatesStore } from '../../store/rates';
import { badRequest, notFound } from '../errors';
import type { RawQuery } from '../route';

/** The date of the record `/exchange-rate/latest` returns: every window ends there. */
export async function latestDate(rates: RatesStore, today: string): Promise<string> {
  const latest = await rates.latest(today);
  if (!latest) throw notFound('No exchange rate has been stored yet');
  return latest.date;
}

/** The `days` calendar days ending at the latest date, inclusive. */
export async function lastDays(rates: RatesStore, today: string, days: number): Promise<{ from: string; to: string }> {
  const to = await latestDate(rates, today);
  return { from: addDays(to, -(days - 1)), to };
}

/** Both or neither of from/to, and from <= to; optionally at most `maxSpanDays` apart. */
export function checkFromTo(query: { from?: string; to?: string }, maxSpanDays?: number): void {
  const { from, to } = query;
  if ((from === undefined) !== (to === undefined)) {
    throw badRequest(`Parameters "from" and "to" go together: give both or neither (got only "${from ? 'from' : 'to'}")`);
  }
  if (from === undefined || to === undefined) return;
  if (from > to) throw badRequest(`Parameter "from" (${from}) must not be after "to" (${to})`);
  if (maxSpanDays !== undefined && daysBetween(from, to) > maxSpanDays) {
    throw badRequest(`Parameters "from" and "to" may be at most ${maxSpanDays} days apart (got ${daysBetween(from, to)})`);
  }
}

/** Some routes take either `days` or a from/to pair, never both. */
export function checkOneWindowForm(raw: RawQuery): void {
  if (raw.days !== undefined && (raw.from !== undefined || raw.to !== undefined)) {
    throw badRequest('Give either "days" or "from" and "to", not both');
  }
}
