/**
 * The facts an insight may speak about, computed from the window and nothing else. Both the
 * statistical text and the language model get exactly these: whatever a summary says must be
 * traceable to a field here.
 */
import type Decimal from 'decimal.js';
import { addDays, daysBetween } from '../../../shared/dates';
import type { Analytics, Verdict } from '../../../shared/types';
import { analyze } from '../analytics';
import { Dec } from '../decimal';
import { statistic } from '../rounding';
import type { RatePoint } from '../types';
import { verdictOf, verdictThreshold } from './verdict';

export type VolatilityLevel = 'low' | 'moderate' | 'high';

/** One day's change of the sell rate against the record before it. */
export interface DailyMove {
  date: string;
  previousDate: string;
  previous: number;
  value: number;
  /** CRC. */
  change: number;
  /** Percent, 4 decimals. */
  changePercent: number;
}

/** The official buy–sell spread (sell − buy), CRC, 4 decimals. */
export interface SpreadFacts {
  average: number;
  /** Averages over the first and the last 7 calendar days of the window (they overlap below 14 days). */
  firstWeek: number;
  lastWeek: number;
  /** lastWeek − firstWeek. */
  change: number;
  /** The average spread as a share of the average sell rate, in percent. */
  percentOfSell: number;
}

/** How far apart the institutions' window quotes are on one day. */
export interface InstitutionFacts {
  date: string;
  count: number;
  minSell: number;
  maxSell: number;
  /** maxSell − minSell. */
  range: number;
  averageSell: number;
  /** Population standard deviation of the sell quotes: the snapshot is every institution, not a sample. */
  standardDeviation: number;
}

/** MONEX in the window, from the sessions stored: only figures the central bank published. */
export interface MonexFacts {
  /** Days with a session, and known days without one. */
  sessions: number;
  daysWithout: number;
  firstDate: string;
  lastDate: string;
  /** The last session's weighted average, CRC per USD. */
  lastAverage: number;
  /** The lowest and highest prices traded in any session of the window. */
  lowestMin: number;
  highestMax: number;
  /** The mean of the sessions' weighted averages, 4 decimals. */
  averageOfAverages: number;
  /** The sum of the amounts traded, 4 decimals, in `volumeUnit` as published. */
  volume: number;
  volumeUnit: string | null;
}

/** A stored MONEX day, as the insight reads it. */
export interface MonexDayInput {
  date: string;
  session: boolean;
  average: number | null;
  min: number | null;
  max: number | null;
  volume: number | null;
  volumeUnit: string | null;
}

export interface Facts {
  /** The window asked for, in calendar days. */
  days: number;
  /** Calendar days from the first to the last record present, inclusive (less than `days` when the data starts later). */
  spanDays: number;
  metrics: Analytics;
  verdict: Verdict;
  /** The verdict's line for this span, in percent: |changePercent| at or above it is a move. */
  verdictThresholdPercent: number;
  volatility: { percent: number; level: VolatilityLevel };
  /** The largest daily moves of the sell rate by size, at most 3, largest first; days without a change are not moves. */
  biggestMoves: DailyMove[];
  spread: SpreadFacts;
  institutions: InstitutionFacts | null;
  /** Null when no MONEX session of the window is stored. */
  monex: MonexFacts | null;
}

export interface BankingSnapshot {
  date: string;
  quotes: ReadonlyArray<{ buy: number; sell: number }>;
}

/**
 * Words for the volatility (sample standard deviation of daily % changes). The series repeats
 * its value over weekends and holidays, and those zero changes pull the figure down, so the
 * bounds are lower than a market quoted every day would use.
 */
export const VOLATILITY_BOUNDS = { moderate: 0.2, high: 0.5 } as const;

export function volatilityLevel(volatility: number): VolatilityLevel {
  if (volatility >= VOLATILITY_BOUNDS.high) return 'high';
  if (volatility >= VOLATILITY_BOUNDS.moderate) return 'moderate';
  return 'low';
}

const WEEK_DAYS = 7;
const MOVES = 3;

