/**
 * The currencies' sync through the fake upstream, which serves the catalog's cross indicators in
 * the SDDE shape (business days only): what a backfill stores, the week a later run reads again,
 * a correction of indicator 333 shown as a revision of the derived day, a value outside the
 * currency's band refused, a 429's Retry-After honoured, and an instance without a token.
 * Expected derived values are worked out here with decimal arithmetic from what the fake serves.
 */
import Decimal from 'decimal.js';
import pino from 'pino';
import { DERIVED_CURRENCIES, derivedCurrency, type DerivedCurrency } from '../../../shared/currency-catalog';
import { addDays } from '../../../shared/dates';
import type { CurrencyInfo, ExchangeRate, Health, Provenance, Revision } from '../../../shared/types';
import { catchUpOfficial } from '../../../server/jobs/catch-up';
import { CURRENCIES_EVERY_MS, catchUpCurrencies, scheduledCurrencies } from '../../../server/jobs/sync-currencies';
import { startFakeUpstream, type FakeUpstream } from '../../../server/demo/bccr-upstream';
import { createCrossSource } from '../../../server/sources';
import { createCrossRatesStore } from '../../../server/store/cross-rates';
import { startTestApp, type TestApp } from '../../helpers/app';
import { clearTables, fakeCrossSource, fakeSources, noonInCostaRica, syncDeps } from '../../helpers/sync';

const TODAY = '2026-11-20';
const SINCE = '2026-06-01';
const clock = () => noonInCostaRica(TODAY);
const EUR = derivedCurrency('EUR') as DerivedCurrency;
const JPY = derivedCurrency('JPY') as DerivedCurrency;

/** The contract's rule, written out: at least 10 colones, 2 decimals; below, 6 significant digits. */
function expected(usd: number, published: number, quote: DerivedCurrency['quote']): number {
  const exact = quote === 'usdPerUnit' ? new Decimal(usd).times(published) : new Decimal(usd).dividedBy(published);
  return (exact.gte(10) ? exact.toDecimalPlaces(2, Decimal.ROUND_HALF_UP) : exact.toSignificantDigits(6, Decimal.ROUND_HALF_UP)).toNumber();
}

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
  fake.setCross(null);
  fake.setFault('sdde', null);
  fake.requests.length = 0;
});

const deps = () => ({ ...syncDeps(t.database.db, clock), changes: t.changes });
const syncDollar = () => catchUpOfficial(deps(), fakeSources(fake, 'sdde').sources, { from: SINCE, to: TODAY });
const syncCurrencies = (currencies: DerivedCurrency[] = [EUR, JPY], source = fakeCrossSource(fake).source, concurrency = 2) =>
  catchUpCurrencies(deps(), source, currencies, { since: SINCE, concurrency });

