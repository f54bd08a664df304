/**
 * EXCHANGECLOSE: the rate a month closes with (its last calendar day's) or its average, as
 * `/exchange-rate/close` gives them, for one month or a range of months with one request.
 *
 * `/exchange-rate/close` takes one month per request, so a column of twelve months would cost
 * twelve. `/exchange-rate/stats?period=monthly` gives every month of a span in one request, with
 * the same figures: each Period's `average` is the month's (the same exact sum over the same
 * records, rounded to 4 decimals), and its `to`/`last` are the last date present and its value —
 * which is the closing record exactly when `to` is the month's last calendar day, and no closing
 * record (`closing: null`) otherwise. A month with no record is left out, as /close answers 404.
 */
import { isAfterMonthOf, monthOf } from '../../shared/arguments';
import type { RateSide } from '../../shared/currencies';
import { DOLLAR } from '../../shared/currency-catalog';
import { daysBetween } from '../../shared/dates';
import type { PeriodStats } from '../../shared/types';
import { type Env, fetchData, recall, remember, requireKey, servedFromCopy } from './answers';
import type { ApiError } from './api';
import { ArgumentError, type Measure, type RateType, readMeasure, readRateCurrency, readRateType } from './args';
import { keys } from './cache';
import { CACHE_TTL } from './config';
import { isBlank, monthBounds, readMonthCell, type MonthCell } from './dates';
import { inCurrency } from './quotes';
import { carryDaysOf, SETTLED_DAYS } from './rates';
import { answer, distinct, mapCells, toCells } from './shape';
import type { Cell } from './tables';

/**
 * A month's figures as cached: how many records, the last date present, and `[average, last]` of
 * each side. `null` in the cache: the month has no record.
 */
export interface MonthFigures {
  n: number;
  to: string;
  buy: [number, number];
  sell: [number, number];
}

function isFigures(value: unknown): value is MonthFigures | null {
  if (value === null) return true;
  const f = value as MonthFigures;
  return !!f && typeof f === 'object' && typeof f.n === 'number' && typeof f.to === 'string' && Array.isArray(f.buy) && Array.isArray(f.sell);
}

export function figuresOf(period: PeriodStats): MonthFigures {
  return { n: period.count, to: period.to, buy: [period.buy.average, period.buy.last], sell: [period.sell.average, period.sell.last] };
}

/**
 * The month's closing rate or its average, on one side. Closing is the rate in force on the
 * month's last calendar day: the dollar's own rate of that day, as /exchange-rate/close gives it;
 * a derived currency's last day is often a weekend, so its closing is the last rate of the
 * CARRY_DAYS before that day too, as EXCHANGERATE gives that day (once it is not after today). A
 * bookkeeper closes a euro account with the last euro rate of the month. null: none.
 */
export function figureOf(month: string, figures: MonthFigures, side: RateSide, measure: Measure, currency: string, today: string): number | null {
  const [average, last] = figures[side];
  if (measure === 'average') return average;
  const lastDay = monthBounds(month).last;
  if (figures.to === lastDay) return last;
  const inForce = lastDay <= today && daysBetween(figures.to, lastDay) <= carryDaysOf(currency);
  return inForce ? last : null;
}

/**
 * A month every day of which has a rate, and which is over, does not change: it is kept 6 h; any
 * other a few minutes. A derived currency's month has gaps by nature (weekends, holidays abroad):
 * it is final once it ended SETTLED_DAYS ago.
 */
export function figuresTtl(month: string, figures: MonthFigures | null, today: string, currency: string): number {
  const { last } = monthBounds(month);
  if (currency !== DOLLAR.code) return figures !== null && daysBetween(last, today) > SETTLED_DAYS ? CACHE_TTL.final : CACHE_TTL.moving;
  const final = figures !== null && figures.n === Number(last.slice(8)) && month < monthOf(today);
  return final ? CACHE_TTL.final : CACHE_TTL.moving;
}

/** The first month after `month`. */
function nextMonth(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return m === 12 ? `${String(y + 1).padStart(4, '0')}-01` : `${month.slice(0, 5)}${String(m + 1).padStart(2, '0')}`;
}

/**
 * The figures of many months at once: from one cache read, the rest with one
 * `/exchange-rate/stats` request over the span from the first missing month to the last.
 */
