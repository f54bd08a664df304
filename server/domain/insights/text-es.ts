/** The statistical text in Spanish (see text.ts for the rules every sentence follows). */
import type { Facts } from './facts';
import { type Figures, levelWord, list } from './figures';
import { formatPercent } from './format';
import type { Phrasebook } from './phrasebook';
import type { Direction, Reading, Side } from './reading';

const WAY: Record<Direction, string> = { 1: 'al alza', [-1]: 'a la baja' };

/** `la tendencia lineal del tipo de compra apunta al alza (+₡0,05 por día)`, de un lado o de ambos. */
function trend(sides: readonly Side[], direction: Direction, f: Figures): string {
  if (sides.length === 2) return `las tendencias lineales de compra y venta apuntan ${WAY[direction]} (${f.buySlope} y ${f.slope} por día)`;
  return sides[0] === 'buy'
    ? `la tendencia lineal del tipo de compra apunta ${WAY[direction]} (${f.buySlope} por día)`
    : `la tendencia lineal del tipo de venta apunta ${WAY[direction]} (${f.slope} por día)`;
}

/** The main cause of a window with a measurable volatility, by the story its figures tell. */
function storyCause(facts: Facts, r: Reading, f: Figures): string {
  const level = levelWord(facts, 'es');
  const high = f.level === 'high';
  const story = r.story;
  switch (story.kind) {
    case 'one-way':
      if (story.direction === -1) {
        return high
          ? `Una baja de ${f.absPercent} en ${f.span} con volatilidad alta (${f.volatility}) sugiere que el movimiento llegó a sacudidas más que por un flujo constante: es probable que ventas grandes y puntuales de dólares hayan pesado en el mercado cambiario.`
          : `Una baja ${r.steady ? 'sostenida ' : ''}de ${f.absPercent} en ${f.span} con volatilidad ${level} (${f.volatility}) es típica de una oferta de dólares mayor que la demanda: probablemente entraron más divisas por exportaciones, turismo o inversión extranjera de las que salieron por importaciones y pagos al exterior.`;
      }
      return high
        ? `Un alza de ${f.absPercent} en ${f.span} con volatilidad alta (${f.volatility}) sugiere presiones a sacudidas más que una demanda constante: es probable que compras grandes y puntuales de dólares expliquen buena parte del movimiento.`
        : `Un alza ${r.steady ? 'sostenida ' : ''}de ${f.absPercent} en ${f.span} con volatilidad ${level} (${f.volatility}) es típica de una demanda de dólares mayor que la oferta: probablemente pesaron más los pagos de importaciones y de deuda externa, o el ahorro en dólares, que las divisas que ingresaron.`;
    case 'against':
      return `${story.direction === 1 ? 'Un alza' : 'Una baja'} de ${f.absPercent} en ${f.span}, mientras ${trend(story.sides, -story.direction as Direction, f)}, indica que el tipo de cambio no se movió en una sola dirección: probablemente hubo presiones en ambos sentidos, y el colón terminó más ${story.direction === 1 ? 'débil' : 'fuerte'} que al inicio.`;
    case 'leaning':
      return `${facts.metrics.sell.change === 0 ? `Sin variación en ${f.span}, el tipo de cambio queda` : `Una variación de apenas ${f.percent} en ${f.span} queda`} dentro del ±${f.threshold} que se lee como estabilidad en una ventana de este largo, pero ${trend(story.sides, story.direction, f)}: probablemente la ${story.direction === 1 ? 'demanda' : 'oferta'} de dólares tuvo una ligera ventaja en el período, demasiado pequeña para hablar de una ${story.direction === 1 ? 'depreciación' : 'apreciación'} del colón.`;
    case 'crossed':
      return `Una variación de apenas ${f.percent} en ${f.span}, con las tendencias lineales de compra y venta en direcciones opuestas (${f.buySlope} y ${f.slope} por día), sugiere que ni la oferta ni la demanda de dólares se impusieron con claridad; probablemente se movió más el margen entre compra y venta que el tipo de cambio.`;
    case 'balanced':
      return high
        ? `Aunque terminó cerca de donde empezó (${f.percent}), la volatilidad alta (${f.volatility}) indica presiones en ambos sentidos que probablemente se compensaron: días de más oferta de dólares seguidos de días de más demanda.`
        : facts.metrics.sell.change === 0
          ? `Sin variación en ${f.span} y con volatilidad ${level} (${f.volatility}), la oferta y la demanda de dólares probablemente estuvieron equilibradas durante el período.`
          : `Una variación de apenas ${f.percent} en ${f.span} con volatilidad ${level} (${f.volatility}) indica que la oferta y la demanda de dólares probablemente estuvieron equilibradas durante el período.`;
  }
}

export const spanish: Phrasebook = {
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
          : `${opening} ${sell.change > 0 ? 'subió' : 'bajó'} apenas ${moved}, dentro de ±${f.threshold}: el colón se mantuvo estable frente al dólar.`,
    }[facts.verdict];
    const range =
      sell.min === sell.max
        ? 'No se movió en todo el período.'
        : `Osciló entre ${f.min} (${f.minDate}) y ${f.max} (${f.maxDate}), con un promedio de ${f.average}.`;
    const biggest = f.moves[0];
    const volatility = !r.measurable
      ? 'Hay muy pocos registros para medir la volatilidad.'
      : `La volatilidad diaria fue ${levelWord(facts, 'es')} (${f.volatility})${biggest ? `; el mayor movimiento de un día fue de ${biggest.percent}, el ${biggest.date}` : ''}.`;
    const way = sell.trend === 'up' ? 'al alza' : 'a la baja';
    const trend =
      r.sellTrendNote === 'disagrees'
        ? `Aun así, la tendencia lineal del período apunta ${way} (${f.slope} por día): el tipo de cambio no se movió en una sola dirección.`
        : r.sellTrendNote === 'under-line'
          ? `Su tendencia lineal también apunta ${way} (${f.slope} por día), pero no lo suficiente para llevar la variación más allá de ±${f.threshold}.`
          : null;
    return [direction, range, volatility, trend].filter((s): s is string => s !== null);
  },

  mainCause(facts, r, f) {
    if (!r.measurable) {
      return f.count === 1
        ? 'Con un solo registro no es posible medir la volatilidad ni atribuir un movimiento a la oferta o la demanda de dólares; hacen falta más días para que una explicación sea probable.'
        : `Con solo ${f.count} registros no se puede medir la volatilidad, así que una variación de ${f.percent} en ${f.span} probablemente refleja el movimiento de una sola sesión más que una tendencia de la oferta o la demanda de dólares.`;
    }
    return storyCause(facts, r, f);
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
