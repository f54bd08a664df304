/**
 * Everything a sentence of the statistical text may quote, already written for people in one
 * language, and the small words shared by both phrasebooks.
 */
import type { InsightLocale } from '../../../shared/types';
import type { Facts, VolatilityLevel } from './facts';
import { formatDate, formatDateRange, formatDays, formatMoney, formatPercent, peopleDecimals, smallAmountDecimals } from './format';

/** A slope in colones per day, with enough decimals to show a small one. */
function slope(value: number, locale: InsightLocale): string {
  return formatMoney(value, locale, { signed: true, decimals: smallAmountDecimals(value) });
}

export function figures(facts: Facts, locale: InsightLocale) {
  const { metrics, spread, institutions } = facts;
  const sell = metrics.sell;
  const m = (value: number) => formatMoney(value, locale);
  const d = (date: string) => formatDate(date, locale);
  return {
    span: formatDays(facts.spanDays, locale),
    range: formatDateRange(metrics.from, metrics.to, locale),
    to: d(metrics.to),
    first: m(sell.first),
    last: m(sell.last),
    buyLast: m(metrics.buy.last),
    change: formatMoney(sell.change, locale, { signed: true }),
    percent: formatPercent(sell.changePercent, locale, { signed: true }),
    absPercent: formatPercent(Math.abs(sell.changePercent), locale),
    /** The verdict's line for this span, as `0.87%` (two decimals: it is a bound, read closely). */
    threshold: formatPercent(facts.verdictThresholdPercent, locale, { decimals: 2 }),
    min: m(sell.min),
    minDate: d(sell.minDate),
    max: m(sell.max),
    maxDate: d(sell.maxDate),
    average: m(sell.average),
    volatility: formatPercent(facts.volatility.percent, locale, { decimals: 2 }),
    level: facts.volatility.level,
    count: metrics.count,
    slope: slope(sell.slopePerDay, locale),
    buySlope: slope(metrics.buy.slopePerDay, locale),
    moves: facts.biggestMoves.map((move) => ({
      percent: formatPercent(move.changePercent, locale, { signed: true, decimals: peopleDecimals(move.changePercent) }),
      date: d(move.date),
      previous: m(move.previous),
      value: m(move.value),
    })),
    spread: {
      average: m(spread.average),
      firstWeek: m(spread.firstWeek),
      lastWeek: m(spread.lastWeek),
      percentOfSell: formatPercent(spread.percentOfSell, locale),
    },
    institutions: institutions && {
      date: d(institutions.date),
      count: institutions.count,
      min: m(institutions.minSell),
      max: m(institutions.maxSell),
      range: m(institutions.range),
      deviation: m(institutions.standardDeviation),
    },
  };
}

export type Figures = ReturnType<typeof figures>;

/** `a, b y c` / `a, b and c`. */
export function list(items: readonly string[], and: string): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${and} ${items[items.length - 1]}`;
}

const LEVELS: Record<InsightLocale, Record<VolatilityLevel | 'none', string>> = {
  es: { none: 'nula', low: 'baja', moderate: 'moderada', high: 'alta' },
  en: { none: 'zero', low: 'low', moderate: 'moderate', high: 'high' },
};

/** "Low" would undersell a series that did not move at all: that one is "nil". */
export function levelWord(facts: Facts, locale: InsightLocale): string {
  return LEVELS[locale][facts.volatility.percent === 0 ? 'none' : facts.volatility.level];
}
