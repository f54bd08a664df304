/**
 * The statistical insight: a summary and probable causes written from the facts alone, in
 * Spanish or English. It is the answer when no language model is configured and the fallback
 * when the model fails, so it must read well on its own.
 *
 * Every figure quoted comes from `Facts`; the causes are phrased as probabilities ("suele",
 * "probablemente", "usually", "probably") and name only general market mechanisms, never an
 * event, a date or a piece of news that the data does not hold.
 */
import type { InsightLocale } from '../../../shared/types';
import type { DailyMove, Facts, VolatilityLevel } from './facts';
import { formatDate, formatDateRange, formatDays, formatMoney, formatPercent, peopleDecimals, smallAmountDecimals } from './format';
import { VERDICT_THRESHOLD_PERCENT } from './verdict';

export interface InsightText {
  summary: string;
  causes: string[];
}

/** A single day that moves as much as the verdict's line is worth a cause of its own. */
const NOTABLE_MOVE_PERCENT = VERDICT_THRESHOLD_PERCENT;
/** Smaller daily moves read as "0.0 %" or noise and are left out of the list. */
const LISTED_MOVE_PERCENT = 0.1;
/** Windows shorter than two weeks have overlapping first and last weeks: nothing to compare. */
const WEEKS_COMPARABLE_FROM_DAYS = 14;
/** A change of the spread below 5 % of its average (or ₡0.05) is read as no change. */
const SPREAD_CHANGE_SHARE = 0.05;
const SPREAD_CHANGE_MIN = 0.05;
/** Institutions' sell quotes spread over less than 1 % of their average are aligned; 2 % or more is wide. */
const DISPERSION_BOUNDS = { moderate: 1, wide: 2 } as const;

type Dispersion = 'low' | 'moderate' | 'wide';
type SpreadMove = 'widened' | 'narrowed' | 'steady' | 'short';

/** The decisions, taken once and independently of the language. */
interface Reading {
  /** Fewer than 3 records: no volatility to speak of (docs/api.md: it is 0 then). */
  measurable: boolean;
  /** A low-volatility move whose regression trend points the same way as the change. */
  steady: boolean;
  /** The regression trend points against the change (or somewhere while the verdict is stable). */
  trendDisagrees: boolean;
  listedMoves: DailyMove[];
  notableMove: boolean;
  /** The share of the window's change made by the biggest move alone, in percent, when it is at least half. */
  biggestMoveShare: number | null;
  spreadMove: SpreadMove;
  dispersion: Dispersion | null;
}

function read(facts: Facts): Reading {
  const { metrics, verdict, volatility, biggestMoves, spread, institutions } = facts;
  const sell = metrics.sell;
  const measurable = metrics.count >= 3;
  const direction = Math.sign(sell.change);
  const trendSign = sell.trend === 'up' ? 1 : sell.trend === 'down' ? -1 : 0;
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
  return {
    measurable,
    steady: measurable && volatility.level === 'low' && trendSign !== 0 && trendSign === direction,
    trendDisagrees: trendSign !== 0 && (verdict === 'stable' || trendSign !== direction),
    listedMoves: biggestMoves.filter((m) => Math.abs(m.changePercent) >= LISTED_MOVE_PERCENT),
    notableMove: biggest !== undefined && Math.abs(biggest.changePercent) >= NOTABLE_MOVE_PERCENT,
    biggestMoveShare,
    spreadMove,
    dispersion,
  };
}

