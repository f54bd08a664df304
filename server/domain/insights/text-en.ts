/** The statistical text in English (see text.ts for the rules every sentence follows). */
import type { Facts } from './facts';
import { type Figures, levelWord, list } from './figures';
import { formatPercent } from './format';
import type { Phrasebook } from './phrasebook';
import type { Direction, Reading, Side } from './reading';

const WAY: Record<Direction, string> = { 1: 'upward', [-1]: 'downward' };

/** `the linear trend of the buy rate points upward (+₡0.05 per day)`, for one side or both. */
function trend(sides: readonly Side[], direction: Direction, f: Figures): string {
  if (sides.length === 2) return `the linear trends of the buy and sell rates point ${WAY[direction]} (${f.buySlope} and ${f.slope} per day)`;
  return sides[0] === 'buy'
    ? `the linear trend of the buy rate points ${WAY[direction]} (${f.buySlope} per day)`
    : `the linear trend of the sell rate points ${WAY[direction]} (${f.slope} per day)`;
}

/** The main cause of a window with a measurable volatility, by the story its figures tell. */
function storyCause(facts: Facts, r: Reading, f: Figures): string {
  const level = levelWord(facts, 'en');
  const high = f.level === 'high';
  const story = r.story;
  switch (story.kind) {
    case 'one-way':
      if (story.direction === -1) {
        return high
          ? `A fall of ${f.absPercent} over ${f.span} with high volatility (${f.volatility}) suggests the move came in jolts rather than from a steady flow: large one-off dollar sales probably weighed on the exchange market.`
          : `A ${r.steady ? 'steady ' : ''}fall of ${f.absPercent} over ${f.span} with ${level} volatility (${f.volatility}) is typical of dollar supply exceeding demand: more foreign currency probably came in from exports, tourism or foreign investment than went out in imports and payments abroad.`;
      }
      return high
        ? `A rise of ${f.absPercent} over ${f.span} with high volatility (${f.volatility}) suggests pressure in jolts rather than steady demand: large one-off dollar purchases probably account for much of the move.`
        : `A ${r.steady ? 'steady ' : ''}rise of ${f.absPercent} over ${f.span} with ${level} volatility (${f.volatility}) is typical of dollar demand exceeding supply: payments for imports and foreign debt, or savings moving into dollars, probably outweighed the inflows.`;
    case 'against':
      return `A ${story.direction === 1 ? 'rise' : 'fall'} of ${f.absPercent} over ${f.span}, while ${trend(story.sides, -story.direction as Direction, f)}, means the rate did not move one way: pressure on the dollar probably went in both directions, and the colón ended ${story.direction === 1 ? 'weaker' : 'stronger'} than it began.`;
    case 'leaning':
      return `${facts.metrics.sell.change === 0 ? `No change over ${f.span}` : `A change of just ${f.percent} over ${f.span}`} is within the ±${f.threshold} that reads as stable for a window this long, but ${trend(story.sides, story.direction, f)}: dollar ${story.direction === 1 ? 'demand' : 'supply'} probably had a slight edge over the period, too small to call it a${story.direction === 1 ? ' depreciation' : 'n appreciation'} of the colón.`;
    case 'crossed':
      return `A change of just ${f.percent} over ${f.span}, with the linear trends of the buy and sell rates pointing opposite ways (${f.buySlope} and ${f.slope} per day), suggests that neither dollar supply nor demand clearly prevailed; the gap between buying and selling probably moved more than the rate itself.`;
    case 'balanced':
      return high
        ? `Although it ended close to where it began (${f.percent}), high volatility (${f.volatility}) points to pressure in both directions that probably offset each other: days of more dollar supply followed by days of more demand.`
        : facts.metrics.sell.change === 0
          ? `With no change over ${f.span} and ${level} volatility (${f.volatility}), dollar supply and demand were probably in balance during the period.`
          : `A change of just ${f.percent} over ${f.span} with ${level} volatility (${f.volatility}) indicates that dollar supply and demand were probably in balance during the period.`;
  }
}

