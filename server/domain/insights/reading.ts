/**
 * What the statistical text decides before it writes a word, the same in every language: which
 * story the figures tell, which moves are worth a sentence, how the spread and the window quotes
 * read. Every sentence then follows one of these decisions, so no two sentences can disagree,
 * and none can claim a direction that the verdict or a trend of the same window denies.
 */
import type { Trend } from '../../../shared/types';
import type { DailyMove, Facts } from './facts';
import { VERDICT_BASE_PERCENT } from './verdict';

/** A single day that moves as much as the verdict's line of a short window is worth a cause of its own. */
const NOTABLE_MOVE_PERCENT = VERDICT_BASE_PERCENT;
/** Smaller daily moves read as "0.0 %" or noise and are left out of the list. */
const LISTED_MOVE_PERCENT = 0.1;
/** Windows shorter than two weeks have overlapping first and last weeks: nothing to compare. */
const WEEKS_COMPARABLE_FROM_DAYS = 14;
/** A change of the spread below 5 % of its average (or ₡0.05) is read as no change. */
const SPREAD_CHANGE_SHARE = 0.05;
const SPREAD_CHANGE_MIN = 0.05;
/** Institutions' sell quotes spread over less than 1 % of their average are aligned; 2 % or more is wide. */
const DISPERSION_BOUNDS = { moderate: 1, wide: 2 } as const;

export type Dispersion = 'low' | 'moderate' | 'wide';
export type SpreadMove = 'widened' | 'narrowed' | 'steady' | 'short';
export type Side = 'buy' | 'sell';
/** Up (+1) or down (−1): the direction of the rate, so +1 is more colones per dollar. */
export type Direction = 1 | -1;

/**
 * The story of the window, from the verdict and the linear trends of both sides:
 * - `one-way`: a move (appreciation or depreciation) that no trend contradicts;
 * - `against`: a move while the trend of one side or both points the other way;
 * - `balanced`: no move and no trend;
 * - `leaning`: no move, but a trend (of one side or both, the same way);
 * - `crossed`: no move, and the buy and sell trends point opposite ways.
 */
export type Story =
  | { kind: 'one-way'; direction: Direction }
  | { kind: 'against'; direction: Direction; sides: Side[] }
  | { kind: 'balanced' }
  | { kind: 'leaning'; direction: Direction; sides: Side[] }
  | { kind: 'crossed' };

export interface Reading {
  /** Fewer than 3 records: no volatility to speak of (docs/api.md: it is 0 then). */
  measurable: boolean;
  story: Story;
  /** A low-volatility move whose sell trend points the same way as the change. */
  steady: boolean;
  /**
   * What the summary adds about the sell trend: that it points against the change (`disagrees`),
   * that it points the same way as a change too small to be a move (`under-line`), or nothing.
   */
  sellTrendNote: 'disagrees' | 'under-line' | null;
  listedMoves: DailyMove[];
  notableMove: boolean;
  /** The share of the window's change made by the biggest move alone, in percent, when it is at least half. */
  biggestMoveShare: number | null;
  spreadMove: SpreadMove;
  dispersion: Dispersion | null;
}

export function trendSign(trend: Trend): -1 | 0 | 1 {
  return trend === 'up' ? 1 : trend === 'down' ? -1 : 0;
}

export function storyOf(facts: Facts): Story {
  const { verdict, metrics } = facts;
  const signs: Record<Side, -1 | 0 | 1> = { buy: trendSign(metrics.buy.trend), sell: trendSign(metrics.sell.trend) };
  const sides: Side[] = ['sell', 'buy'];
  if (verdict !== 'stable') {
    const direction: Direction = verdict === 'depreciation' ? 1 : -1;
    const against = sides.filter((side) => signs[side] === -direction);
    return against.length === 0 ? { kind: 'one-way', direction } : { kind: 'against', direction, sides: against };
  }
  const trending = sides.filter((side) => signs[side] !== 0);
  if (trending.length === 0) return { kind: 'balanced' };
  if (trending.length === 2 && signs.buy !== signs.sell) return { kind: 'crossed' };
  return { kind: 'leaning', direction: signs[trending[0] as Side] as Direction, sides: trending };
}

export function read(facts: Facts): Reading {
  const { metrics, verdict, volatility, biggestMoves, spread, institutions } = facts;
  const sell = metrics.sell;
  const measurable = metrics.count >= 3;
  const direction = Math.sign(sell.change);
  const sellSign = trendSign(sell.trend);
  const biggest = biggestMoves[0];
  let biggestMoveShare: number | null = null;
  if (biggest && verdict !== 'stable' && Math.sign(biggest.change) === direction) {
    const share = (biggest.change / sell.change) * 100;
    if (share >= 50 && share <= 100) biggestMoveShare = share;
  }
  let spreadMove: SpreadMove = 'short';
  if (facts.spanDays >= WEEKS_COMPARABLE_FROM_DAYS) {
    const threshold = Math.max(SPREAD_CHANGE_MIN, Math.abs(spread.average) * SPREAD_CHANGE_SHARE);
    spreadMove = spread.change >= threshold ? 'widened' : spread.change <= -threshold ? 'narrowed' : 'steady';
  }
  let dispersion: Dispersion | null = null;
  if (institutions && institutions.count >= 2) {
    const relative = (institutions.range / institutions.averageSell) * 100;
    dispersion = relative >= DISPERSION_BOUNDS.wide ? 'wide' : relative >= DISPERSION_BOUNDS.moderate ? 'moderate' : 'low';
  }
  let sellTrendNote: Reading['sellTrendNote'] = null;
  if (sellSign !== 0) sellTrendNote = sellSign !== direction ? 'disagrees' : verdict === 'stable' ? 'under-line' : null;
  return {
    measurable,
    story: storyOf(facts),
    steady: measurable && volatility.level === 'low' && sellSign !== 0 && sellSign === direction,
    sellTrendNote,
    listedMoves: biggestMoves.filter((m) => Math.abs(m.changePercent) >= LISTED_MOVE_PERCENT),
    notableMove: biggest !== undefined && Math.abs(biggest.changePercent) >= NOTABLE_MOVE_PERCENT,
    biggestMoveShare,
    spreadMove,
    dispersion,
  };
}