export function buildFacts(input: {
  days: number;
  points: readonly RatePoint[];
  banking?: BankingSnapshot | null;
  monex?: readonly MonexDayInput[] | null;
}): Facts {
  const { days, points } = input;
  if (points.length === 0) throw new RangeError('an insight needs at least one record');
  const metrics = analyze(points);
  const spanDays = daysBetween(metrics.from, metrics.to) + 1;
  return {
    days,
    spanDays,
    metrics,
    verdict: verdictOf(metrics.sell.changePercent, spanDays),
    verdictThresholdPercent: verdictThreshold(spanDays),
    volatility: { percent: metrics.sell.volatility, level: volatilityLevel(metrics.sell.volatility) },
    biggestMoves: biggestMoves(points, MOVES),
    spread: spreadFacts(points, metrics),
    institutions: input.banking ? institutionFacts(input.banking) : null,
    monex: monexFacts(input.monex ?? []),
  };
}

export function monexFacts(days: readonly MonexDayInput[]): MonexFacts | null {
  const sessions = days
    .filter((d) => d.session && d.average !== null && d.min !== null && d.max !== null && d.volume !== null)
    .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  const first = sessions[0];
  const last = sessions.at(-1);
  if (!first || !last) return null;
  let averages = new Dec(0);
  let volume = new Dec(0);
  for (const s of sessions) {
    averages = averages.plus(s.average as number);
    volume = volume.plus(s.volume as number);
  }
  return {
    sessions: sessions.length,
    daysWithout: days.filter((d) => !d.session).length,
    firstDate: first.date,
    lastDate: last.date,
    lastAverage: last.average as number,
    lowestMin: Math.min(...sessions.map((s) => s.min as number)),
    highestMax: Math.max(...sessions.map((s) => s.max as number)),
    averageOfAverages: statistic(averages.div(sessions.length)),
    volume: statistic(volume),
    volumeUnit: last.volumeUnit,
  };
}

export function biggestMoves(points: readonly RatePoint[], count: number): DailyMove[] {
  const moves: DailyMove[] = [];
  for (let i = 1; i < points.length; i++) {
    const previous = points[i - 1].sell;
    const value = points[i].sell;
    if (value === previous) continue;
    const change = new Dec(value).minus(previous);
    moves.push({
      date: points[i].date,
      previousDate: points[i - 1].date,
      previous,
      value,
      change: statistic(change),
      changePercent: statistic(change.div(previous).times(100)),
    });
  }
  // Largest first; the sort is stable, so equal moves stay in date order (earliest first).
  return moves.sort((a, b) => Math.abs(b.changePercent) - Math.abs(a.changePercent)).slice(0, count);
}

function averageSpread(points: readonly RatePoint[]): Decimal {
  let sum = new Dec(0);
  for (const p of points) sum = sum.plus(new Dec(p.sell).minus(p.buy));
  return sum.div(points.length);
}

function spreadFacts(points: readonly RatePoint[], metrics: Analytics): SpreadFacts {
  const firstWeekEnd = addDays(metrics.from, WEEK_DAYS - 1);
  const lastWeekStart = addDays(metrics.to, -(WEEK_DAYS - 1));
  const average = averageSpread(points);
  // Neither week is ever empty: the first and the last record always fall in them.
  const firstWeek = averageSpread(points.filter((p) => p.date <= firstWeekEnd));
  const lastWeek = averageSpread(points.filter((p) => p.date >= lastWeekStart));
  return {
    average: statistic(average),
    firstWeek: statistic(firstWeek),
    lastWeek: statistic(lastWeek),
    change: statistic(lastWeek.minus(firstWeek)),
    percentOfSell: statistic(average.div(metrics.sell.average).times(100)),
  };
}

function institutionFacts(snapshot: BankingSnapshot): InstitutionFacts | null {
  const sells = snapshot.quotes.map((q) => q.sell).filter((v) => Number.isFinite(v) && v > 0);
  if (sells.length === 0) return null;
  let sum = new Dec(0);
  for (const v of sells) sum = sum.plus(v);
  const mean = sum.div(sells.length);
  let squares = new Dec(0);
  for (const v of sells) squares = squares.plus(new Dec(v).minus(mean).pow(2));
  const minSell = Math.min(...sells);
  const maxSell = Math.max(...sells);
  return {
    date: snapshot.date,
    count: sells.length,
    minSell,
    maxSell,
    range: statistic(new Dec(maxSell).minus(minSell)),
    averageSell: statistic(mean),
    standardDeviation: statistic(squares.div(sells.length).sqrt()),
  };
}