describe('the currencies sync', () => {
  it('backfills each currency since CURRENCIES_SINCE, its business days only, and the API derives them exactly', async () => {
    await syncDollar();
    const result = await syncCurrencies();
    expect(result).toMatchObject({ ran: true, ok: true });
    const stored = await createCrossRatesStore(t.database.db).range('EUR', SINCE, TODAY);
    const served = [];
    for (let d = SINCE; d <= TODAY; d = addDays(d, 1)) {
      const value = fake.crossFor('EUR', d);
      if (value !== null) served.push({ date: d, value });
    }
    expect(stored.map(({ date, value }) => ({ date, value }))).toEqual(served);
    // A Saturday has none.
    expect(stored.some((r) => r.date === '2026-11-14')).toBe(false);

    for (const [currency, day] of [
      [EUR, '2026-11-18'],
      [JPY, '2026-07-01'],
    ] as const) {
      const usd = fake.rateFor(day);
      const published = fake.crossFor(currency.code, day) as number;
      const { body } = await t.get(`/exchange-rate?date=${day}&currency=${currency.code}`);
      expect(body.data).toMatchObject({
        date: day,
        currencyFrom: currency.code,
        buy: expected(usd?.buy as number, published, currency.quote),
        sell: expected(usd?.sell as number, published, currency.quote),
        source: 'BCCR',
        derived: { indicator: currency.indicator, quote: currency.quote, published, usdDate: day },
      });
    }
    const list = (await t.get('/currencies')).body.data as CurrencyInfo[];
    expect(list.find((c) => c.code === 'EUR')).toMatchObject({ since: '2026-06-01', latestDate: TODAY });
  });

  it('reads again only the last week of each currency on the next run', async () => {
    await syncDollar();
    await syncCurrencies();
    fake.requests.length = 0;
    await syncCurrencies();
    const asked = fake.requests.filter((r) => r.path.includes('/indicadoresEconomicos/333/')).map((r) => r.query.get('fechaInicio'));
    expect(asked).toEqual([addDays(TODAY, -6).replaceAll('-', '/')]);
  });

  it('keeps a correction of indicator 333 as a revision of the derived day, with both inputs in its provenance', async () => {
    await syncDollar();
    await syncCurrencies([EUR]);
    const day = addDays(TODAY, -2);
    const before = (await t.get(`/exchange-rate?date=${day}&currency=EUR`)).body.data as ExchangeRate;
    fake.setCross((code, date) => (code === 'EUR' && date === day ? 1.2 : undefined));
    await syncCurrencies([EUR]);
    const usd = fake.rateFor(day);
    const after = (await t.get(`/exchange-rate?date=${day}&currency=EUR`)).body.data as ExchangeRate;
    expect(after.sell).toBe(expected(usd?.sell as number, 1.2, 'usdPerUnit'));

    const revisions = (await t.get(`/exchange-rate/revisions?from=${day}&to=${day}&currency=EUR`)).body.data as Revision[];
    expect(revisions).toEqual([
      {
        date: day,
        before: { buy: before.buy, sell: before.sell, source: 'BCCR' },
        after: { buy: after.buy, sell: after.sell, source: 'BCCR' },
        revisedAt: expect.any(String),
      },
    ]);
    const provenance = (await t.get(`/exchange-rate/provenance?date=${day}&currency=EUR`)).body.data as Provenance;
    expect(provenance.record).toEqual(after);
    expect(provenance.upstream.sell).toBe('BCCR SDDE indicator 318 × BCCR SDDE indicator 333');
    expect(provenance.revisions).toEqual([expect.objectContaining({ buy: before.buy, sell: before.sell, source: 'BCCR' })]);
    expect(provenance.inputs).toMatchObject({
      dollar: { buy: usd?.buy, sell: usd?.sell, source: 'BCCR' },
      cross: { indicator: '333', quote: 'usdPerUnit', published: 1.2, upstream: 'BCCR SDDE indicator 333', observations: 2 },
    });
    // The dollar's own record has neither inputs nor the euro's revisions.
    expect((await t.get(`/exchange-rate/provenance?date=${day}`)).body.data).not.toHaveProperty('inputs');
  });

  it('refuses a value outside the currency’s band (colones per euro read as dollars per euro), storing the others', async () => {
    const day = addDays(TODAY, -3);
    fake.setCross((code, date) => (code === 'EUR' && date === day ? 612.34 : undefined));
    const result = await syncCurrencies([EUR]);
    expect(result.ok).toBe(true);
    expect(result.runs[0]?.rejected).toEqual([{ date: day, reason: '612.34 is outside 0.6..2 USD per EUR' }]);
    const stored = await createCrossRatesStore(t.database.db).range('EUR', day, day);
    expect(stored).toEqual([]);
    expect((await createCrossRatesStore(t.database.db).range('EUR', addDays(day, -1), addDays(day, -1))).length).toBe(1);
  });

  it('reads at most `concurrency` currencies at once, and logs its progress year by year', async () => {
    const { source } = fakeCrossSource(fake);
    let inFlight = 0;
    let most = 0;
    // The first read waits for a second to begin (or two seconds), so that two workers' reads
    // overlap whatever the time each spends storing between them.
    let secondBegun: () => void = () => {};
    const second = new Promise<void>((resolve) => (secondBegun = resolve));
    const counted = {
      ...source,
      async read(code: string, from: string, to: string, signal?: AbortSignal) {
        most = Math.max(most, ++inFlight);
        try {
          if (inFlight === 1 && most === 1) await Promise.race([second, new Promise((resolve) => setTimeout(resolve, 2000))]);
          else secondBegun();
          return await source.read(code, from, to, signal);
        } finally {
          inFlight--;
        }
      },
    };
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
    const four = ['EUR', 'JPY', 'GBP', 'VND'].map((code) => derivedCurrency(code) as DerivedCurrency);
    // Two years from an empty database: two runs per currency.
    const result = await catchUpCurrencies({ ...deps(), logger }, counted, four, { since: addDays(TODAY, -500), concurrency: 2 });
    expect(result).toMatchObject({ ran: true, ok: true });
    expect(result.runs).toHaveLength(8);
    expect(most).toBe(2);
    const progress = lines
      .map((line) => JSON.parse(line) as { msg: string; currency?: string; run?: string })
      .filter((l) => l.msg === 'currencies backfill progress');
    expect(progress.filter((l) => l.currency === 'EUR').map((l) => l.run)).toEqual(['1/2', '2/2']);
  });

  it('waits as long as a 429 asks before trying again', async () => {
    fake.setFault('sdde', { kind: '429', times: 1, retryAfter: '3' });
    const { source, delays } = fakeCrossSource(fake);
    const result = await syncCurrencies([EUR], source);
    expect(result.ok).toBe(true);
    expect(delays).toEqual([3000]);
  });

  it('fails a currency whose answer cannot be read, storing nothing of it, and goes on with the others', async () => {
    fake.setFault('sdde', { kind: 'html', times: 1 });
    // One at a time, so that the euro's request is the one that meets the fault.
    const result = await syncCurrencies([EUR, JPY], fakeCrossSource(fake).source, 1);
    expect(result.ok).toBe(false);
    expect(result.runs.map((r) => [r.source, r.status])).toEqual([
      ['bccr-sdde EUR', 'failed'],
      ['bccr-sdde JPY', 'succeeded'],
    ]);
    expect(await createCrossRatesStore(t.database.db).range('EUR', SINCE, TODAY)).toEqual([]);
    expect((await createCrossRatesStore(t.database.db).range('JPY', SINCE, TODAY)).length).toBeGreaterThan(100);
  });
});

