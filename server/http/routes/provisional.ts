/**
 * Today's provisional record (Hacienda's euro, `buy: null`) in the answers of `/exchange-rate/latest`
 * and `/exchange-rate` for today, while the central bank's cross rate of today is not stored: it
 * stands in for nothing at all, or for an earlier day's record (the latest one, or one carried by
 * fill=previous). The central bank's own record of today always wins. A purpose whose rule names
 * the buy side never takes it, since it has no buy: the latest route then answers the latest
 * record with a buy, and the by-date route its 404 saying so (fill=previous carries the earlier day).
 */
import { purposeOf, type PurposeId } from '../../../shared/purposes';
import type { ExchangeRate, RateAnswer } from '../../../shared/types';
import { notFound } from '../../errors';
import type { CurrencySeries } from '../../store/currency-series';

export interface ProvisionalAsk {
  currencies: CurrencySeries;
  currency: string;
  /** The day asked for (today for the latest route). */
  date: string;
  today: string;
  purpose?: PurposeId | undefined;
}

/** The series' own record of today, when it has one. */
const ownToday = (record: ExchangeRate | null, today: string) => record !== null && record.date === today && record.carriedFrom === undefined;

/** `record`, or today's provisional record in its place (see above); null when neither. */
export async function orProvisional(record: ExchangeRate | null, ask: ProvisionalAsk): Promise<RateAnswer | null> {
  const { currencies, currency, date, today, purpose } = ask;
  if (date !== today || ownToday(record, today)) return record;
  const provisional = await currencies.provisional(currency, today);
  if (!provisional) return record;
  // A record of a later day is the central bank's: it has published past today already.
  if (((await currencies.of(currency).lastStoredDate()) ?? '') > today) return record;
  if (purpose && purposeOf(purpose).side === 'buy') {
    if (record) return record;
    throw notFound(
      `No ${currency} buy rate for ${today} yet: the only value for today is Hacienda's provisional ${currency} sell (the central bank has not published its cross rate); purpose=${purpose} names the buy side, and fill=previous answers with the latest earlier day's rate`,
    );
  }
  return provisional;
}
