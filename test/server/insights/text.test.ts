import { buildFacts, type Facts } from '../../../server/domain/insights/facts';
import { formatDate, formatDateRange, formatMoney, formatPercent } from '../../../server/domain/insights/format';
import { statisticalInsight, type InsightText } from '../../../server/domain/insights/text';
import type { RatePoint } from '../../../server/domain/types';
import { falling, flat, rising, series } from './series';

const everything = (t: InsightText) => [t.summary, ...t.causes].join('\n');
const BROKEN = /undefined|NaN|null|Infinity|\[object/;
/** Words only one of the two languages uses, to tell them apart. */
const ENGLISH = /\b(the|over|with|and|was|of)\b/;
const SPANISH = /\b(el|los|del|con|fue|días)\b/;

function insight(points: RatePoint[], locale: 'es' | 'en', extra: Partial<Parameters<typeof buildFacts>[0]> = {}) {
  return statisticalInsight(buildFacts({ days: 30, points, ...extra }), locale);
}

function expectWellFormed(t: InsightText, locale: 'es' | 'en') {
  expect(everything(t)).not.toMatch(BROKEN);
  expect(t.causes.length).toBeGreaterThanOrEqual(2);
  expect(t.causes.length).toBeLessThanOrEqual(4);
  for (const cause of t.causes) {
    // Phrased as a probability, never as a fact.
    expect(cause).toMatch(locale === 'es' ? /probable|suele|sugiere|típica|indica/ : /probably|likely|usually|suggests|typical|indicates/);
  }
  expect(everything(t)).not.toMatch(locale === 'es' ? ENGLISH : SPANISH);
}

/** Every cause of a window with data to speak of quotes at least one of its figures. */
function expectTiedToNumbers(t: InsightText) {
  for (const cause of t.causes) expect(cause).toMatch(/\d/);
}

describe('format: figures as people read them', () => {
  it('writes money with the ₡ sign and the locale’s decimal mark', () => {
    expect(formatMoney(512.82, 'es')).toBe('₡512,82');
    expect(formatMoney(512.82, 'en')).toBe('₡512.82');
    expect(formatMoney(-7.275, 'es', { signed: true })).toBe('−₡7,28');
    expect(formatMoney(7.2, 'en', { signed: true })).toBe('+₡7.20');
    expect(formatMoney(1234.5, 'en')).toBe('₡1,234.50');
    expect(formatMoney(1234.5, 'es')).toBe('₡1234,50');
    expect(formatMoney(12345.5, 'es')).toBe('₡12\u00a0345,50');
  });

  it('writes percentages with one decimal, two for small ones, and the locale’s spacing', () => {
    expect(formatPercent(-1.394, 'es', { signed: true })).toBe('−1,4 %');
    expect(formatPercent(-1.394, 'en', { signed: true })).toBe('−1.4%');
    expect(formatPercent(0.0412, 'es', { signed: true })).toBe('+0,04 %');
    expect(formatPercent(0, 'en', { signed: true })).toBe('0.0%');
    expect(formatPercent(0.125, 'es', { decimals: 2 })).toBe('0,13 %');
  });

  it('writes dates and spans in words', () => {
    expect(formatDate('2025-01-15', 'es')).toBe('15 de enero de 2025');
    expect(formatDate('2025-01-15', 'en')).toBe('January 15, 2025');
    expect(formatDateRange('2025-01-01', '2025-01-30', 'es')).toBe('del 1 al 30 de enero de 2025');
    expect(formatDateRange('2025-01-01', '2025-01-30', 'en')).toBe('January 1 to 30, 2025');
    expect(formatDateRange('2024-12-15', '2025-01-13', 'es')).toBe('del 15 de diciembre de 2024 al 13 de enero de 2025');
    expect(formatDateRange('2025-02-20', '2025-03-21', 'en')).toBe('February 20 to March 21, 2025');
  });
});

describe('buildFacts', () => {
  it('computes the Analytics, the verdict and the volatility in words', () => {
    const facts = buildFacts({ days: 30, points: falling() });
    expect(facts.metrics.from).toBe('2025-01-01');
    expect(facts.metrics.to).toBe('2025-01-30');
    expect(facts.metrics.sell.first).toBe(520.1);
    expect(facts.metrics.sell.last).toBe(512.85);
    expect(facts.metrics.sell.changePercent).toBe(-1.394);
    expect(facts.verdict).toBe('appreciation');
    expect(facts.volatility.level).toBe('low');
    expect(facts.spanDays).toBe(30);
    expect(facts.institutions).toBeNull();
  });

  it('finds the biggest daily moves of sell, largest first, with their dates and percentages', () => {
    // 500 every day but three jumps: +5 on the 5th, −2 on the 6th, +4 on the 20th.
    const points = series((i) => 500 + (i >= 4 ? 5 : 0) - (i >= 5 ? 2 : 0) + (i >= 19 ? 4 : 0));
    const { biggestMoves } = buildFacts({ days: 30, points });
    expect(biggestMoves).toEqual([
      { date: '2025-01-05', previousDate: '2025-01-04', previous: 500, value: 505, change: 5, changePercent: 1 },
      // 4 / 503 = 0.795228…
      { date: '2025-01-20', previousDate: '2025-01-19', previous: 503, value: 507, change: 4, changePercent: 0.7952 },
      // −2 / 505 = −0.396039…
      { date: '2025-01-06', previousDate: '2025-01-05', previous: 505, value: 503, change: -2, changePercent: -0.396 },
    ]);
  });

  it('compares the average spread of the first and the last week', () => {
    // Spread ₡6.00 until the 23rd, ₡7.00 from the 24th (the last 7 days).
    const points = falling().map((p, i) => ({ ...p, buy: Math.round((p.sell - (i >= 23 ? 7 : 6)) * 100) / 100 }));
    const { spread } = buildFacts({ days: 30, points });
    expect(spread.firstWeek).toBe(6);
    expect(spread.lastWeek).toBe(7);
    expect(spread.change).toBe(1);
    // (23 × 6 + 7 × 7) / 30 = 187 / 30 = 6.2333…
    expect(spread.average).toBe(6.2333);
  });

  it('measures the dispersion of the institutions’ sell quotes', () => {
    const banking = {
      date: '2025-01-30',
      quotes: [
        { buy: 500, sell: 510 },
        { buy: 505, sell: 515 },
        { buy: 508, sell: 520 },
      ],
    };
    const { institutions } = buildFacts({ days: 30, points: falling(), banking });
    // mean 515; population variance (25 + 0 + 25) / 3 = 16.667; √ = 4.08248…
    expect(institutions).toEqual({ date: '2025-01-30', count: 3, minSell: 510, maxSell: 520, range: 10, averageSell: 515, standardDeviation: 4.0825 });
  });
});

describe('statisticalInsight', () => {
  describe('a falling window (the colón appreciates)', () => {
    it('in Spanish, by default', () => {
      const t = statisticalInsight(buildFacts({ days: 30, points: falling() }));
      expectWellFormed(t, 'es');
      expect(t.summary).toContain('En los últimos 30 días (del 1 al 30 de enero de 2025)');
      expect(t.summary).toContain('bajó de ₡520,10 a ₡512,85 (−₡7,25, −1,4 %)');
      expect(t.summary).toContain('el colón se apreció frente al dólar');
      expect(t.summary).toContain('Osciló entre ₡512,85 (30 de enero de 2025) y ₡520,10 (1 de enero de 2025), con un promedio de ₡516,48');
      expect(t.summary).toMatch(/La volatilidad diaria fue baja \(0,\d\d %\)/);
      expect(t.causes[0]).toContain('Una baja sostenida de 1,4 % en 30 días con volatilidad baja');
      expect(t.causes[0]).toMatch(/exportaciones, turismo o inversión extranjera/);
      expect(t.causes[1]).toContain('₡6,30');
    });

    it('in English', () => {
      const t = insight(falling(), 'en');
      expectWellFormed(t, 'en');
      expect(t.summary).toContain('Over the last 30 days (January 1 to 30, 2025)');
      expect(t.summary).toContain('fell from ₡520.10 to ₡512.85 (−₡7.25, −1.4%)');
      expect(t.summary).toContain('the colón appreciated against the dollar');
      expect(t.summary).toContain('It ranged between ₡512.85 (January 30, 2025) and ₡520.10 (January 1, 2025), averaging ₡516.48');
      expect(t.summary).toMatch(/Daily volatility was low \(0\.\d\d%\)/);
      expect(t.causes[0]).toContain('A steady fall of 1.4% over 30 days with low volatility');
      expect(t.causes[1]).toContain('₡6.30');
    });
  });

  describe('a rising window (the colón depreciates)', () => {
    it('in Spanish', () => {
      const t = insight(rising(), 'es');
      expectWellFormed(t, 'es');
      expect(t.summary).toContain('subió de ₡500,00 a ₡508,70 (+₡8,70, +1,7 %)');
      expect(t.summary).toContain('el colón se depreció frente al dólar');
      expect(t.causes[0]).toContain('Un alza sostenida de 1,7 % en 30 días');
      expect(t.causes[0]).toContain('demanda de dólares mayor que la oferta');
    });

    it('in English', () => {
      const t = insight(rising(), 'en');
      expectWellFormed(t, 'en');
      expect(t.summary).toContain('rose from ₡500.00 to ₡508.70 (+₡8.70, +1.7%)');
      expect(t.summary).toContain('the colón depreciated against the dollar');
      expect(t.causes[0]).toContain('A steady rise of 1.7% over 30 days');
    });
  });

  describe('a flat window (the colón holds)', () => {
    it('in Spanish', () => {
      const t = insight(flat(), 'es');
      expectWellFormed(t, 'es');
      expect(t.summary).toContain('subió apenas de ₡506,00 a ₡506,50 (+₡0,50, +0,1 %)');
      expect(t.summary).toContain('el colón se mantuvo estable frente al dólar');
      expect(t.causes[0]).toContain('Una variación de apenas +0,1 % en 30 días');
    });

    it('in English', () => {
      const t = insight(flat(), 'en');
      expectWellFormed(t, 'en');
      expect(t.summary).toContain('edged up from ₡506.00 to ₡506.50 (+₡0.50, +0.1%)');
      expect(t.summary).toContain('the colón held steady against the dollar');
      expect(t.causes[0]).toContain('A change of just +0.1% over 30 days');
    });

    it('says so when nothing moved at all', () => {
      const still = series(() => 506);
      for (const locale of ['es', 'en'] as const) {
        const t = insight(still, locale);
        expectWellFormed(t, locale);
      }
      expect(insight(still, 'es').summary).toContain('terminó donde empezó, en ₡506,00');
      expect(insight(still, 'en').summary).toContain('ended where it began, at ₡506.00');
    });
  });

  it('gives a cause to notable daily moves, with their dates', () => {
    // Flat at ₡500 but for one jump of +₡5 (+1 %) on January 5.
    const points = series((i) => (i >= 4 ? 505 : 500));
    const es = insight(points, 'es');
    const en = insight(points, 'en');
    expectWellFormed(es, 'es');
    expectWellFormed(en, 'en');
    expect(es.causes.join(' ')).toContain(
      'El mayor movimiento diario fue de +1,0 % el 5 de enero de 2025 (de ₡500,00 a ₡505,00); ese día representa el 100 % del cambio del período',
    );
    expect(en.causes.join(' ')).toContain(
      "The largest daily move was +1.0% on January 5, 2025 (₡500.00 to ₡505.00); that day alone accounts for 100% of the period's change",
    );
  });

  it('adds the institutions’ dispersion when a window snapshot exists', () => {
    const banking = {
      date: '2025-01-30',
      quotes: [
        { buy: 500, sell: 510 },
        { buy: 505, sell: 515 },
        { buy: 508, sell: 520 },
      ],
    };
    const es = insight(falling(), 'es', { banking });
    const en = insight(falling(), 'en', { banking });
    expectWellFormed(es, 'es');
    expectWellFormed(en, 'en');
    expect(es.causes.at(-1)).toContain(
      'En ventanilla, el 30 de enero de 2025, las 3 entidades vendían el dólar entre ₡510,00 y ₡520,00 (una diferencia de ₡10,00, con desviación estándar de ₡4,08)',
    );
    expect(en.causes.at(-1)).toContain(
      'At the window on January 30, 2025, the 3 institutions sold dollars between ₡510.00 and ₡520.00 (a ₡10.00 range, standard deviation ₡4.08)',
    );
  });

  it('ties every cause to a figure', () => {
    for (const points of [falling(), rising(), flat()]) {
      for (const locale of ['es', 'en'] as const) expectTiedToNumbers(insight(points, locale));
    }
  });

  it('stays well formed on very short and very volatile windows', () => {
    const zigzag = series((i) => 500 + i * 0.3 + (i % 2 ? 4 : -4), 60, '2024-12-01');
    const cases: Facts[] = [
      buildFacts({ days: 7, points: falling().slice(0, 1) }),
      buildFacts({ days: 7, points: falling().slice(0, 2) }),
      buildFacts({ days: 7, points: falling().slice(0, 7) }),
      buildFacts({ days: 60, points: zigzag }),
    ];
    expect(cases[3].volatility.level).toBe('high');
    for (const facts of cases) {
      for (const locale of ['es', 'en'] as const) expectWellFormed(statisticalInsight(facts, locale), locale);
    }
  });
});
