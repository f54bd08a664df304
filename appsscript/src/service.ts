/**
 * What each custom function does, given an `Env` (the sheet's language and zone, the settings,
 * the cache and a way to fetch). `functions.ts` builds the Env from the Apps Script services;
 * tests can build it from fakes. One call makes at most one cache read, one cache write and one
 * round of requests (several only when a date column spans more than the API's range limit).
 */
import type { RateSide } from '../../shared/currencies';
import { LIMITS } from '../../shared/limits';
import type { Analytics, BestRate, ExchangeRate } from '../../shared/types';
import { ArgumentError, readAmountCell, readCurrency, readDays, readOperation, readSide, single, type AmountCell } from './args';
import { buildUrl, readAnswer, type HttpAnswer } from './api';
import { keys, type Entry, type Store } from './cache';
import { CACHE_TTL } from './config';
import { isBlank, midnightInZone, readDateCell, type DateCell, type ZoneFormat } from './dates';
import type { Locale, Messages } from './messages';
import { convertAmount } from './money';
import { bucketsFromSpan, bucketTtl, lookup, monthOf, planSpans, type Quote, type RateRecord } from './rates';
import { answer, distinct, mapCells, toCells } from './shape';
import { analyticsTable, bestTable, historyTable, type Cell } from './tables';

export interface Env {
  locale: Locale;
  t: Messages;
  /** Formats in the spreadsheet's time zone. */
  format: ZoneFormat;
  /** Today in Costa Rica (what the API calls today). */
  today: string;
  baseUrl: string;
  apiKey: string | null;
  store: Store;
  /** One GET per URL, all at once, with the key; throws when the API cannot be reached. */
  fetch(urls: readonly string[]): HttpAnswer[];
  now(): number;
}

type Output = Cell | Cell[][];

function requireKey(env: Env): void {
  if (!env.apiKey) throw new Error(env.t.noKey());
}

/** A GET answered from the cache when it can be, else fetched and cached for `ttl` seconds. */
function cachedGet<T, K>(env: Env, key: string, path: string, query: Record<string, string | number>, ttl: number, keep: (data: T) => K): K {
  requireKey(env);
  const hit = env.store.readAll([key]);
  if (hit.has(key)) return hit.get(key) as K;
  const [reply] = env.fetch([buildUrl(env.baseUrl, path, query)]);
  const value = keep(readAnswer<T>(reply, env.baseUrl, env.t, env.now()));
  env.store.writeAll([{ key, value, ttl }]);
  return value;
}

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
  const replies = env.fetch(spans.map((s) => buildUrl(env.baseUrl, '/exchange-rate/range', { from: s.from, to: s.to })));
  const writes = new Map<string, Entry>();
  spans.forEach((span, i) => {
    const records = readAnswer<RateRecord[]>(replies[i], env.baseUrl, env.t, env.now());
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
  env.store.writeAll([...writes.values()]);
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
  if (cells.scalar && parsed[0]?.[0]?.kind === 'invalid') throw new ArgumentError(env.t.cellBadAmount);
  const anyAmount = parsed.some((row) => row.some((c) => c.kind === 'amount'));
  // The same currency needs no rate, and neither does a range with nothing to convert.
  const rate = fromCurrency !== toCurrency && anyAmount ? rateFor(env, date, side) : 1;
  return answer(
    cells,
    parsed.map((row) =>
      row.map((c: AmountCell): Cell => {
        if (c.kind === 'blank') return '';
        if (c.kind === 'invalid') return env.t.cellBadAmount;
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
  const best = cachedGet<BestRate, Pick<BestRate, 'ranking'>>(env, keys.best(env.baseUrl, op), '/banking/best', { operation: op }, CACHE_TTL.moving, (b) => ({
    ranking: b.ranking,
  }));
  return bestTable(best, env.t);
}

export function exchangeAnalytics(env: Env, days: unknown): Cell[][] {
  const { minDays: min, maxDays: max, defaultDays: fallback } = LIMITS.analytics;
  const n = readDays(days, { min, max, fallback }, env.t);
  const analytics = cachedGet<Analytics, Analytics>(env, keys.analytics(env.baseUrl, n), '/exchange-rate/analytics', { days: n }, CACHE_TTL.moving, (a) => a);
  return analyticsTable(analytics, env.t, toDateIn(env));
}
