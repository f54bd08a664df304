/**
 * A series as the add-on keeps it: cached by month, fetched by span. A column of dates asks for
 * many days; they are looked up in month buckets (one cache read for all of them), and the days no
 * bucket knows are fetched with as few `/exchange-rate/range` requests as the API's span limit
 * allows (to − from ≤ 366 days), each widened to whole months when the limit leaves room, so that
 * the next call finds whole months in the cache.
 *
 * The dollar's official series has a rate every calendar day. The other currencies are derived
 * from the central bank's cross rate, which skips weekends and the holidays of the currency's
 * country: on such a day the rate in force is the last one before it, as a bookkeeper books it and
 * as `fill=previous` answers it (see {@link rateInForce}).
 */
import { addDays, daysBetween } from '../../shared/dates';
import { LIMITS } from '../../shared/limits';
import { DOLLAR } from '../../shared/currency-catalog';
import { CACHE_TTL } from './config';
import { monthBounds } from './dates';

export interface Quote {
  buy: number;
  sell: number;
}

/**
 * The rates of one month as cached: days `f` to `t` (day of month, inclusive) are known, and `r`
 * holds `[buy, sell]` by two-digit day for those that have a rate.
 */
export interface MonthBucket {
  f: number;
  t: number;
  r: Record<string, [number, number]>;
}

export interface Span {
  from: string;
  to: string;
}

export interface RateRecord {
  date: string;
  buy: number;
  sell: number;
}

/**
 * How many days before a day without a rate a derived currency looks for the rate in force. The
 * longest stretch without a cross rate is a holiday week abroad (Chinese New Year, Easter from
 * Thursday to Monday) next to a weekend.
 */
export const CARRY_DAYS = 10;

/**
 * How old a derived month's gaps must be to be final: by then they are weekends and holidays
 * abroad, not rates still to be published. The dollar's series has none: a hole in it may fill in.
 */
export const SETTLED_DAYS = 7;

/** How many days back a currency's rate may be carried: none for the official series. */
export function carryDaysOf(currency: string): number {
  return currency === DOLLAR.code ? 0 : CARRY_DAYS;
}

export const monthOf = (date: string): string => date.slice(0, 7);
const dayOf = (date: string): number => Number(date.slice(8, 10));
const dd = (day: number): string => String(day).padStart(2, '0');

function isBucket(value: unknown): value is MonthBucket {
  const b = value as MonthBucket | null;
  return !!b && typeof b === 'object' && typeof b.f === 'number' && typeof b.t === 'number' && !!b.r && typeof b.r === 'object';
}

/** What a bucket says of `date`: its quote, `null` when the day is known to have none, `undefined` when unknown. */
export function lookup(bucket: unknown, date: string): Quote | null | undefined {
  if (!isBucket(bucket)) return undefined;
  const day = dayOf(date);
  if (day < bucket.f || day > bucket.t) return undefined;
  const pair = bucket.r[dd(day)];
  return pair ? { buy: pair[0], sell: pair[1] } : null;
}

/** What is known of one day: its quote, `null` when it has none, `undefined` when it is unknown. */
export type DayReader = (date: string) => Quote | null | undefined;

/** A day's rate in force and the day it was published for (`date` itself unless carried). */
export interface InForce {
  quote: Quote;
  from: string;
}

/**
 * The rate in force on `date`: its own, else the last one of the `carry` days before it. `null`:
 * none in that stretch; `undefined`: a day that decides is unknown (it has to be fetched).
 */
export function rateInForce(read: DayReader, date: string, carry: number): InForce | null | undefined {
  for (let back = 0; back <= carry; back++) {
    const day = addDays(date, -back);
    const quote = read(day);
    if (quote === undefined) return undefined;
    if (quote) return { quote, from: day };
  }
  return null;
}

/** The days {@link rateInForce} may read for `date`: the `carry` days before it, and itself. */
export function carryWindow(date: string, carry: number): string[] {
  return daysOf({ from: addDays(date, -carry), to: date });
}