export const english: Phrasebook = {
  summary(facts, r, f) {
    const sell = facts.metrics.sell;
    if (facts.metrics.count === 1) {
      return [
        `There is a single record in the window, on ${f.to}: the sell rate was ${f.last} and the buy rate ${f.buyLast}; more days are needed to describe a movement.`,
      ];
    }
    const opening = `Over the last ${f.span} (${f.range}), the sell rate`;
    const moved = `from ${f.first} to ${f.last} (${f.change}, ${f.percent})`;
    const direction = {
      appreciation: `${opening} fell ${moved}: the colón appreciated against the dollar.`,
      depreciation: `${opening} rose ${moved}: the colón depreciated against the dollar.`,
      stable:
        sell.change === 0
          ? `${opening} ended where it began, at ${f.last}: the colón held steady against the dollar.`
          : `${opening} edged ${sell.change > 0 ? 'up' : 'down'} ${moved}, within ±${f.threshold}: the colón held steady against the dollar.`,
    }[facts.verdict];
    const range =
      sell.min === sell.max
        ? 'It did not move at all during the period.'
        : `It ranged between ${f.min} (${f.minDate}) and ${f.max} (${f.maxDate}), averaging ${f.average}.`;
    const biggest = f.moves[0];
    const volatility = !r.measurable
      ? 'There are too few records to measure volatility.'
      : `Daily volatility was ${levelWord(facts, 'en')} (${f.volatility})${biggest ? `; the largest one-day move was ${biggest.percent}, on ${biggest.date}` : ''}.`;
    const way = sell.trend === 'up' ? 'upward' : 'downward';
    const trend =
      r.sellTrendNote === 'disagrees'
        ? `Even so, the period's linear trend points ${way} (${f.slope} per day): the rate did not move in a single direction.`
        : r.sellTrendNote === 'under-line'
          ? `Its linear trend points ${way} too (${f.slope} per day), but not by enough to take the change past ±${f.threshold}.`
          : null;
    return [direction, range, volatility, trend].filter((s): s is string => s !== null);
  },

  mainCause(facts, r, f) {
    if (!r.measurable) {
      return f.count === 1
        ? 'With a single record, volatility cannot be measured and no move can be attributed to dollar supply or demand; more days are needed before any explanation is likely.'
        : `With only ${f.count} records volatility cannot be measured, so a change of ${f.percent} over ${f.span} probably reflects a single session's move rather than a trend in dollar supply or demand.`;
    }
    return storyCause(facts, r, f);
  },

  movesCause(_facts, r, f) {
    if (!r.notableMove) return null;
    const listed = f.moves.slice(0, r.listedMoves.length).map((m) => `${m.percent} on ${m.date}`);
    const biggest = f.moves[0];
    const head =
      listed.length === 1
        ? `The largest daily move was ${biggest.percent} on ${biggest.date} (${biggest.previous} to ${biggest.value})`
        : `The largest daily moves were ${list(listed, 'and')}`;
    const share =
      r.biggestMoveShare === null
        ? ''
        : `; ${listed.length === 1 ? 'that day' : `the one on ${biggest.date}`} alone accounts for ${formatPercent(r.biggestMoveShare, 'en', { decimals: 0 })} of the period's change`;
    return `${head}${share}. Jumps like these in a single day usually reflect large one-off trades in the wholesale market (MONEX) rather than a shift in fundamentals.`;
  },

  spreadCause(_facts, r, f) {
    const s = f.spread;
    switch (r.spreadMove) {
      case 'widened':
        return `The buy–sell spread averaged ${s.average} (${s.percentOfSell} of the sell rate) and widened from ${s.firstWeek} in the first week to ${s.lastWeek} in the last; a widening spread usually signals more uncertainty or thinner liquidity in the market.`;
      case 'narrowed':
        return `The buy–sell spread averaged ${s.average} (${s.percentOfSell} of the sell rate) and narrowed from ${s.firstWeek} in the first week to ${s.lastWeek} in the last; a narrowing spread usually reflects more liquidity and competition among those buying and selling dollars.`;
      case 'steady':
        return `The buy–sell spread held around ${s.average} (${s.firstWeek} in the first week, ${s.lastWeek} in the last); a steady spread suggests liquidity conditions probably did not change appreciably.`;
      case 'short':
        return `The buy–sell spread averaged ${s.average}, ${s.percentOfSell} of the sell rate; the window is too short to compare weeks, but a widening spread usually signals more uncertainty and a narrowing one more liquidity.`;
    }
  },

  institutionsCause(_facts, r, f) {
    const i = f.institutions;
    if (!i || r.dispersion === null) return null;
    const reading = {
      low: 'such a narrow dispersion suggests prices aligned with the reference rate and, probably, a competitive market.',
      moderate:
        'a moderate dispersion suggests institutions probably adjust their prices at somewhat different paces, so it pays to compare before exchanging.',
      wide: "a wide dispersion suggests institutions probably pass the reference rate's moves on at different paces, so comparing before exchanging can save money.",
    }[r.dispersion];
    return `At the window on ${i.date}, the ${i.count} institutions sold dollars between ${i.min} and ${i.max} (a ${i.range} range, standard deviation ${i.deviation}); ${reading}`;
  },
};
