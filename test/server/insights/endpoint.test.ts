import type { Insights } from '../../../shared/types';
import { createBankingStore } from '../../../server/store/banking';
import { rate, startTestApp, type TestApp } from '../../helpers/app';
import { falling, upThenDownYear } from './series';

const insights = (data: unknown) => data as Insights;

describe('GET /insights without a language model', () => {
  let t: TestApp;
  beforeAll(async () => {
    // "Today" is 2025-01-30 in Costa Rica (noon).
    t = await startTestApp({ clock: () => new Date('2025-01-30T18:00:00Z') });
  });
  afterAll(() => t.close());

  it('answers 404 while the database is empty', async () => {
    const { status, body } = await t.get('/insights');
    expect(status).toBe(404);
    expect(body).toEqual({ success: false, error: 'NOT_FOUND', message: expect.any(String) });
  });

  describe('with a falling month', () => {
    beforeAll(async () => {
      await t.seed([
        ...falling().map((p) => rate(p.date, p.buy, p.sell)),
        // Published for tomorrow: after today, never in the window.
        rate('2025-01-31', 400, 410),
      ]);
    });

    it('returns the contract’s shape, in Spanish by default, with the verdict from the metrics', async () => {
      const { status, body } = await t.get('/insights');
      expect(status).toBe(200);
      const data = insights(body.data);
      expect(Object.keys(data).sort()).toEqual(['causes', 'from', 'generatedAt', 'generatedBy', 'locale', 'metrics', 'summary', 'to', 'verdict']);
      expect(data.locale).toBe('es');
      expect(data.from).toBe('2025-01-01');
      expect(data.to).toBe('2025-01-30');
      expect(data.verdict).toBe('appreciation');
      expect(data.generatedBy).toBe('statistical');
      expect(new Date(data.generatedAt).toISOString()).toBe(data.generatedAt);
      expect(data.summary).toContain('−1,4 %');
      expect(data.summary).toContain('30 días');
      expect(data.causes.length).toBeGreaterThanOrEqual(2);
      expect(data.causes.length).toBeLessThanOrEqual(4);
    });

    it('carries the same metrics as /exchange-rate/analytics for the window', async () => {
      const [a, b] = await Promise.all([t.get('/insights?days=30'), t.get('/exchange-rate/analytics?days=30')]);
      expect(insights(a.body.data).metrics).toEqual(b.body.data);
    });

    it('speaks English when asked, case-insensitively, and echoes the locale in lower case', async () => {
      const { status, body } = await t.get('/insights?locale=EN&days=30');
      expect(status).toBe(200);
      const data = insights(body.data);
      expect(data.locale).toBe('en');
      expect(data.summary).toContain('−1.4%');
      expect(data.summary).toContain('30 days');
      expect(data.summary).toContain('the colón appreciated');
    });

    it('takes windows of 7 to 365 days', async () => {
      const week = insights((await t.get('/insights?days=7')).body.data);
      expect(week.from).toBe('2025-01-24');
      expect(week.metrics.count).toBe(7);
      expect(week.summary).toContain('7 días');
      const year = insights((await t.get('/insights?days=365')).body.data);
      // The data starts on January 1: the window holds what there is.
      expect(year.from).toBe('2025-01-01');
      expect(year.metrics.count).toBe(30);
    });

    it.each([
      ['days=6', 'days'],
      ['days=366', 'days'],
      ['days=abc', 'days'],
      ['days=7.5', 'days'],
      ['locale=fr', 'locale'],
      ['locale=', 'locale'],
      ['days=7&days=8', 'days'],
    ])('answers 400 for %s', async (query, parameter) => {
      const { status, body } = await t.get(`/insights?${query}`);
      expect(status).toBe(400);
      expect(body.error).toBe('BAD_REQUEST');
      expect(body.message).toContain(`"${parameter}"`);
    });

    it('needs a key', async () => {
      const { status } = await t.get('/insights', { 'x-api-key': '' });
      expect(status).toBe(401);
    });

    it('is documented in the OpenAPI document', async () => {
      const doc = (await t.get('/openapi.json')).body as unknown as { paths: Record<string, { get: { parameters: Array<{ name: string }> } }> };
      const op = doc.paths['/insights'].get;
      expect(op.parameters.map((p) => p.name).sort()).toEqual(['days', 'format', 'locale']);
    });
  });
});

describe('GET /insights with window quotes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ clock: () => new Date('2025-01-30T18:00:00Z') });
    await t.seed(falling().map((p) => rate(p.date, p.buy, p.sell)));
    const banking = createBankingStore(t.database.db);
    await banking.saveDay({
      date: '2025-01-30',
      source: 'bccr-site',
      fetchedAt: new Date(),
      institutions: [
        { id: 'banco-nacional', name: 'Banco Nacional de Costa Rica', type: 'public_bank', known: true },
        { id: 'bac', name: 'Banco BAC San José', type: 'private_bank', known: true },
        { id: 'teledolar', name: 'Teledolar', type: 'exchange_house', known: true },
      ],
      quotes: [
        { institutionId: 'banco-nacional', buy: 505, sell: 510, updatedAt: null },
        { institutionId: 'bac', buy: 506, sell: 515, updatedAt: null },
        { institutionId: 'teledolar', buy: 508, sell: 520, updatedAt: null },
      ],
    });
  });
  afterAll(() => t.close());

  it('adds the dispersion of the institutions’ quotes to the causes', async () => {
    const data = insights((await t.get('/insights?locale=en')).body.data);
    expect(data.causes.join(' ')).toContain('the 3 institutions sold dollars between ₡510.00 and ₡520.00');
  });
});

describe('GET /insights over a year: the line grows with the window', () => {
  let t: TestApp;
  beforeAll(async () => {
    // "Today" is May 31, 2025, the last day of the year.
    t = await startTestApp({ clock: () => new Date('2025-05-31T18:00:00Z') });
    await t.seed(upThenDownYear().map((p) => rate(p.date, p.buy, p.sell)));
  });
  afterAll(() => t.close());

  it('calls the year’s −0.4 % stable, and the last month’s fall an appreciation', async () => {
    const [year, month] = await Promise.all([t.get('/insights?days=365&locale=en'), t.get('/insights?days=30&locale=en')]);
    const a = insights(year.body.data);
    const b = insights(month.body.data);
    expect([a.from, a.to, a.metrics.sell.changePercent, a.metrics.buy.trend, a.verdict]).toEqual(['2024-06-01', '2025-05-31', -0.4, 'up', 'stable']);
    expect(a.summary).toContain('(−₡2.04, −0.4%), within ±0.87%: the colón held steady against the dollar.');
    expect(a.causes[0]).toContain('dollar demand probably had a slight edge over the period');
    expect(a.causes.join(' ')).not.toContain('supply exceeding demand');
    // ₡515.54 → ₡507.96 over the last 30 days: −1.4703 %, past the month's ±0.25 %.
    expect([b.from, b.metrics.sell.changePercent, b.verdict]).toEqual(['2025-05-02', -1.4703, 'appreciation']);
  });

  it('states the rule in the OpenAPI document', async () => {
    const doc = (await t.get('/openapi.json')).body as unknown as { paths: Record<string, { get: { description: string } }> };
    expect(doc.paths['/insights'].get.description).toContain('0.25 for windows of up to 30 days and 0.25 × √(d / 30) beyond');
  });
});
