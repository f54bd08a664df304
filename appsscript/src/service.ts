/**
 * What each custom function does, given an `Env` (answers.ts): the sheet's language and zone, the
 * settings, the cache, the last known good copy and a way to fetch. `functions.ts` builds the Env
 * from the Apps Script services; tests can build it from fakes. One call makes at most one cache
 * read, one cache write and one round of requests (several only when a date column spans more than
 * the API's range limit). The month close (EXCHANGECLOSE) is in close.ts.
 */
import type { RateSide } from '../../shared/currencies';
import { LIMITS } from '../../shared/limits';
import type { Analytics, BestRate, ExchangeRate } from '../../shared/types';
import { cachedGet, type Env, recall, remember, requireKey, servedFromCopy } from './answers';
import { type ApiError, buildUrl, readAnswer } from './api';
import { ArgumentError, readAmountCell, readCurrency, readDays, readOperation, readSide, single, type AmountCell } from './args';
import { keys, type Entry } from './cache';
import { CACHE_TTL } from './config';
import { isBlank, midnightInZone, readDateCell, type DateCell } from './dates';
import { convertAmount } from './money';
import { bucketsFromSpan, bucketTtl, lookup, monthOf, planSpans, type Quote, type RateRecord } from './rates';
import { answer, distinct, mapCells, toCells } from './shape';
import { analyticsTable, bestTable, historyTable, type BestRow, type Cell } from './tables';

type Output = Cell | Cell[][];

function latest(env: Env): RateRecord {
  return cachedGet<ExchangeRate, RateRecord>(env, keys.latest(env.baseUrl), '/exchange-rate/latest', {}, CACHE_TTL.moving, (r) => ({
    date: r.date,
    buy: r.buy,
    sell: r.sell,
  }));
}

/**
 * The quotes of many days at once: month buckets from one cache read, the rest from as few range
 * requests as the span limit allows, and the fetched months written back with one cache write.
 * A day with no rate maps to null.
 */
export function quotesFor(env: Env, dates: readonly string[]): Map<string, Quote | null> {
  const found = new Map<string, Quote | null>();
  if (dates.length === 0) return found;
  requireKey(env);
  const months = [...new Set(dates.map(monthOf))];
  const read = env.store.readAll(months.map((m) => keys.month(env.baseUrl, m)));
  const buckets = new Map<string, unknown>(months.map((m) => [m, read.get(keys.month(env.baseUrl, m))]));

  const missing: string[] = [];
  for (const date of dates) {
    const quote = lookup(buckets.get(monthOf(date)), date);
    if (quote === undefined) missing.push(date);
    else found.set(date, quote);
  }
  if (missing.length === 0) return found;

  const spans = planSpans(missing);
  let fetched: RateRecord[][];
  try {
    const replies = env.fetch(spans.map((s) => buildUrl(env.baseUrl, '/exchange-rate/range', { from: s.from, to: s.to })));
    fetched = spans.map((_, i) => readAnswer<RateRecord[]>(replies[i], env.baseUrl, env.t, env.now()));
  } catch (error) {
    return fromCopy(env, missing, found, error);
  }
  const writes = new Map<string, Entry>();
  spans.forEach((span, i) => {
    const records = fetched[i] ?? [];
    const byDate = new Map(records.map((r) => [r.date, r]));
    for (const date of missing) {
      if (date < span.from || date > span.to) continue;
      const r = byDate.get(date);
      found.set(date, r ? { buy: r.buy, sell: r.sell } : null);
    }
    for (const [month, bucket] of bucketsFromSpan(span, records, buckets)) {
      buckets.set(month, bucket);
      writes.set(month, { key: keys.month(env.baseUrl, month), value: bucket, ttl: bucketTtl(month, bucket, env.today) });
    }
  });
  remember(env, [...writes.values()]);
  return found;
}

/** The missing days from the month buckets of the last known good copy, when the copy knows every one of them; else the failure. */
function fromCopy(env: Env, missing: readonly string[], found: Map<string, Quote | null>, error: unknown): Map<string, Quote | null> {
  const monthKeys = [...new Set(missing.map((d) => keys.month(env.baseUrl, monthOf(d))))];
  const recalled = recall(env, monthKeys, error);
  for (const date of missing) {
    const quote = lookup(recalled.get(keys.month(env.baseUrl, monthOf(date))), date);
    if (quote === undefined) throw error;
    found.set(date, quote);
  }
  servedFromCopy(env, monthKeys, error as ApiError);
  return found;
}

function dateOf(cell: DateCell): string | null {
  return cell.kind === 'date' ? cell.date : null;
}

export function exchangeRate(env: Env, date: unknown, type: unknown): Output {
  const side = readSide(type, env.t);
  // One value: the latest rate when blank, else that date's (an error when it has none).
  if (!Array.isArray(date)) return rateFor(env, date, side);

  const cells = toCells(date);
  const parsed = mapCells(cells.rows, (v) => readDateCell(v, env.format));
  const quotes = quotesFor(
    env,
    distinct(parsed, (c) => dateOf(c as DateCell)),
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

/** The rate of one `date` cell (a conversion's, or EXCHANGERATE's single date), or the latest when it is blank. */
function rateFor(env: Env, date: unknown, side: RateSide): number {
  const value = single(date, 'date', env.t);
  if (isBlank(value)) return latest(env)[side];
  const cell = readDateCell(value, env.format);
  if (cell.kind !== 'date') throw new ArgumentError(env.t.dateInvalid(String(value)));
  const quote = quotesFor(env, [cell.date]).get(cell.date);
  if (!quote) throw new Error(env.t.dateNoRate(cell.date));
  return quote[side];
}

export function exchangeConvert(env: Env, amount: unknown, from: unknown, to: unknown, type: unknown, date: unknown): Output {
  const fromCurrency = readCurrency(from, 'from', env.t);
  const toCurrency = readCurrency(to, 'to', env.t);
  const side = readSide(type, env.t);
  if (!Array.isArray(amount) && isBlank(amount)) throw new ArgumentError(env.t.missingAmount());

  const cells = toCells(amount);
  const parsed = mapCells(cells.rows, readAmountCell);
  // One amount is checked as the API checks it, with its words; a range marks its bad cells.
  const only = cells.scalar ? parsed[0]?.[0] : undefined;
  if (only?.kind === 'invalid' || only?.kind === 'outOfRange') throw new ArgumentError(env.t.badAmount(String(amount)));
  const anyAmount = parsed.some((row) => row.some((c) => c.kind === 'amount'));
  // The same currency needs no rate, and neither does a range with nothing to convert.
  const rate = fromCurrency !== toCurrency && anyAmount ? rateFor(env, date, side) : 1;
  return answer(
    cells,
    parsed.map((row) =>
      row.map((c: AmountCell): Cell => {
        if (c.kind === 'blank') return '';
        if (c.kind === 'invalid') return env.t.cellBadAmount;
        if (c.kind === 'outOfRange') return env.t.cellAmountOutOfRange;
        return convertAmount(c.amount, fromCurrency, toCurrency, rate);
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
