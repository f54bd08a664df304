/**
 * The 404s of the official series, saying why there is no rate: nothing is stored yet (and what
 * the sync is doing about it), or the day asked for is before the series, after its latest date,
 * or a gap in it.
 */
import type { SyncView } from '../../jobs/sync-status';
import { whyEmptyForClients } from '../../jobs/sync-status';
import type { RatesStore } from '../../store/rates';
import { notFound, type HttpError } from '../../errors';
import { API_PREFIX } from '../urls';

const SEE_HEALTH = `see ${API_PREFIX}/health`;

/** Nothing is stored yet: the first sync is running, or failed (without why: that is the operator's), or never ran. */
export async function nothingStored(sync: SyncView): Promise<HttpError> {
  return notFound(`No exchange rate has been stored yet: ${whyEmptyForClients(await sync.last())}; ${SEE_HEALTH}`);
}

/** The day has no stored rate: where it falls against the series (its first and last stored days, from memory). */
export async function noRateFor(rates: RatesStore, sync: SyncView, date: string, today: string): Promise<HttpError> {
  const [first, last] = await Promise.all([rates.earliestDate(), rates.lastStoredDate()]);
  if (first === null || last === null) return nothingStored(sync);
  if (date < first) return notFound(`No exchange rate for ${date}: the series starts on ${first}`);
  if (date > last) {
    // The rate of day D appears on the afternoon of D − 1, after the MONEX session: a later day
    // cannot have one yet. A day up to today should have one: the sync is behind.
    if (date > today) {
      return notFound(
        `No exchange rate for ${date} yet: the latest official rate is for ${last}; the central bank publishes each day's rate the afternoon before`,
      );
    }
    return notFound(`No exchange rate for ${date} yet: the latest official rate stored is for ${last}; ${SEE_HEALTH}`);
  }
  return notFound(`No exchange rate for ${date}: the series has a gap there (it runs from ${first} to ${last})`);
}
