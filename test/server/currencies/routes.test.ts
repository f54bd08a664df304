/**
 * Rates of currencies other than the dollar, derived from the central bank's cross rates: the
 * catalog, exact derived values in both quote directions, a tiny unit never 0, gaps and
 * fill=previous, conversion, month close and statistics. Expected values are worked out by hand
 * from the inputs below (colones per dollar × dollars per unit, or ÷ units per dollar; 2 decimals
 * from 10 colones up, else 6 significant digits; half away from zero).
 */
import type { Analytics, Conversion, CurrencyInfo, ExchangeRate, MonthClose, PeriodStats } from '../../../shared/types';
import { crossRate, rate, startTestApp, type TestApp } from '../../helpers/app';

/** Noon of Monday 2025-01-20 in Costa Rica. */
const NOW = new Date('2025-01-20T18:00:00Z');
const FETCHED = '2025-01-14T18:05:12.000Z';

const eur = (date: string, buy: number, sell: number, published: number): ExchangeRate => ({
  date,
  currencyFrom: 'EUR',
  currencyTo: 'CRC',
  buy,
  sell,
  source: 'BCCR',
  fetchedAt: FETCHED,
  derived: { indicator: '333', quote: 'usdPerUnit', published, usdDate: date },
});

describe('currencies other than the dollar', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ clock: () => NOW });
    await t.seed([
      rate('2025-01-15', 506.47, 512.82),
      rate('2025-01-16', 506, 512.5),
      rate('2025-01-17', 505.5, 511.9),
      rate('2025-01-18', 505.1, 511.2),
      rate('2025-01-19', 505.1, 511.2),
      rate('2025-01-20', 505.1, 511.2),
    ]);
    // The cross series has no weekend; the yen misses a day more.
    await t.seedCross([
      crossRate('EUR', '2025-01-15', 1.0301),
      crossRate('EUR', '2025-01-16', 1.0289),
      crossRate('EUR', '2025-01-17', 1.027),
      crossRate('EUR', '2025-01-20', 1.0298),
      crossRate('JPY', '2025-01-15', 156.42),
      crossRate('JPY', '2025-01-17', 155.87),
      crossRate('VND', '2025-01-15', 25365.5),
    ]);
  });
  afterAll(() => t.close());

  it('/currencies lists USD first, then every derived currency by code, with the days each has', async () => {
    const { status, body } = await t.get('/currencies');
    expect(status).toBe(200);
    const list = body.data as CurrencyInfo[];
    expect(list).toHaveLength(43);
    expect(list[0]).toEqual({
      code: 'USD',
      name: { es: 'Dólar estadounidense', en: 'US dollar' },
      kind: 'official',
      indicator: null,
      quote: null,
      since: '2025-01-15',
      latestDate: '2025-01-20',
    });
    const codes = list.slice(1).map((c) => c.code);
    expect(codes).toEqual([...codes].sort());
    expect(list.find((c) => c.code === 'EUR')).toEqual({
      code: 'EUR',
      name: { es: 'Euro', en: 'Euro' },
      kind: 'derived',
      indicator: '333',
      quote: 'usdPerUnit',
      since: '2025-01-15',
      latestDate: '2025-01-20',
    });
    expect(list.find((c) => c.code === 'JPY')).toMatchObject({ indicator: '325', quote: 'unitsPerUsd', latestDate: '2025-01-17' });
    expect(list.find((c) => c.code === 'GBP')).toMatchObject({ since: null, latestDate: null });
  });

  it('derives a dollars-per-unit currency (EUR): colones per dollar × the cross rate of the same day', async () => {
    const { status, body } = await t.get('/exchange-rate?date=2025-01-15&currency=eur');
    expect(status).toBe(200);
    expect(body.data).toEqual(eur('2025-01-15', 521.71, 528.26, 1.0301));
  });

  it('derives a units-per-dollar currency (JPY) with 6 significant digits below 10 colones', async () => {
    const { body } = await t.get('/exchange-rate?date=2025-01-15&currency=JPY');
    expect(body.data).toMatchObject({
      currencyFrom: 'JPY',
      buy: 3.23789,
      sell: 3.27848,
      derived: { indicator: '325', quote: 'unitsPerUsd', published: 156.42 },
    });
  });

  it('never rounds a tiny unit (VND) to 0', async () => {
    const { body } = await t.get('/exchange-rate?date=2025-01-15&currency=VND');
    expect(body.data).toMatchObject({ buy: 0.0199669, sell: 0.0202172 });
  });

  it('answers a gap with a 404 naming the nearest earlier date, and fill=previous with that date’s rate', async () => {
    const gap = await t.get('/exchange-rate?date=2025-01-18&currency=EUR');
    expect(gap.status).toBe(404);
    expect(gap.body.message).toBe(
      'No EUR rate for 2025-01-18: the central bank published no cross rate for that day; the nearest earlier date with one is 2025-01-17 (fill=previous answers with it)',
    );
    const filled = await t.get('/exchange-rate?date=2025-01-18&currency=EUR&fill=previous');
    expect(filled.body.data).toEqual({
      ...eur('2025-01-18', 519.15, 525.72, 1.027),
      derived: { indicator: '333', quote: 'usdPerUnit', published: 1.027, usdDate: '2025-01-17' },
      carriedFrom: '2025-01-17',
    });
    // A day that has its own rate carries nothing.
    expect((await t.get('/exchange-rate?date=2025-01-17&currency=EUR&fill=previous')).body.data).toEqual(eur('2025-01-17', 519.15, 525.72, 1.027));
    // A day after today is not a gap: its rate has not been published.
    expect((await t.get('/exchange-rate?date=2025-01-22&currency=EUR&fill=previous')).status).toBe(404);
  });

  it('latest: the latest derived record; with fill=previous, carried to today when older', async () => {
    expect((await t.get('/exchange-rate/latest?currency=EUR')).body.data).toEqual(eur('2025-01-20', 520.15, 526.43, 1.0298));
    const yen = await t.get('/exchange-rate/latest?currency=JPY&fill=previous');
    expect(yen.body.data).toMatchObject({ date: '2025-01-20', carriedFrom: '2025-01-17', buy: 3.24309, sell: 3.28415 });
  });

  it('history, range and stats over the derived records only', async () => {
    const history = (await t.get('/exchange-rate/history?days=7&currency=EUR')).body.data as ExchangeRate[];
    expect(history.map((r) => [r.date, r.sell])).toEqual([
      ['2025-01-15', 528.26],
      ['2025-01-16', 527.31],
      ['2025-01-17', 525.72],
      ['2025-01-20', 526.43],
    ]);
    const range = (await t.get('/exchange-rate/range?from=2025-01-16&to=2025-01-18&currency=EUR')).body.data as ExchangeRate[];
    expect(range.map((r) => r.date)).toEqual(['2025-01-16', '2025-01-17']);
    const stats = (await t.get('/exchange-rate/stats?from=2025-01-01&to=2025-01-31&currency=EUR')).body.data as PeriodStats[];
    expect(stats).toEqual([
      {
        period: '2025-01',
        from: '2025-01-15',
        to: '2025-01-20',
        count: 4,
        buy: { average: 520.4075, min: 519.15, max: 521.71, first: 521.71, last: 520.15, change: -1.56 },
        sell: { average: 526.93, min: 525.72, max: 528.26, first: 528.26, last: 526.43, change: -1.83 },
      },
    ]);
  });

  it('analytics and the month close compute over the derived records as for USD', async () => {
    const analytics = (await t.get('/exchange-rate/analytics?from=2025-01-01&to=2025-01-31&currency=EUR')).body.data as Analytics;
    expect(analytics).toMatchObject({ from: '2025-01-15', to: '2025-01-20', count: 4, sell: { first: 528.26, last: 526.43, min: 525.72, max: 528.26 } });
    const close = (await t.get('/exchange-rate/close?month=2025-01&currency=EUR')).body.data as MonthClose;
    expect(close).toMatchObject({ from: '2025-01-15', to: '2025-01-20', daysPresent: 4, complete: false, closing: null, sell: { average: 526.93 } });
    expect(close.missing).toContain('2025-01-18');
    expect(close.missing).not.toContain('2025-01-17');
  });

  it('converts between CRC and any currency; one side must be CRC', async () => {
    const toColones = await t.get('/convert?amount=100&from=EUR&to=CRC&date=2025-01-15');
    expect(toColones.body.data).toEqual({
      amount: 100,
      from: 'EUR',
      to: 'CRC',
      currency: 'EUR',
      rate: 'sell',
      rateValue: 528.26,
      date: '2025-01-15',
      result: 52826,
      derived: { indicator: '333', quote: 'usdPerUnit', published: 1.0301, usdDate: '2025-01-15' },
    });
    const toYen = (await t.get('/convert?amount=1000&from=CRC&to=jpy&date=2025-01-15')).body.data as Conversion;
    expect(toYen).toMatchObject({ currency: 'JPY', rateValue: 3.27848, result: 305.02 });
    // "to" alone: from colones.
    expect((await t.get('/convert?amount=1000&to=EUR&date=2025-01-15')).body.data).toMatchObject({ from: 'CRC', to: 'EUR' });
    const weekend = (await t.get('/convert?amount=100&from=EUR&date=2025-01-19&fill=previous')).body.data as Conversion;
    expect(weekend).toMatchObject({ date: '2025-01-19', carriedFrom: '2025-01-17', rateValue: 525.72, result: 52572 });
    const cross = await t.get('/convert?amount=100&from=EUR&to=USD');
    expect(cross.status).toBe(400);
    expect(cross.body.message).toBe('Parameters "from" and "to": one of them must be CRC, every rate is against the colón (got EUR and USD)');
  });

  it('refuses an unknown currency with a 400 that says where the supported ones are listed', async () => {
    for (const path of ['/exchange-rate/latest?currency=XYZ', '/exchange-rate/close?month=2025-01&currency=XYZ', '/convert?amount=1&from=XYZ']) {
      const { status, body } = await t.get(path);
      expect([path, status]).toEqual([path, 400]);
      expect(body.message).toMatch(/GET \/api\/v1\/currencies lists them/);
    }
  });

  it('says a currency without data has none yet, and where to look', async () => {
    const { status, body } = await t.get('/exchange-rate/latest?currency=GBP');
    expect(status).toBe(404);
    expect(body.message).toBe('No GBP rate has been stored yet: /api/v1/currencies says which currencies have data, and /api/v1/health why others have none');
  });

  it('writes derived records as CSV with their inputs', async () => {
    const { status, text } = await t.get('/exchange-rate?date=2025-01-15&currency=EUR&format=csv');
    expect(status).toBe(200);
    const [header, row] = text.trim().split('\r\n');
    expect(header).toBe('date,currencyFrom,currencyTo,buy,sell,source,fetchedAt,derived_indicator,derived_quote,derived_published,derived_usdDate');
    expect(row).toBe(`2025-01-15,EUR,CRC,521.71,528.26,BCCR,${FETCHED},333,usdPerUnit,1.0301,2025-01-15`);
  });

  it('shows a corrected cross rate at once, the dollar’s correction too', async () => {
    await t.seedCross([crossRate('EUR', '2025-01-16', 1.03)]);
    expect((await t.get('/exchange-rate?date=2025-01-16&currency=EUR')).body.data).toMatchObject({ buy: 521.18, sell: 527.88, derived: { published: 1.03 } });
    await t.seed([rate('2025-01-16', 506, 512.6)]);
    expect((await t.get('/exchange-rate?date=2025-01-16&currency=EUR')).body.data).toMatchObject({ sell: 527.98 });
  });
});
