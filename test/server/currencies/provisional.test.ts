/**
 * Today's euro from Hacienda while the central bank has not published its cross rate (333): the
 * latest and by-date routes answer Hacienda's dollars per euro × today's dollar sell, sell only
 * (`buy: null`, source Hacienda), and nothing else ever sees it (history, range, stats, analytics,
 * chart, close). The central bank's value wins once stored; it works without a token; after
 * hours (Hacienda's colones null) the stored dollar still gives the sell; with Hacienda down the
 * routes answer as without it. Expected sells are worked out here with decimal arithmetic.
 */
import Decimal from 'decimal.js';
import { addDays } from '../../../shared/dates';
import { derivedCurrency, type DerivedCurrency } from '../../../shared/currency-catalog';
import type { ExchangeRate, PeriodStats, ProvisionalRate, Provenance } from '../../../shared/types';
import { catchUpOfficial } from '../../../server/jobs/catch-up';
import { catchUpCurrencies } from '../../../server/jobs/sync-currencies';
import { syncProvisionalEuro } from '../../../server/jobs/sync-provisional';
import { startFakeUpstream, type FakeUpstream } from '../../../server/demo/bccr-upstream';
import { createHaciendaEuroSource } from '../../../server/sources/hacienda-euro';
import { startTestApp, type TestApp } from '../../helpers/app';
import { clearTables, fakeCrossSource, fakeSources, noonInCostaRica, type PrimaryRoute, syncDeps } from '../../helpers/sync';

/** A Friday. */
const TODAY = '2026-11-20';
const YESTERDAY = addDays(TODAY, -1);
const SINCE = '2026-11-01';
const DOLARES = 1.1653;
const clock = () => noonInCostaRica(TODAY);
const EUR = derivedCurrency('EUR') as DerivedCurrency;

/** Dollars per euro × colones per dollar, 2 decimals half away from zero (a euro is above 10 colones). */
const times = (usd: number, published: number) => new Decimal(usd).times(published).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toNumber();

let fake: FakeUpstream;
let t: TestApp;

beforeAll(async () => {
  fake = await startFakeUpstream({ today: TODAY });
  t = await startTestApp({ clock });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});
beforeEach(async () => {
  await clearTables(t.database.db);
  await t.database.db('provisional_rates').delete();
  await t.changes.ratesChanged();
  // The central bank has not published today's euro yet; Hacienda has.
  fake.setCross((code, date) => (code === 'EUR' && date === TODAY ? null : undefined));
  fake.setRates(null);
  fake.setHaciendaEuro({ dolares: DOLARES });
  fake.setFault('haciendaEuro', null);
});

const deps = () => ({ ...syncDeps(t.database.db, clock), changes: t.changes });
const euroSource = () =>
  createHaciendaEuroSource({ baseUrl: fake.haciendaUrl, minIntervalMs: 0, timeoutMs: 2000, retries: 1, baseDelayMs: 1, sleep: async () => {} });
const syncDollar = (route: PrimaryRoute = 'sdde', to = TODAY) => catchUpOfficial(deps(), fakeSources(fake, route).sources, { from: SINCE, to });
const syncCurrencies = () => catchUpCurrencies(deps(), fakeCrossSource(fake).source, [EUR], { since: SINCE, concurrency: 1 });
const syncProvisional = () => syncProvisionalEuro(deps(), euroSource());
const data = async (path: string) => {
  const { status, body } = await t.get(path);
  expect({ path, status }).toEqual({ path, status: 200 });
  return body.data;
};

/** The record Hacienda's euro gives today with the dollar's sell of today. */
function provisional(sell: number, fetchedAt: string): ProvisionalRate {
  return {
    date: TODAY,
    currencyFrom: 'EUR',
    currencyTo: 'CRC',
    buy: null,
    sell,
    source: 'Hacienda',
    fetchedAt,
    derived: { indicator: '333', quote: 'usdPerUnit', published: DOLARES, usdDate: TODAY },
  };
}