/**
 * Spans that cover every missing date with the fewest requests: greedy from the earliest date,
 * each at most `maxSpanDays` long, then started up to `lead` days earlier (the days a rate may be
 * carried from) and stretched to the first and last day of its months, while it stays within the
 * limit.
 */
export function planSpans(missing: readonly string[], maxSpanDays: number = LIMITS.range.maxSpanDays, lead = 0): Span[] {
  const dates = [...new Set(missing)].sort();
  const spans: Span[] = [];
  let open: Span | null = null;
  for (const date of dates) {
    // Sorted: the first date too far from the span's start ends it, and starts the next one.
    if (open && daysBetween(open.from, date) <= maxSpanDays) {
      open.to = date;
      continue;
    }
    if (open) spans.push(toWholeMonths(withLead(open, maxSpanDays, lead), maxSpanDays));
    open = { from: date, to: date };
  }
  if (open) spans.push(toWholeMonths(withLead(open, maxSpanDays, lead), maxSpanDays));
  return spans;
}

/** A span started `lead` days earlier, or as many as the limit allows (a planned span is within it, so never later). */
function withLead(span: Span, maxSpanDays: number, lead: number): Span {
  const earliest = addDays(span.to, -maxSpanDays);
  const earlier = addDays(span.from, -lead);
  return { from: earlier > earliest ? earlier : earliest, to: span.to };
}

/** A span stretched to the first day of its first month, then to the last of its last, while it stays within the limit. */
function toWholeMonths(span: Span, maxSpanDays: number): Span {
  let { from, to } = span;
  const first = monthBounds(monthOf(from)).first;
  if (daysBetween(first, to) <= maxSpanDays) from = first;
  const last = monthBounds(monthOf(to)).last;
  if (daysBetween(from, last) <= maxSpanDays) to = last;
  return { from, to };
}

/** Every calendar day of a span. */
export function daysOf(span: Span): string[] {
  const out: string[] = [];
  for (let d = span.from; d <= span.to; d = addDays(d, 1)) out.push(d);
  return out;
}

/**
 * The month buckets a fetched span gives, merged with the cached bucket of the same month when
 * the two known stretches touch or overlap (a disjoint old one is dropped: the new one was
 * just needed).
 */
export function bucketsFromSpan(span: Span, records: readonly RateRecord[], cached: ReadonlyMap<string, unknown>): Map<string, MonthBucket> {
  const out = new Map<string, MonthBucket>();
  for (let month = monthOf(span.from); month <= monthOf(span.to); month = monthOf(addDays(monthBounds(month).last, 1))) {
    const bounds = monthBounds(month);
    const from = span.from > bounds.first ? span.from : bounds.first;
    const to = span.to < bounds.last ? span.to : bounds.last;
    out.set(month, { f: dayOf(from), t: dayOf(to), r: {} });
  }
  for (const record of records) {
    const bucket = out.get(monthOf(record.date));
    if (bucket && record.date >= span.from && record.date <= span.to) bucket.r[dd(dayOf(record.date))] = [record.buy, record.sell];
  }
  for (const [month, bucket] of out) {
    const old = cached.get(month);
    if (!isBucket(old) || old.t < bucket.f - 1 || old.f > bucket.t + 1) continue;
    out.set(month, { f: Math.min(old.f, bucket.f), t: Math.max(old.t, bucket.t), r: { ...old.r, ...bucket.r } });
  }
  return out;
}

/**
 * How long a bucket may be kept: a past stretch with a rate on every day is final (6 h, the most
 * CacheService keeps anything); one that reaches today, or has holes, may still fill in. A derived
 * currency's stretch has holes by nature: it is final once it ended SETTLED_DAYS before today.
 */
export function bucketTtl(month: string, bucket: MonthBucket, today: string, currency: string): number {
  const lastKnown = `${month}-${dd(bucket.t)}`;
  if (currency !== DOLLAR.code) return daysBetween(lastKnown, today) > SETTLED_DAYS ? CACHE_TTL.final : CACHE_TTL.moving;
  const complete = Object.keys(bucket.r).length === bucket.t - bucket.f + 1;
  return lastKnown < today && complete ? CACHE_TTL.final : CACHE_TTL.moving;
}