describe('the scheduled job', () => {
  beforeEach(() => (fake.requests.length = 0));
  const asked = () => fake.requests.filter((r) => r.path.includes('/indicadoresEconomicos/333/')).length;

  it('reads again only three hours after a complete run, and on the next tick after a failed one', async () => {
    let now = Date.parse(`${TODAY}T18:00:00Z`);
    const job = scheduledCurrencies(deps(), fakeCrossSource(fake).source, addDays(TODAY, -20), () => now);
    const signal = new AbortController().signal;
    await job(signal);
    expect(asked()).toBe(1);
    now += CURRENCIES_EVERY_MS - 1;
    await job(signal);
    expect(asked()).toBe(1);
    now += 1;
    fake.setFault('sdde', { kind: 'html', times: 1 });
    await job(signal);
    expect(asked()).toBe(2);
    // One currency's run failed: the next tick reads them all again.
    now += 60_000;
    await job(signal);
    expect(asked()).toBe(3);
  });
});

describe('without a token', () => {
  it('has no cross source; health notes that other currencies need one, and /currencies has no dates for them', async () => {
    expect(createCrossSource({ bccrToken: undefined, bccrApiUrl: fake.sddeUrl })).toBeNull();
    const app = await startTestApp({ clock, currenciesNeedToken: true, database: t.database });
    try {
      await syncDollar();
      const health = (await app.get('/health')).body.data as Health;
      expect(health.status).toBe('ok');
      expect(health.reasons).toEqual(['other currencies than USD need BCCR_TOKEN: their cross rates come only from the central bank’s SDDE API']);
      const list = (await app.get('/currencies')).body.data as CurrencyInfo[];
      expect(list).toHaveLength(DERIVED_CURRENCIES.length + 1);
      expect(list.filter((c) => c.kind === 'derived').every((c) => c.latestDate === null && c.since === null)).toBe(true);
    } finally {
      await app.close();
    }
  });
});