describe('before the central bank publishes today’s euro', () => {
  beforeEach(async () => {
    await syncDollar();
    await syncCurrencies();
    expect(await syncProvisional()).toMatchObject({ status: 'succeeded', inserted: 1 });
  });

  it('latest and by-date answer Hacienda’s euro × today’s dollar sell, buy null', async () => {
    const usdSell = fake.rateFor(TODAY)?.sell as number;
    const latest = (await data('/exchange-rate/latest?currency=EUR')) as ProvisionalRate;
    expect(latest).toEqual(provisional(times(usdSell, DOLARES), latest.fetchedAt));
    expect(await data(`/exchange-rate?date=${TODAY}&currency=EUR`)).toEqual(latest);
    // Before today's, fill=previous would carry yesterday's: today's provisional one is better.
    expect(await data('/exchange-rate/latest?currency=EUR&fill=previous')).toEqual(latest);
    expect(await data(`/exchange-rate?date=${TODAY}&currency=eur&fill=previous`)).toEqual(latest);
    // The dollar is not touched.
    expect(await data('/exchange-rate/latest')).toMatchObject({ date: TODAY, currencyFrom: 'USD', source: 'BCCR' });
  });

  it('is never in history, range, stats, analytics, chart or close', async () => {
    const history = (await data('/exchange-rate/history?days=7&currency=EUR')) as ExchangeRate[];
    expect(history.length).toBeGreaterThan(0);
    expect(history.every((r) => r.source === 'BCCR' && r.buy !== null && r.date < TODAY)).toBe(true);
    const range = (await data(`/exchange-rate/range?from=${SINCE}&to=${TODAY}&currency=EUR`)) as ExchangeRate[];
    expect(range.map((r) => r.date)).not.toContain(TODAY);
    const [month] = (await data(`/exchange-rate/stats?from=${SINCE}&to=${TODAY}&currency=EUR`)) as PeriodStats[];
    expect(month?.sell.last).toBe(range.at(-1)?.sell);
    expect(await data(`/exchange-rate/analytics?from=${SINCE}&to=${TODAY}&currency=EUR`)).toMatchObject({ to: YESTERDAY, count: range.length });
    expect(await data('/exchange-rate/chart?days=30&currency=EUR')).toMatchObject({ to: YESTERDAY });
    expect(await data('/exchange-rate/close?month=2026-11&currency=EUR')).toMatchObject({ to: YESTERDAY, daysPresent: range.length });
  });

  it('inverse=true: no buy inverse; a purpose naming the buy side never takes it', async () => {
    const latest = (await data('/exchange-rate/latest?currency=EUR')) as ProvisionalRate;
    const inverted = await data('/exchange-rate/latest?currency=EUR&inverse=true');
    expect(inverted).toEqual({ ...latest, buyInverse: null, sellInverse: new Decimal(1).div(latest.sell).toSignificantDigits(10).toNumber() });
    // The sell side's purposes take it.
    expect(await data('/exchange-rate/latest?currency=EUR&purpose=invoice')).toMatchObject({ source: 'Hacienda', purpose: { side: 'sell' } });
    // The buy side's: the latest record with a buy, and the day itself a 404 that says why.
    expect(await data('/exchange-rate/latest?currency=EUR&purpose=consumer-pay-dollars')).toMatchObject({
      date: YESTERDAY,
      source: 'BCCR',
      purpose: { side: 'buy' },
    });
    const day = await t.get(`/exchange-rate?date=${TODAY}&currency=EUR&purpose=consumer-pay-dollars`);
    expect(day.status).toBe(404);
    expect(day.body.message).toBe(
      `No EUR buy rate for ${TODAY} yet: the only value for today is Hacienda's provisional EUR sell (the central bank has not published its cross rate); purpose=consumer-pay-dollars names the buy side, and fill=previous answers with the latest earlier day's rate`,
    );
    expect(await data(`/exchange-rate?date=${TODAY}&currency=EUR&purpose=consumer-pay-dollars&fill=previous`)).toMatchObject({
      date: TODAY,
      carriedFrom: YESTERDAY,
      source: 'BCCR',
    });
  });

  it('writes CSV with an empty buy', async () => {
    const latest = (await data('/exchange-rate/latest?currency=EUR')) as ProvisionalRate;
    const { status, text } = await t.get(`/exchange-rate?date=${TODAY}&currency=EUR&format=csv`);
    expect(status).toBe(200);
    const [header, row] = text.trim().split('\r\n');
    expect(header).toBe('date,currencyFrom,currencyTo,buy,sell,source,fetchedAt,derived_indicator,derived_quote,derived_published,derived_usdDate');
    expect(row).toBe(`${TODAY},EUR,CRC,,${latest.sell},Hacienda,${latest.fetchedAt},333,usdPerUnit,${DOLARES},${TODAY}`);
  });

  it('provenance says Hacienda and the address read', async () => {
    const p = (await data(`/exchange-rate/provenance?date=${TODAY}&currency=EUR`)) as Provenance;
    const url = `${fake.haciendaUrl}/indicadores/tc/euro`;
    expect(p.record).toEqual(await data('/exchange-rate/latest?currency=EUR'));
    expect(p.upstream.sell).toContain(`Hacienda ${url} (dolares)`);
    expect(p.inputs?.cross).toMatchObject({ source: 'Hacienda', upstream: `Hacienda ${url} (dolares)`, published: DOLARES });
    expect(p.inputs?.dollar).toMatchObject({ sell: fake.rateFor(TODAY)?.sell, source: 'BCCR' });
    expect(p.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    // The printable page shows the missing buy as a dash.
    const page = await t.get(`/exchange-rate/provenance?date=${TODAY}&currency=EUR&format=html&locale=en`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`Hacienda ${url} (dolares)`);
    expect(page.text).toMatch(/data-fact="buy"><dt>[^<]*<\/dt><dd class="facts__value">—<\/dd>/);
  });

  it('once the central bank publishes, its record wins, and Hacienda is no longer read', async () => {
    fake.setCross(null);
    await syncCurrencies();
    const published = fake.crossFor('EUR', TODAY) as number;
    const usd = fake.rateFor(TODAY) as { buy: number; sell: number };
    const expected = { date: TODAY, buy: times(usd.buy, published), sell: times(usd.sell, published), source: 'BCCR', derived: { published } };
    expect(await data('/exchange-rate/latest?currency=EUR')).toMatchObject(expected);
    expect(await data(`/exchange-rate?date=${TODAY}&currency=EUR`)).toMatchObject(expected);
    expect(((await data(`/exchange-rate/provenance?date=${TODAY}&currency=EUR`)) as Provenance).record.source).toBe('BCCR');
    const asked = fake.requests.filter((r) => r.route === 'haciendaEuro').length;
    expect(await syncProvisional()).toBeNull();
    expect(fake.requests.filter((r) => r.route === 'haciendaEuro')).toHaveLength(asked);
  });
});

describe('other cases', () => {
  it('works without a token: the dollar from the site API, the euro from Hacienda alone', async () => {
    await syncDollar('site');
    expect(await syncProvisional()).toMatchObject({ status: 'succeeded' });
    const latest = (await data('/exchange-rate/latest?currency=EUR')) as ProvisionalRate;
    expect(latest).toEqual(provisional(times(fake.rateFor(TODAY)?.sell as number, DOLARES), latest.fetchedAt));
    // Nothing of the central bank's euro: no series, so nothing in a window.
    expect((await t.get('/exchange-rate/history?currency=EUR')).status).toBe(404);
  });

  it('after hours (colones null), the stored dollar sell still gives today’s euro', async () => {
    fake.setHaciendaEuro({ dolares: DOLARES, afterHours: true });
    expect(fake.haciendaEuroFor().colones).toBeNull();
    await syncDollar();
    await syncProvisional();
    expect(await data('/exchange-rate/latest?currency=EUR')).toMatchObject({
      date: TODAY,
      buy: null,
      sell: times(fake.rateFor(TODAY)?.sell as number, DOLARES),
    });
  });

  it('without today’s dollar: Hacienda’s colones, and none at all after hours', async () => {
    await syncDollar('sdde', YESTERDAY);
    await syncProvisional();
    const colones = fake.haciendaEuroFor().colones;
    expect(colones).not.toBeNull();
    expect(await data('/exchange-rate/latest?currency=EUR')).toMatchObject({ date: TODAY, buy: null, sell: colones, source: 'Hacienda' });

    await t.database.db('provisional_rates').delete();
    fake.setHaciendaEuro({ dolares: DOLARES, afterHours: true });
    await syncProvisional();
    await t.changes.ratesChanged();
    expect((await t.get('/exchange-rate/latest?currency=EUR')).status).toBe(404);
  });

  it('keeps only today’s reading: a row of an earlier day is never answered, and is pruned', async () => {
    await syncDollar();
    await t.database.db('provisional_rates').insert({
      currency: 'EUR',
      date: YESTERDAY,
      published: 1.2,
      colones: 600,
      source: 'Hacienda',
      upstream: 'x',
      fetched_at: new Date(),
    });
    await t.changes.ratesChanged();
    expect((await t.get(`/exchange-rate?date=${YESTERDAY}&currency=EUR`)).status).toBe(404);
    await syncProvisional();
    const rows = (await t.database.db('provisional_rates').select('date')) as Array<{ date: string }>;
    expect(rows.map((r) => r.date)).toEqual([TODAY]);
  });

  it('with Hacienda down: no provisional record, the routes answer as before', async () => {
    await syncDollar();
    await syncCurrencies();
    fake.setFault('haciendaEuro', '500');
    expect(await syncProvisional()).toMatchObject({ status: 'failed' });
    expect(Number((await t.database.db('provisional_rates').count<Array<{ count: number | string }>>('* as count'))[0]?.count)).toBe(0);
    expect(await data('/exchange-rate/latest?currency=EUR')).toMatchObject({ date: YESTERDAY, source: 'BCCR' });
    expect((await t.get(`/exchange-rate?date=${TODAY}&currency=EUR`)).status).toBe(404);
    expect(await data(`/exchange-rate?date=${TODAY}&currency=EUR&fill=previous`)).toMatchObject({ carriedFrom: YESTERDAY, source: 'BCCR' });
  });
});
