/**
 * What each custom function does, given an `Env` (answers.ts): the sheet's language and zone, the
 * settings, the cache, the last known good copy and a way to fetch. `functions.ts` builds the Env
 * from the Apps Script services; tests can build it from fakes. One call makes at most one cache
 * read, one cache write and one round of requests (several only when a date column spans more than
 * the API's range limit; see quotes.ts for a derived currency's carried rates). The month close
 * (EXCHANGECLOSE) is in close.ts.
 */
import type { RateSide } from '../../shared/currencies';
import { PROVISIONAL_CURRENCIES } from '../../shared/currency-catalog';
import { LIMITS } from '../../shared/limits';
import type { Analytics, BestRate, ExchangeRate, RateAnswer } from '../../shared/types';
import { cachedGet, type Env } from './answers';
import { ArgumentError, readAmountCell, readDays, readOperation, readPair, readRateCurrency, readSide, single, type AmountCell } from './args';
import { keys } from './cache';
import { CACHE_TTL } from './config';
import { isBlank, midnightInZone, readDateCell, type DateCell } from './dates';
import { convertAmount } from './money';
import { inCurrency, quotesFor } from './quotes';
import type { RateRecord } from './rates';
import { answer, distinct, mapCells, toCells } from './shape';
import { analyticsTable, bestTable, historyTable, type BestRow, type Cell } from './tables';

type Output = Cell | Cell[][];

/** The latest record as kept: its buy is null when it is Hacienda's provisional euro of today. */
interface LatestRecord {
  date: string;
  buy: number | null;
  sell: number;
}

/**
 * The latest rate of a currency: the official series' last day, a derived currency's last
 * published day, or, for the euro before the central bank publishes today's, Hacienda's
 * provisional sell of today (no buy).
 */
function latest(env: Env, currency: string): LatestRecord {
  const key = keys.latest(env.baseUrl, currency);
  return cachedGet<RateAnswer, LatestRecord>(env, key, '/exchange-rate/latest', inCurrency({}, currency), CACHE_TTL.moving, (r) => ({
    date: r.date,
    buy: r.buy,
    sell: r.sell,
  }));
}

/** A side of the latest record; a provisional record's buy is a clear error, never an empty cell or 0. */
function sideOf(env: Env, record: LatestRecord, side: RateSide, currency: string): number {
  const value = record[side];
  if (value === null) throw new Error(env.t.noBuyYet(record.date, currency));
  return value;
}

function dateOf(cell: DateCell): string | null {
  return cell.kind === 'date' ? cell.date : null;
}

export function exchangeRate(env: Env, date: unknown, type: unknown, currency: unknown): Output {
  const side = readSide(type, env.t);
  const code = readRateCurrency(currency, env.t);
  // One value: the latest rate when blank, else that date's (an error when it has none).
  if (!Array.isArray(date)) return rateFor(env, date, side, code);

  const cells = toCells(date);
  const parsed = mapCells(cells.rows, (v) => readDateCell(v, env.format));
  const quotes = quotesFor(
    env,
    distinct(parsed, (c) => dateOf(c as DateCell)),
    code,
  );
  return answer(
    cells,
    parsed.map((row) =>
      row.map((c): Cell => {
        if (c.kind === 'blank') return '';
        if (c.kind === 'invalid') return env.t.cellBadDate;
        const quote = quotes.get(c.date);
        return quote ? quote[side] : env.t.cellNoRate;
      }),
    ),
  );
}

/**
 * The rate of one `date` cell (a conversion's, or EXCHANGERATE's single date) in `currency`, or the
 * latest when it is blank. A derived currency's day without a rate has the rate in force.
 */
function rateFor(env: Env, date: unknown, side: RateSide, currency: string): number {
  const value = single(date, 'date', env.t);
  if (isBlank(value)) return sideOf(env, latest(env, currency), side, currency);
  const cell = readDateCell(value, env.format);
  if (cell.kind !== 'date') throw new ArgumentError(env.t.dateInvalid(String(value)));
  // Today's euro before the central bank publishes it: the range has no record of today (it would
  // carry yesterday's), the latest route has Hacienda's provisional one.
  if (cell.date === env.today && PROVISIONAL_CURRENCIES.includes(currency)) {
    const now = latest(env, currency);
    if (now.date === env.today && now.buy === null) return sideOf(env, now, side, currency);
  }
  const quote = quotesFor(env, [cell.date], currency).get(cell.date);
  if (!quote) throw new Error(env.t.dateNoRate(cell.date, currency));
  return quote[side];
}

export function exchangeConvert(env: Env, amount: unknown, from: unknown, to: unknown, type: unknown, date: unknown): Output {
  const pair = readPair(from, to, env.t);
  const side = readSide(type, env.t);
  if (!Array.isArray(amount) && isBlank(amount)) throw new ArgumentError(env.t.missingAmount());

  const cells = toCells(amount);
  const parsed = mapCells(cells.rows, readAmountCell);
  // One amount is checked as the API checks it, with its words; a range marks its bad cells.
  const only = cells.scalar ? parsed[0]?.[0] : undefined;
  if (only?.kind === 'invalid' || only?.kind === 'outOfRange') throw new ArgumentError(env.t.badAmount(String(amount)));
  const anyAmount = parsed.some((row) => row.some((c) => c.kind === 'amount'));
  // The same currency needs no rate, and neither does a range with nothing to convert.
  const rate = pair.quoted !== null && anyAmount ? rateFor(env, date, side, pair.quoted) : 1;
  return answer(
    cells,
    parsed.map((row) =>
      row.map((c: AmountCell): Cell => {
        if (c.kind === 'blank') return '';
        if (c.kind === 'invalid') return env.t.cellBadAmount;
        if (c.kind === 'outOfRange') return env.t.cellAmountOutOfRange;
        return convertAmount(c.amount, pair.from, pair.to, rate);
      }),
    ),
  );
}

const toDateIn = (env: Env) => (day: string) => midnightInZone(day, env.format);

export function exchangeHistory(env: Env, days: unknown): Cell[][] {
  const { minDays: min, maxDays: max, defaultDays: fallback } = LIMITS.history;
  const n = readDays(days, { min, max, fallback }, env.t);
  const records = cachedGet<ExchangeRate[], RateRecord[]>(env, keys.history(env.baseUrl, n), '/exchange-rate/history', { days: n }, CACHE_TTL.moving, (rs) =>
    rs.map((r) => ({ date: r.date, buy: r.buy, sell: r.sell })),
  );
  return historyTable(records, env.t, toDateIn(env));
}

export function exchangeBest(env: Env, operation: unknown): Cell[][] {
  const op = readOperation(operation, env.t);
  // Only what the table shows is kept: the ranking also goes into the last known good copy, whose room is counted.
  const best = cachedGet<BestRate, { ranking: BestRow[] }>(env, keys.best(env.baseUrl, op), '/banking/best', { operation: op }, CACHE_TTL.moving, (b) => ({
    ranking: b.ranking.map(({ rank, name, type, buy, sell, vsOfficial }) => ({ rank, name, type, buy, sell, vsOfficial })),
  }));
  return bestTable(best, env.t);
}

export function exchangeAnalytics(env: Env, days: unknown): Cell[][] {
  const { minDays: min, maxDays: max, defaultDays: fallback } = LIMITS.analytics;
  const n = readDays(days, { min, max, fallback }, env.t);
  const analytics = cachedGet<Analytics, Analytics>(env, keys.analytics(env.baseUrl, n), '/exchange-rate/analytics', { days: n }, CACHE_TTL.moving, (a) => a);
  return analyticsTable(analytics, env.t, toDateIn(env));
}
