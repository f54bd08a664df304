/**
 * The 404s of the official series, saying why there is no rate: nothing is stored yet (and what
 * the sync is doing about it), or the day asked for is before the series, after its latest date,
 * or a gap in it.
 */
import type { SyncView } from '../../jobs/sync-status';
import { whyEmptyForClients } from '../../jobs/sync-status';
import { DOLLAR } from '../../../shared/currency-catalog';
import type { RateSeries } from '../../store/series-reader';
import { notFound, type HttpError } from '../../errors';
import { API_PREFIX } from '../urls';

const SEE_HEALTH = `see ${API_PREFIX}/health`;

/**
 * Nothing is stored yet: the first sync is running, or failed (without why: that is the
 * operator's), or never ran. For a currency other than the dollar: its cross rates have not been
 * read (they need the central bank's token), which /currencies and /health say.
 */
export async function nothingStored(sync: SyncView, currency: string = DOLLAR.code): Promise<HttpError> {
  if (currency !== DOLLAR.code) {
    return notFound(
      `No ${currency} rate has been stored yet: ${API_PREFIX}/currencies says which currencies have data, and ${API_PREFIX}/health why others have none`,
    );
  }
  return notFound(`No exchange rate has been stored yet: ${whyEmptyForClients(await sync.last())}; ${SEE_HEALTH}`);
}

/**
 * The day has no stored rate: where it falls against the series (its first and last stored days,
 * from memory). A derived series has gaps (weekends, foreign holidays): the message then names
 * the nearest earlier date that has a rate.
 */
export async function noRateFor(
  rates: Pick<RateSeries, 'earliestDate' | 'lastStoredDate' | 'before'>,
  sync: SyncView,
  date: string,
  today: string,
  currency: string = DOLLAR.code,
): Promise<HttpError> {
  const [first, last] = await Promise.all([rates.earliestDate(), rates.lastStoredDate()]);
  if (first === null || last === null) return nothingStored(sync, currency);
  if (currency !== DOLLAR.code && date >= first) {
    const earlier = await rates.before(date);
    const nearest = earlier ? `; the nearest earlier date with one is ${earlier.date} (fill=previous answers with it)` : '';
    return notFound(`No ${currency} rate for ${date}: the central bank published no cross rate for that day${nearest}`);
  }
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