export function monthFiguresFor(env: Env, months: readonly string[], currency: string): Map<string, MonthFigures | null> {
  const found = new Map<string, MonthFigures | null>();
  if (months.length === 0) return found;
  requireKey(env);
  const closeKey = (month: string) => keys.close(env.baseUrl, month, currency);
  const read = env.store.readAll(months.map(closeKey));
  const missing: string[] = [];
  for (const month of months) {
    const key = closeKey(month);
    const cached = read.get(key);
    if (read.has(key) && isFigures(cached)) found.set(month, cached);
    else missing.push(month);
  }
  if (missing.length === 0) return found;

  const sorted = [...missing].sort();
  const first = sorted[0] as string;
  const last = sorted[sorted.length - 1] as string;
  let periods: PeriodStats[];
  try {
    const span = { period: 'monthly', from: monthBounds(first).first, to: monthBounds(last).last };
    periods = fetchData<PeriodStats[]>(env, '/exchange-rate/stats', inCurrency(span, currency));
  } catch (error) {
    const missingKeys = missing.map(closeKey);
    const recalled = recall(env, missingKeys, error);
    for (const month of missing) {
      const figures = recalled.get(closeKey(month));
      if (!isFigures(figures)) throw error;
      found.set(month, figures);
    }
    servedFromCopy(env, missingKeys, error as ApiError);
    return found;
  }

  const byMonth = new Map(periods.map((p) => [p.period, p]));
  const wanted = new Set(missing);
  const entries = [];
  // Only the months asked for are kept: the span between them may be decades the sheet never shows.
  for (let month = first; month <= last; month = nextMonth(month)) {
    if (!wanted.has(month)) continue;
    const period = byMonth.get(month);
    const figures = period ? figuresOf(period) : null;
    found.set(month, figures);
    entries.push({ key: closeKey(month), value: figures, ttl: figuresTtl(month, figures, env.today, currency) });
  }
  remember(env, entries);
  return found;
}

/** A month cell; a month after the current one (which the API refuses), or a fiscal close still to come, told apart. */
type Checked = MonthCell | { kind: 'future' | 'pending'; month: string };

/** A month cell, with months after the current one (which the API refuses) told apart. */
function checkMonth(value: unknown, env: Env): Checked {
  const cell = readMonthCell(value, env.format);
  return cell.kind === 'month' && isAfterMonthOf(cell.month, env.today) ? { kind: 'future', month: cell.month } : cell;
}

/**
 * The month whose figures answer a month cell: itself, or, for the closing rate of a purpose whose
 * rule settles at the fiscal close (income tax), December of the same year. A December still to
 * come is the current month's business: it has no closing rate yet.
 */
function closingMonth(month: string, type: RateType, how: Measure): string {
  return how === 'closing' && type.purpose?.close === 'fiscal-year-end' ? `${month.slice(0, 4)}-12` : month;
}

export function exchangeClose(env: Env, month: unknown, type: unknown, measure: unknown, currency: unknown): Cell | Cell[][] {
  const rateType = readRateType(type, env.t);
  const { side } = rateType;
  const how = readMeasure(measure, env.t);
  const code = readRateCurrency(currency, env.t);
  const current = monthOf(env.today);
  /** A month cell as the month whose figures answer it; a fiscal close still to come is told apart. */
  const target = (month: string): { kind: 'month' | 'pending'; month: string } => {
    const moved = closingMonth(month, rateType, how);
    return { kind: moved > current ? 'pending' : 'month', month: moved };
  };

  if (!Array.isArray(month)) {
    // One month: whatever is wrong fails the call with a message that says what.
    const asked = checkMonth(month, env);
    if (asked.kind === 'blank' || asked.kind === 'invalid') throw new ArgumentError(env.t.badMonth(isBlank(month) ? '' : String(month)));
    if (asked.kind === 'future') throw new ArgumentError(env.t.monthAfterCurrent(current, asked.month));
    const cell = target(asked.month);
    if (cell.kind === 'pending') throw new Error(env.t.noClosing(cell.month, monthBounds(cell.month).last));
    const figures = monthFiguresFor(env, [cell.month], code).get(cell.month);
    if (!figures) throw new Error(env.t.monthNoRate(cell.month, code));
    const value = figureOf(cell.month, figures, side, how, code, env.today);
    if (value === null) throw new Error(env.t.noClosing(cell.month, monthBounds(cell.month).last));
    return value;
  }

  // A range: one request for all its months, the answer in its shape, a short text in a bad cell.
  const cells = toCells(month);
  const checked = mapCells(cells.rows, (v): Checked => {
    const cell = checkMonth(v, env);
    return cell.kind === 'month' ? target(cell.month) : cell;
  });
  const figures = monthFiguresFor(
    env,
    distinct(checked, (c) => ((c as Checked).kind === 'month' ? (c as { month: string }).month : null)),
    code,
  );
  return answer(
    cells,
    checked.map((row) =>
      row.map((c): Cell => {
        if (c.kind === 'blank') return '';
        if (c.kind === 'invalid') return env.t.cellBadMonth;
        if (c.kind === 'future') return env.t.cellFutureMonth;
        if (c.kind === 'pending') return env.t.cellNoClosing;
        const f = figures.get(c.month);
        if (!f) return env.t.cellNoRate;
        return figureOf(c.month, f, side, how, code, env.today) ?? env.t.cellNoClosing;
      }),
    ),
  );
}
