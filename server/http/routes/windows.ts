/** Date windows shared by the routes: "the last N days" and explicit from/to pairs. */
import { addDays, daysBetween } from '../../../shared/dates';
import type { SyncView } from '../../jobs/sync-status';
import type { RateSeries } from '../../store/series-reader';
import { badRequest } from '../../errors';
import type { RawQuery } from '../route';
import { nothingStored } from './no-rate';

/** The date of the record `/exchange-rate/latest` returns: every window ends there (a 404 saying why when nothing is stored). */
export async function latestDate(rates: Pick<RateSeries, 'latest'>, sync: SyncView, today: string, currency?: string): Promise<string> {
  const latest = await rates.latest(today);
  if (!latest) throw await nothingStored(sync, currency);
  return latest.date;
}

/** The `days` calendar days ending at the latest date, inclusive. */
export async function lastDays(
  rates: Pick<RateSeries, 'latest'>,
  sync: SyncView,
  today: string,
  days: number,
  currency?: string,
): Promise<{ from: string; to: string }> {
  const to = await latestDate(rates, sync, today, currency);
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
