/**
 * The rates of many days in one currency at once, for EXCHANGERATE and EXCHANGECONVERT: month
 * buckets from one cache read, the rest from as few `/exchange-rate/range` requests as the span
 * limit allows, the fetched months written back with one cache write, and the last known good
 * copy when the API fails for a transient reason.
 *
 * A derived currency's day without a rate (a weekend, a holiday abroad) answers the rate in force,
 * the last one of the CARRY_DAYS before it, up to today, as `fill=previous` does: a later day's
 * rate is not published yet, which is no gap to carry over. The first round of requests starts
 * each span that many days early when the span limit leaves room, so a column of dates stays one
 * request; a second round asks only for the earlier days that a date at the very start of a
 * full-length span still needs.
 */
import { DOLLAR } from '../../shared/currency-catalog';
import { LIMITS } from '../../shared/limits';
import { type Env, recallKept, remember, requireKey, servedFromCopy } from './answers';
import { type ApiError, buildUrl, readAnswer } from './api';
import { keys, type Entry } from './cache';
import {
  bucketsFromSpan,
  bucketTtl,
  carryDaysOf,
  carryWindow,
  type DayReader,
  daysOf,
  lookup,
  monthOf,
  planSpans,
  type Quote,
  type RateRecord,
  rateInForce,
  type Span,
} from './rates';

/** A query in one currency: the dollar's carries no `currency`, as every request did before there were others. */
export function inCurrency(query: Record<string, string | number>, currency: string): Record<string, string | number> {
  return currency === DOLLAR.code ? query : { ...query, currency };
}

const unique = <T>(values: Iterable<T>): T[] => [...new Set(values)];

/** Rounds of requests at most: the dates with their lead, then the earlier days a few of them still need. */
const ROUNDS = 2;

export function quotesFor(env: Env, dates: readonly string[], currency: string): Map<string, Quote | null> {
  const found = new Map<string, Quote | null>();
  if (dates.length === 0) return found;
  requireKey(env);
  const carryDays = carryDaysOf(currency);
  const carry = (date: string): number => (date > env.today ? 0 : carryDays);
  const daysFor = (date: string): string[] => carryWindow(date, carry(date));
  const monthKey = (month: string) => keys.month(env.baseUrl, month, currency);

  const months = unique(dates.flatMap((d) => daysFor(d).map(monthOf)));
  const read = env.store.readAll(months.map(monthKey));
  const cached = new Map<string, unknown>(months.map((m) => [m, read.get(monthKey(m))]));
  // What the requests of this call said of each day of their spans: read before the cache.
  const fetched = new Map<string, Quote | null>();
  const day: DayReader = (d) => (fetched.has(d) ? fetched.get(d) : lookup(cached.get(monthOf(d)), d));
  // The buckets to write: the cached ones, merged with what was fetched.
  const merged = new Map(cached);
  const writes = new Map<string, Entry>();

  /** Settles what the known days decide; returns the dates still undecided. */
  const settle = (pending: readonly string[], reader: DayReader): string[] =>
    pending.filter((date) => {
      const inForce = rateInForce(reader, date, carry(date));
      if (inForce === undefined) return true;
      found.set(date, inForce?.quote ?? null);
      return false;
    });

  const keepSpan = (span: Span, records: readonly RateRecord[]): void => {
    const byDate = new Map(records.map((r) => [r.date, r]));
    for (const d of daysOf(span)) {
      const r = byDate.get(d);
      fetched.set(d, r ? { buy: r.buy, sell: r.sell } : null);
    }
    for (const [month, bucket] of bucketsFromSpan(span, records, merged)) {
      merged.set(month, bucket);
      writes.set(month, { key: monthKey(month), value: bucket, ttl: bucketTtl(month, bucket, env.today, currency) });
    }
  };

  /** The dates still pending, settled from the month buckets of the last known good copy when it decides every one; else the failure. */
  const fromCopy = (pending: readonly string[], error: unknown): string[] => {
    const unknownMonths = unique(pending.flatMap((date) => daysFor(date).filter((d) => day(d) === undefined)).map(monthOf));
    const recalled = recallKept(env, unknownMonths.map(monthKey), error);
    const withCopy: DayReader = (d) => {
      const known = day(d);
      return known !== undefined ? known : lookup(recalled.get(monthKey(monthOf(d))), d);
    };
    if (settle(pending, withCopy).length > 0) throw error;
    servedFromCopy(env, [...recalled.keys()], error as ApiError);
    return [];
  };

  let pending = settle(unique(dates), day);
  let failure: unknown = null;
  for (let round = 0; round < ROUNDS && pending.length > 0; round++) {
    // An unknown date is asked for itself; a date known to have no rate, for the earlier days it may be carried from.
    const needed = pending.flatMap((date) => (day(date) === undefined ? [date] : daysFor(date).filter((d) => day(d) === undefined)));
    const spans = planSpans(needed, LIMITS.range.maxSpanDays, round === 0 ? carryDays : 0);
    try {
      const replies = env.fetch(spans.map((s) => buildUrl(env.baseUrl, '/exchange-rate/range', inCurrency({ from: s.from, to: s.to }, currency))));
      const records = spans.map((_, i) => readAnswer<RateRecord[]>(replies[i], env.baseUrl, env.t, env.now()));
      spans.forEach((span, i) => {
        keepSpan(span, records[i] ?? []);
      });
    } catch (error) {
      failure = error;
      break;
    }
    pending = settle(pending, day);
  }
  // What did come is cached even when a later round failed.
  remember(env, [...writes.values()]);
  if (failure !== null) pending = fromCopy(pending, failure);
  // Every day of every window is known after the rounds: nothing is left, unless the API answered outside its spans.
  for (const date of pending) found.set(date, null);
  return found;
}