/** Everything a sentence may quote, already written for people in one language. */
function figures(facts: Facts, locale: InsightLocale) {
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
    min: m(sell.min),
    minDate: d(sell.minDate),
    max: m(sell.max),
    maxDate: d(sell.maxDate),
    average: m(sell.average),
    volatility: formatPercent(facts.volatility.percent, locale, { decimals: 2 }),
    level: facts.volatility.level,
    count: metrics.count,
    slope: formatMoney(sell.slopePerDay, locale, { signed: true, decimals: smallAmountDecimals(sell.slopePerDay) }),
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

type Figures = ReturnType<typeof figures>;

interface Phrasebook {
  summary(facts: Facts, r: Reading, f: Figures): string[];
  mainCause(facts: Facts, r: Reading, f: Figures): string;
  movesCause(facts: Facts, r: Reading, f: Figures): string | null;
  spreadCause(facts: Facts, r: Reading, f: Figures): string;
  institutionsCause(facts: Facts, r: Reading, f: Figures): string | null;
}

/** `a, b y c` / `a, b and c`. */
function list(items: readonly string[], and: string): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${and} ${items[items.length - 1]}`;
}

const LEVELS: Record<InsightLocale, Record<VolatilityLevel | 'none', string>> = {
  es: { none: 'nula', low: 'baja', moderate: 'moderada', high: 'alta' },
  en: { none: 'zero', low: 'low', moderate: 'moderate', high: 'high' },
};

/** "Low" would undersell a series that did not move at all: that one is "nil". */
function levelWord(facts: Facts, locale: InsightLocale): string {
  return LEVELS[locale][facts.volatility.percent === 0 ? 'none' : facts.volatility.level];
}

const spanish: Phrasebook = {
  summary(facts, r, f) {
    const sell = facts.metrics.sell;
    if (facts.metrics.count === 1) {
      return [
        `Solo hay un registro en la ventana, el ${f.to}: el tipo de cambio de venta fue ${f.last} y el de compra ${f.buyLast}; hacen falta más días para describir un movimiento.`,
      ];
    }
    const opening = `En los últimos ${f.span} (${f.range}), el tipo de cambio de venta`;
    const moved = `de ${f.first} a ${f.last} (${f.change}, ${f.percent})`;
    const direction = {
      appreciation: `${opening} bajó ${moved}: el colón se apreció frente al dólar.`,
      depreciation: `${opening} subió ${moved}: el colón se depreció frente al dólar.`,
      stable:
        sell.change === 0
          ? `${opening} terminó donde empezó, en ${f.last}: el colón se mantuvo estable frente al dólar.`
          : `${opening} ${sell.change > 0 ? 'subió' : 'bajó'} apenas ${moved}: el colón se mantuvo estable frente al dólar.`,
    }[facts.verdict];
    const range =
      sell.min === sell.max
        ? 'No se movió en todo el período.'
        : `Osciló entre ${f.min} (${f.minDate}) y ${f.max} (${f.maxDate}), con un promedio de ${f.average}.`;
    const biggest = f.moves[0];
    const volatility = !r.measurable
      ? 'Hay muy pocos registros para medir la volatilidad.'
      : `La volatilidad diaria fue ${levelWord(facts, 'es')} (${f.volatility})${biggest ? `; el mayor movimiento de un día fue de ${biggest.percent}, el ${biggest.date}` : ''}.`;
    const trend = r.trendDisagrees
      ? `Aun así, la tendencia lineal del período apunta ${sell.trend === 'up' ? 'al alza' : 'a la baja'} (${f.slope} por día): el tipo de cambio no se movió en una sola dirección.`
      : null;
    return [direction, range, volatility, trend].filter((s): s is string => s !== null);
  },

  mainCause(facts, r, f) {
    if (!r.measurable) {
      return f.count === 1
        ? 'Con un solo registro no es posible medir la volatilidad ni atribuir un movimiento a la oferta o la demanda de dólares; hacen falta más días para que una explicación sea probable.'
        : `Con solo ${f.count} registros no se puede medir la volatilidad, así que una variación de ${f.percent} en ${f.span} probablemente refleja el movimiento de una sola sesión más que una tendencia de la oferta o la demanda de dólares.`;
    }
    const level = levelWord(facts, 'es');
    const high = f.level === 'high';
    switch (facts.verdict) {
      case 'appreciation':
        return high
          ? `Una baja de ${f.absPercent} en ${f.span} con volatilidad alta (${f.volatility}) sugiere que el movimiento llegó a sacudidas más que por un flujo constante: es probable que ventas grandes y puntuales de dólares hayan pesado en el mercado cambiario.`
          : `Una baja ${r.steady ? 'sostenida ' : ''}de ${f.absPercent} en ${f.span} con volatilidad ${level} (${f.volatility}) es típica de una oferta de dólares mayor que la demanda: probablemente entraron más divisas por exportaciones, turismo o inversión extranjera de las que salieron por importaciones y pagos al exterior.`;
      case 'depreciation':
        return high
          ? `Un alza de ${f.absPercent} en ${f.span} con volatilidad alta (${f.volatility}) sugiere presiones a sacudidas más que una demanda constante: es probable que compras grandes y puntuales de dólares expliquen buena parte del movimiento.`
          : `Un alza ${r.steady ? 'sostenida ' : ''}de ${f.absPercent} en ${f.span} con volatilidad ${level} (${f.volatility}) es típica de una demanda de dólares mayor que la oferta: probablemente pesaron más los pagos de importaciones y de deuda externa, o el ahorro en dólares, que las divisas que ingresaron.`;
      case 'stable':
        return high
          ? `Aunque terminó cerca de donde empezó (${f.percent}), la volatilidad alta (${f.volatility}) indica presiones en ambos sentidos que probablemente se compensaron: días de más oferta de dólares seguidos de días de más demanda.`
          : facts.metrics.sell.change === 0
            ? `Sin variación en ${f.span} y con volatilidad ${level} (${f.volatility}), la oferta y la demanda de dólares probablemente estuvieron equilibradas durante el período.`
            : `Una variación de apenas ${f.percent} en ${f.span} con volatilidad ${level} (${f.volatility}) indica que la oferta y la demanda de dólares probablemente estuvieron equilibradas durante el período.`;
    }
  },

  movesCause(_facts, r, f) {
    if (!r.notableMove) return null;
    const listed = f.moves.slice(0, r.listedMoves.length).map((m) => `${m.percent} el ${m.date}`);
    const biggest = f.moves[0];
    const head =
      listed.length === 1
        ? `El mayor movimiento diario fue de ${biggest.percent} el ${biggest.date} (de ${biggest.previous} a ${biggest.value})`
        : `Los mayores movimientos diarios fueron ${list(listed, 'y')}`;
    const share =
      r.biggestMoveShare === null
        ? ''
        : `; ${listed.length === 1 ? 'ese día' : `solo el del ${biggest.date}`} representa el ${formatPercent(r.biggestMoveShare, 'es', { decimals: 0 })} del cambio del período`;
    return `${head}${share}. Saltos así en un solo día suelen responder a operaciones grandes y puntuales en el mercado mayorista (MONEX) más que a un cambio de fondo.`;
  },

  spreadCause(_facts, r, f) {
    const s = f.spread;
    switch (r.spreadMove) {
      case 'widened':
        return `El margen entre compra y venta promedió ${s.average} (${s.percentOfSell} del precio de venta) y se amplió de ${s.firstWeek} en la primera semana a ${s.lastWeek} en la última; un margen que se amplía suele indicar más incertidumbre o menos liquidez en el mercado.`;
      case 'narrowed':
        return `El margen entre compra y venta promedió ${s.average} (${s.percentOfSell} del precio de venta) y se redujo de ${s.firstWeek} en la primera semana a ${s.lastWeek} en la última; un margen que se estrecha suele reflejar más liquidez y competencia entre quienes compran y venden dólares.`;
      case 'steady':
        return `El margen entre compra y venta se mantuvo en torno a ${s.average} (${s.firstWeek} en la primera semana, ${s.lastWeek} en la última); un margen estable sugiere que las condiciones de liquidez probablemente no cambiaron de forma apreciable.`;
      case 'short':
        return `El margen entre compra y venta promedió ${s.average}, el ${s.percentOfSell} del precio de venta; la ventana es demasiado corta para comparar semanas, pero un margen que se amplía suele indicar más incertidumbre y uno que se estrecha, más liquidez.`;
    }
  },

  institutionsCause(_facts, r, f) {
    const i = f.institutions;
    if (!i || r.dispersion === null) return null;
    const reading = {
      low: 'una dispersión tan baja sugiere precios alineados con el tipo de referencia y, probablemente, un mercado competitivo.',
      moderate:
        'una dispersión moderada sugiere que las entidades probablemente ajustan sus precios a ritmos algo distintos, así que vale la pena comparar antes de cambiar.',
      wide: 'una dispersión amplia sugiere que las entidades probablemente trasladan los movimientos del tipo de referencia a ritmos distintos, así que comparar antes de cambiar puede ahorrar dinero.',
    }[r.dispersion];
    return `En ventanilla, el ${i.date}, las ${i.count} entidades vendían el dólar entre ${i.min} y ${i.max} (una diferencia de ${i.range}, con desviación estándar de ${i.deviation}); ${reading}`;
  },
};

const english: Phrasebook = {
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
          : `${opening} edged ${sell.change > 0 ? 'up' : 'down'} ${moved}: the colón held steady against the dollar.`,
    }[facts.verdict];
    const range =
      sell.min === sell.max
        ? 'It did not move at all during the period.'
        : `It ranged between ${f.min} (${f.minDate}) and ${f.max} (${f.maxDate}), averaging ${f.average}.`;
    const biggest = f.moves[0];
    const volatility = !r.measurable
      ? 'There are too few records to measure volatility.'
      : `Daily volatility was ${levelWord(facts, 'en')} (${f.volatility})${biggest ? `; the largest one-day move was ${biggest.percent}, on ${biggest.date}` : ''}.`;
    const trend = r.trendDisagrees
      ? `Even so, the period's linear trend points ${sell.trend === 'up' ? 'upward' : 'downward'} (${f.slope} per day): the rate did not move in a single direction.`
      : null;
    return [direction, range, volatility, trend].filter((s): s is string => s !== null);
  },

  mainCause(facts, r, f) {
    if (!r.measurable) {
      return f.count === 1
        ? 'With a single record, volatility cannot be measured and no move can be attributed to dollar supply or demand; more days are needed before any explanation is likely.'
        : `With only ${f.count} records volatility cannot be measured, so a change of ${f.percent} over ${f.span} probably reflects a single session's move rather than a trend in dollar supply or demand.`;
    }
    const level = levelWord(facts, 'en');
    const high = f.level === 'high';
    switch (facts.verdict) {
      case 'appreciation':
        return high
          ? `A fall of ${f.absPercent} over ${f.span} with high volatility (${f.volatility}) suggests the move came in jolts rather than from a steady flow: large one-off dollar sales probably weighed on the exchange market.`
          : `A ${r.steady ? 'steady ' : ''}fall of ${f.absPercent} over ${f.span} with ${level} volatility (${f.volatility}) is typical of dollar supply exceeding demand: more foreign currency probably came in from exports, tourism or foreign investment than went out in imports and payments abroad.`;
      case 'depreciation':
        return high
          ? `A rise of ${f.absPercent} over ${f.span} with high volatility (${f.volatility}) suggests pressure in jolts rather than steady demand: large one-off dollar purchases probably account for much of the move.`
          : `A ${r.steady ? 'steady ' : ''}rise of ${f.absPercent} over ${f.span} with ${level} volatility (${f.volatility}) is typical of dollar demand exceeding supply: payments for imports and foreign debt, or savings moving into dollars, probably outweighed the inflows.`;
      case 'stable':
        return high
          ? `Although it ended close to where it began (${f.percent}), high volatility (${f.volatility}) points to pressure in both directions that probably offset each other: days of more dollar supply followed by days of more demand.`
          : facts.metrics.sell.change === 0
            ? `With no change over ${f.span} and ${level} volatility (${f.volatility}), dollar supply and demand were probably in balance during the period.`
            : `A change of just ${f.percent} over ${f.span} with ${level} volatility (${f.volatility}) indicates that dollar supply and demand were probably in balance during the period.`;
    }
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

const PHRASEBOOKS: Record<InsightLocale, Phrasebook> = { es: spanish, en: english };

/** Summary and 2 to 4 probable causes, in Spanish unless told otherwise. */
export function statisticalInsight(facts: Facts, locale: InsightLocale = 'es'): InsightText {
  const book = PHRASEBOOKS[locale];
  const reading = read(facts);
  const f = figures(facts, locale);
  const causes = [
    book.mainCause(facts, reading, f),
    book.movesCause(facts, reading, f),
    book.spreadCause(facts, reading, f),
    book.institutionsCause(facts, reading, f),
  ].filter((c): c is string => c !== null);
  return { summary: book.summary(facts, reading, f).join(' '), causes: causes.slice(0, 4) };
}
