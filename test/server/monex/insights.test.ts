/**
 * The insight's MONEX sentence: written only from sessions actually stored for the window, in
 * both languages, left out when the window has none, and written again once a session is stored
 * or corrected (the kept text depends on the MONEX facts too).
 */
import type { Insights } from '../../../shared/types';
import { buildFacts, monexFacts } from '../../../server/domain/insights/facts';
import { statisticalInsight } from '../../../server/domain/insights/text';
import { createMonexStore, type MonexInput } from '../../../server/store/monex';
import { rate, startTestApp, type TestApp } from '../../helpers/app';
import { falling } from '../insights/series';

const day = (date: string, average: number | null, volume = 12.5): MonexInput => ({
  date,
  session: average !== null,
  average,
  min: average === null ? null : average - 1.5,
  max: average === null ? null : average + 2,
  volume: average === null ? null : volume,
  volumeUnit: 'Millones de dólares',
  source: 'BCCR',
  fetchedAt: new Date('2025-01-29T19:00:00Z'),
});

describe('the MONEX facts', () => {
  it('count only sessions with figures, and sum what was published', () => {
    expect(monexFacts([day('2025-01-27', 510), day('2025-01-26', null), day('2025-01-28', 508.5, 20.25)])).toEqual({
      sessions: 2,
      daysWithout: 1,
      firstDate: '2025-01-27',
      lastDate: '2025-01-28',
      lastAverage: 508.5,
      lowestMin: 507,
      highestMax: 512,
      averageOfAverages: 509.25,
      volume: 32.75,
      volumeUnit: 'Millones de dólares',
    });
    expect(monexFacts([day('2025-01-26', null)])).toBeNull();
    expect(monexFacts([])).toBeNull();
  });

  it('give the statistical summary one sentence of those figures, in each language, and none without sessions', () => {
    const points = falling();
    const monex = [day('2025-01-27', 510), day('2025-01-28', 508.5, 20.25)];
    const en = statisticalInsight(buildFacts({ days: 30, points, monex }), 'en').summary;
    expect(en).toContain(
      'MONEX held 2 sessions in the period, trading between ₡507.00 and ₡512.00; the last one (January 28, 2025) had a weighted average of ₡508.50, and 32.75 was traded in all (Millones de dólares).',
    );
    const es = statisticalInsight(buildFacts({ days: 30, points, monex }), 'es').summary;
    expect(es).toContain('En MONEX hubo 2 sesiones en el periodo, con precios entre ₡507,00 y ₡512,00;');
    expect(statisticalInsight(buildFacts({ days: 30, points }), 'en').summary).not.toContain('MONEX');
    expect(statisticalInsight(buildFacts({ days: 30, points, monex: [day('2025-01-26', null)] }), 'en').summary).not.toContain('MONEX');
  });
});

describe('GET /insights with MONEX stored', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ clock: () => new Date('2025-01-30T18:00:00Z') });
    await t.seed(falling().map((p) => rate(p.date, p.buy, p.sell)));
  });
  afterAll(() => t.close());

  it('cites the window’s sessions once they are stored, and the corrected figure after a revision', async () => {
    const before = (await t.get('/insights?locale=en')).body.data as Insights;
    expect(before.summary).not.toContain('MONEX');

    const store = createMonexStore(t.database.db);
    await store.writeSessions([day('2025-01-28', 508.5), day('2025-01-29', 507.75)]);
    await t.changes.ratesChanged();
    const after = (await t.get('/insights?locale=en')).body.data as Insights;
    expect(after.summary).toContain('MONEX held 2 sessions in the period');
    expect(after.summary).toContain('had a weighted average of ₡507.75');
    expect(after.metrics).toEqual(before.metrics);

    await store.writeSessions([day('2025-01-29', 506.25)]);
    await t.changes.ratesChanged();
    expect(((await t.get('/insights?locale=en')).body.data as Insights).summary).toContain('had a weighted average of ₡506.25');
  });
});
