/**
 * The SDK (from its source) against the real server in-process on the embedded database: every
 * method returns the server's `data`, typed as the shared types say; every error of the
 * contract becomes the right ExchangeRateError; 429s are retried or not as they should be.
 */
import { ExchangeRateClient, type FetchLike } from '../../sdk/src';
import type {
  Analytics,
  BankingRates,
  BestRate,
  Chart,
  Conversion,
  ExchangeRate,
  RateAnswer,
  Health,
  Insights,
  MonthClose,
  PeriodStats,
  Provenance,
  PurposeInfo,
  Revision,
  Usage,
} from '../../sdk/src';
import { routeList } from '../../sdk/scripts/params/route-list';
import { createApiKeysStore } from '../../server/store/api-keys';
import { createBankingStore, type InstitutionInput, type QuoteInput } from '../../server/store/banking';
import { crossRate, rate, startTestApp, type TestApp } from '../helpers/app';
import { rejection } from './stub';

// 12:00 on 2025-01-16 in Costa Rica (UTC−6).
const NOW = new Date('2025-01-16T18:00:00Z');

/** 2025-01-01 … 2025-01-16: buy 500 + d, sell 510 + d (+0.25 on even days). */
const SERIES = Array.from({ length: 16 }, (_, i) => {
  const day = `2025-01-${String(i + 1).padStart(2, '0')}`;
  return rate(day, 500 + i, 510 + i + (i % 2 === 0 ? 0.25 : 0));
});

const institutions: InstitutionInput[] = [
  { id: 'banco-nacional', name: 'Banco Nacional de Costa Rica', type: 'public_bank', known: true },
  { id: 'bac', name: 'Banco BAC San José', type: 'private_bank', known: true },
  { id: 'teledolar', name: 'Teledolar', type: 'exchange_house', known: true },
];
const quotes = (day: string): QuoteInput[] => [
  { institutionId: 'banco-nacional', buy: 505, sell: 515, updatedAt: new Date(`${day}T14:30:00Z`) },
  { institutionId: 'bac', buy: 506, sell: 513.5, updatedAt: new Date(`${day}T14:30:00Z`) },
  { institutionId: 'teledolar', buy: 508, sell: 512, updatedAt: new Date(`${day}T14:30:00Z`) },
];

let t: TestApp;
let client: ExchangeRateClient;

/** What the server itself answers for `path`: the SDK must hand back exactly this. */
async function raw(path: string): Promise<unknown> {
  const { status, body } = await t.get(path);
  expect(status).toBe(200);
  return body.data;
}

/** A fetch that counts the requests it sends. */
function countingFetch(): { fetch: FetchLike; calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    fetch: (url, init) => {
      calls.push(url);
      return fetch(url, init);
    },
  };
}

beforeAll(async () => {
  t = await startTestApp({ clock: () => NOW });
  await t.seed(SERIES);
  const banking = createBankingStore(t.database.db);
  for (const day of ['2025-01-15', '2025-01-16']) {
    await banking.saveDay({ date: day, source: 'bccr-site', fetchedAt: NOW, institutions, quotes: quotes(day) });
  }
  // The euro on the business days of the series: 2025-01-13 is a Monday, 11 and 12 a weekend.
  await t.seedCross(['2025-01-09', '2025-01-10', '2025-01-13', '2025-01-14'].map((day, i) => crossRate('EUR', day, 1.03 + i / 100)));
  await t.changes.ratesChanged();
  client = new ExchangeRateClient({ apiKey: t.key, baseUrl: t.api, retries: 0 });
});
afterAll(() => t.close());

describe('every method returns the data of its endpoint', () => {
  it('getLatest', async () => {
    const latest: ExchangeRate = await client.getLatest();
    expect(latest).toEqual({
      date: '2025-01-16',
      currencyFrom: 'USD',
      currencyTo: 'CRC',
      buy: 515,
      sell: 525,
      source: 'BCCR',
      fetchedAt: '2025-01-14T18:05:12.000Z',
    });
    const sell: number = (await client.getLatest()).sell;
    expect(sell).toBe(525);
  });

  it('takes the currency: getLatest, getByDate (with fill), getClose, getHistory, convert, getCurrencies', async () => {
    expect(await client.getLatest({ currency: 'EUR' })).toEqual(await raw('/exchange-rate/latest?currency=EUR'));
    // The euro's may be Hacienda's provisional record of today (buy null); any other currency's is a record with a buy.
    const carried: RateAnswer = await client.getByDate('2025-01-12', { currency: 'EUR', fill: 'previous' });
    const yen: () => Promise<ExchangeRate> = () => client.getLatest({ currency: 'JPY' });
    expect(typeof yen).toBe('function');
    expect(carried).toMatchObject({ date: '2025-01-12', carriedFrom: '2025-01-10', currencyFrom: 'EUR' });
    expect(await client.getClose('2025-01', { currency: 'EUR' })).toEqual(await raw('/exchange-rate/close?month=2025-01&currency=EUR'));
    expect((await client.getHistory({ days: 10, currency: 'EUR' })).map((r) => r.date)).toEqual(['2025-01-09', '2025-01-10', '2025-01-13', '2025-01-14']);
    const euros: Conversion = await client.convert({ amount: 100, from: 'EUR', to: 'CRC', date: '2025-01-14' });
    expect(euros).toEqual(await raw('/convert?amount=100&from=EUR&to=CRC&date=2025-01-14'));
    expect((await client.getCurrencies()).map((c) => c.code).slice(0, 3)).toEqual(['USD', 'AED', 'ARS']);
  });

  it('takes a purpose and inverse: getByDate, getLatest, getRange, convert, getClose; getPurposes lists them', async () => {
    const invoice: ExchangeRate = await client.getByDate('2025-01-10', { purpose: 'invoice', inverse: true });
    expect(invoice).toEqual(await raw('/exchange-rate?date=2025-01-10&purpose=invoice&inverse=true'));
    expect(invoice).toMatchObject({ purpose: expect.objectContaining({ id: 'invoice', side: 'sell' }), sellInverse: expect.any(Number) });
    expect(await client.getLatest({ purpose: 'customs' })).toEqual(await raw('/exchange-rate/latest?purpose=customs'));
    const range: ExchangeRate[] = await client.getRange({ from: '2025-01-01', to: '2025-01-03', inverse: true });
    expect(range).toEqual(await raw('/exchange-rate/range?from=2025-01-01&to=2025-01-03&inverse=true'));
    // false is sent as false, and adds nothing.
    expect(await client.getRange({ from: '2025-01-01', to: '2025-01-03', inverse: false })).toEqual(
      await raw('/exchange-rate/range?from=2025-01-01&to=2025-01-03'),
    );
    const paid: Conversion = await client.convert({ amount: 100, date: '2025-01-10', purpose: 'consumer-pay-dollars' });
    expect(paid).toMatchObject({ rate: 'buy', rateValue: 509 });
    expect(await client.getClose('2025-01', { purpose: 'income-tax' })).toEqual(await raw('/exchange-rate/close?month=2025-01&purpose=income-tax'));
    const purposes: PurposeInfo[] = await client.getPurposes();
    expect(purposes).toEqual(await raw('/purposes'));
  });

  it('getByDate with a string and with a Date (its Costa Rica day, not its UTC day)', async () => {
    const byString: ExchangeRate = await client.getByDate('2025-01-10');
    expect(byString).toEqual(await raw('/exchange-rate?date=2025-01-10'));
    expect(byString).toMatchObject({ date: '2025-01-10', buy: 509, sell: 519 });
    // 21:00 on the 15th in Costa Rica is already the 16th in UTC.
    const evening = new Date('2025-01-16T03:00:00Z');
    expect(evening.toISOString().slice(0, 10)).toBe('2025-01-16');
    expect((await client.getByDate(evening)).date).toBe('2025-01-15');
    expect((await client.getByDate(new Date('2025-01-16T06:00:00Z'))).date).toBe('2025-01-16');
  });

  it('getHistory, with and without days', async () => {
    const week: ExchangeRate[] = await client.getHistory({ days: 7 });
    expect(week.map((r) => r.date)).toEqual(['2025-01-10', '2025-01-11', '2025-01-12', '2025-01-13', '2025-01-14', '2025-01-15', '2025-01-16']);
    expect(week).toEqual(await raw('/exchange-rate/history?days=7'));
    expect(await client.getHistory()).toHaveLength(16);
  });

  it('getRange, with strings and Dates', async () => {
    const range: ExchangeRate[] = await client.getRange({ from: '2025-01-03', to: '2025-01-05' });
    expect(range.map((r) => r.date)).toEqual(['2025-01-03', '2025-01-04', '2025-01-05']);
    const fromDates = await client.getRange({ from: new Date('2025-01-04T05:00:00Z'), to: new Date('2025-01-06T05:00:00Z') });
    expect(fromDates.map((r) => r.date)).toEqual(['2025-01-03', '2025-01-04', '2025-01-05']);
    expect(await client.getRange({ from: '2024-01-01', to: '2024-01-31' })).toEqual([]);
  });

  it('getAnalytics over the last days and over from/to', async () => {
    const lastDays: Analytics = await client.getAnalytics({ days: 10 });
    expect(lastDays).toEqual(await raw('/exchange-rate/analytics?days=10'));
    expect(lastDays).toMatchObject({ from: '2025-01-07', to: '2025-01-16', count: 10 });
    expect(lastDays.buy).toMatchObject({ first: 506, last: 515, change: 9, trend: 'up', slopePerDay: 1 });
    const between: Analytics = await client.getAnalytics({ from: '2025-01-01', to: '2025-01-04' });
    expect(between).toEqual(await raw('/exchange-rate/analytics?from=2025-01-01&to=2025-01-04'));
    expect((await client.getAnalytics()).count).toBe(16);
  });

  it('getStats', async () => {
    const stats: PeriodStats[] = await client.getStats({ period: 'monthly', from: '2024-12-01', to: '2025-01-31' });
    expect(stats).toEqual(await raw('/exchange-rate/stats?period=monthly&from=2024-12-01&to=2025-01-31'));
    expect(stats).toHaveLength(1);
    expect(stats[0]).toMatchObject({ period: '2025-01', from: '2025-01-01', to: '2025-01-16', count: 16 });
    const yearly = await client.getStats({ period: 'yearly', from: new Date('2025-01-01T12:00:00Z'), to: '2025-12-31' });
    expect(yearly.map((p) => p.period)).toEqual(['2025']);
  });

  it('getClose, and its refusals as typed errors', async () => {
    const running: MonthClose = await client.getClose('2025-01');
    expect(running).toEqual(await raw('/exchange-rate/close?month=2025-01'));
    // Today is 2025-01-16, the latest date: the month runs on, so it is not complete yet.
    expect(running).toMatchObject({
      month: '2025-01',
      from: '2025-01-01',
      to: '2025-01-16',
      daysInMonth: 31,
      daysPresent: 16,
      missing: [],
      complete: false,
      closing: null,
    });
    expect(running.buy).toEqual({ average: 507.5, min: 500, max: 515, first: 500, last: 515, change: 15 });
    const future = await rejection(client.getClose('2025-02'));
    expect([future.code, future.status]).toEqual(['BAD_REQUEST', 400]);
    expect(future.message).toContain('"month"');
    const empty = await rejection(client.getClose('2024-12'));
    expect([empty.code, empty.status]).toEqual(['NOT_FOUND', 404]);
  });

  it('getProvenance and getRevisions, with strings and Dates', async () => {
    const provenance: Provenance = await client.getProvenance('2025-01-10');
    expect(provenance).toEqual(await raw('/exchange-rate/provenance?date=2025-01-10'));
    // Seeded, not synced: the row's own source and fetch time are all there is to say.
    expect(provenance).toMatchObject({
      record: { date: '2025-01-10', buy: 509, sell: 519, source: 'BCCR' },
      upstream: { buy: 'BCCR indicator 317', sell: 'BCCR indicator 318' },
      firstSeenAt: '2025-01-14T18:05:12.000Z',
      revisions: [],
    });
    expect(provenance.digest).toMatch(/^sha256:[0-9a-f]{64}$/);

    // A correction and its undoing: two revisions, and the day as it was for the other tests.
    await t.seed([rate('2025-01-10', 509, 519.5)]);
    await t.seed([rate('2025-01-10', 509, 519)]);
    const revisions: Revision[] = await client.getRevisions('2025-01-01', new Date('2025-01-16T18:00:00Z'));
    expect(revisions).toEqual(await raw('/exchange-rate/revisions?from=2025-01-01&to=2025-01-16'));
    expect(revisions.map((r) => [r.date, r.before.sell, r.after.sell])).toEqual([
      ['2025-01-10', 519, 519.5],
      ['2025-01-10', 519.5, 519],
    ]);
    expect((await client.getProvenance(new Date('2025-01-10T12:00:00Z'))).revisions.map((r) => r.sell)).toEqual([519, 519.5]);

    const order = await rejection(client.getRevisions('2025-01-16', '2025-01-01'));
    expect([order.code, order.status]).toEqual(['BAD_REQUEST', 400]);
    expect(order.message).toContain('"from"');
    const none = await rejection(client.getProvenance('2024-12-31'));
    expect([none.code, none.status]).toEqual(['NOT_FOUND', 404]);
  });

  it('getChart', async () => {
    const chart: Chart = await client.getChart({ days: 16, points: 5 });
    expect(chart).toEqual(await raw('/exchange-rate/chart?days=16&points=5'));
    expect(chart.points).toBe(5);
    expect(chart.series[0]?.date).toBe('2025-01-01');
    expect(chart.series.at(-1)?.date).toBe('2025-01-16');
  });

  it('convert, with a number, a decimal string and a date', async () => {
    const conversion: Conversion = await client.convert({ amount: 100, from: 'USD', to: 'CRC', rate: 'sell' });
    expect(conversion).toEqual({ amount: 100, from: 'USD', to: 'CRC', rate: 'sell', rateValue: 525, date: '2025-01-16', result: 52500, currency: 'USD' });
    const exact = await client.convert({ amount: '0.1', rate: 'buy', date: '2025-01-10' });
    expect(exact).toEqual({ amount: 0.1, from: 'USD', to: 'CRC', rate: 'buy', rateValue: 509, date: '2025-01-10', result: 50.9, currency: 'USD' });
    const back = await client.convert({ amount: 5250, from: 'CRC', date: new Date('2025-01-16T12:00:00Z') });
    expect(back).toMatchObject({ from: 'CRC', to: 'USD', rate: 'sell', result: 10 });
  });

  it('getBankingRates', async () => {
    const banking: BankingRates = await client.getBankingRates();
    expect(banking).toEqual(await raw('/banking/rates'));
    expect(banking.date).toBe('2025-01-16');
    expect(banking.institutions.map((i) => i.id)).toEqual(['bac', 'banco-nacional', 'teledolar']);
    const publicBanks = await client.getBankingRates({ date: '2025-01-15', type: 'public_bank' });
    expect(publicBanks).toMatchObject({ date: '2025-01-15', institutions: [{ id: 'banco-nacional', spread: 10, stale: false }] });
  });

  it('getBestRate', async () => {
    const best: BestRate = await client.getBestRate({ operation: 'sell' });
    expect(best).toEqual(await raw('/banking/best?operation=sell'));
    expect(best.best.id).toBe('teledolar');
    expect(best.ranking.map((r) => [r.id, r.rank, r.vsOfficial])).toEqual([
      ['teledolar', 1, -13],
      ['bac', 2, -11.5],
      ['banco-nacional', 3, -10],
    ]);
    const buy = await client.getBestRate({ operation: 'buy', date: new Date('2025-01-15T20:00:00Z'), type: 'public_bank' });
    expect(buy).toMatchObject({ operation: 'buy', date: '2025-01-15', best: { id: 'banco-nacional' } });
  });

  it('getInsights', async () => {
    expect(t.app.routes.map((r) => r.path)).toContain('/insights');
    const insights: Insights = await client.getInsights({ days: 14, locale: 'en' });
    expect(insights).toEqual(await raw('/insights?days=14&locale=en'));
    // Sell went from 512.25 to 525 (+2.5 %): more colones per dollar.
    expect(insights).toMatchObject({ locale: 'en', from: '2025-01-03', to: '2025-01-16', verdict: 'depreciation', generatedBy: 'statistical' });
    expect(insights.metrics).toEqual(await client.getAnalytics({ days: 14 }));
    expect(insights.summary.length).toBeGreaterThan(0);
    expect((await client.getInsights()).locale).toBe('es');
  });

  it('getUsage', async () => {
    const usage: Usage = await client.getUsage();
    expect(usage).toMatchObject({ plan: 'custom', monthlyQuota: 1_000_000_000, resetsAt: '2025-02-01T00:00:00.000Z', ratePerMinute: 1_000_000 });
    expect(usage.used + usage.remaining).toBe(usage.monthlyQuota);
  });

  it('health, also without a key', async () => {
    const health: Health = await client.health();
    expect(health).toMatchObject({ status: 'ok', database: 'up', latestDate: '2025-01-16' });
    const anonymous = new ExchangeRateClient({ apiKey: '', baseUrl: t.api });
    expect((await anonymous.health()).latestDate).toBe('2025-01-16');
  });
});

describe('generated parameters', () => {
  it('are generated from every route the app serves in the envelope, with the same parameters', () => {
    // The generator lists the route factories itself; a route the app gains must reach it too.
    const params = (routes: readonly { path: string; query: object }[]) => Object.fromEntries(routes.map((r) => [r.path, Object.keys(r.query)]));
    expect(params(routeList())).toEqual(params(t.app.routes.filter((r) => !r.raw)));
  });
});

describe('baseUrl', () => {
  it("the server's bare origin works as well as its /api/v1", async () => {
    expect(t.api).toBe(`${t.url}/api/v1`);
    const fromOrigin = new ExchangeRateClient({ apiKey: t.key, baseUrl: t.url });
    expect(fromOrigin.baseUrl).toBe(t.api);
    expect(await fromOrigin.getLatest()).toEqual(await client.getLatest());
  });

  it('any other path is refused when the client is made, not by a 404 later', () => {
    expect(() => new ExchangeRateClient({ apiKey: t.key, baseUrl: `${t.url}/api` })).toThrow(/"baseUrl" must be the API base, ending in \/api\/v1/);
  });
});

describe('lastRateLimit', () => {
  it('is null before the first answer, then holds the headers of the last one', async () => {
    const fresh = new ExchangeRateClient({ apiKey: t.key, baseUrl: `${t.api}/` });
    expect(fresh.lastRateLimit).toBeNull();
    await fresh.getLatest();
    const first = fresh.lastRateLimit;
    expect(first).toEqual({
      limit: 1_000_000,
      remaining: expect.any(Number),
      reset: expect.any(Number),
      quotaLimit: 1_000_000_000,
      quotaRemaining: expect.any(Number),
      quotaReset: '2025-02-01T00:00:00.000Z',
    });
    await fresh.getLatest();
    expect(fresh.lastRateLimit?.quotaRemaining).toBe((first?.quotaRemaining ?? 0) - 1);
    expect(fresh.lastRateLimit?.remaining).toBeLessThan(first?.remaining ?? 0);
  });

  it('is also taken from error answers', async () => {
    const { key } = await createApiKeysStore(t.database.db).create({ name: 'sdk limits', plan: 'custom', monthlyQuota: 100, ratePerMinute: 7 });
    const limited = new ExchangeRateClient({ apiKey: key, baseUrl: t.api, retries: 0 });
    await rejection(limited.getByDate('2020-01-01'));
    expect(limited.lastRateLimit).toMatchObject({ limit: 7, remaining: 6, quotaLimit: 100 });
  });
});

describe('errors', () => {
  it('400 BAD_REQUEST, with the message naming the parameter', async () => {
    const days = await rejection(client.getHistory({ days: 0 }));
    expect(days).toMatchObject({ status: 400, code: 'BAD_REQUEST', retryAfter: null });
    expect(days.message).toContain('"days"');
    const date = await rejection(client.getByDate('2024-02-30'));
    expect(date).toMatchObject({ status: 400, code: 'BAD_REQUEST' });
    expect(date.message).toContain('"date"');
    const type = await rejection(client.getBankingRates({ type: 'bank' as never }));
    expect(type.message).toContain('"type"');
    const order = await rejection(client.getRange({ from: '2025-01-05', to: '2025-01-01' }));
    expect(order.message).toContain('"from"');
    expect(order.name).toBe('ExchangeRateError');
    expect(order.requestId).toEqual(expect.any(String));
  });

  it('an invalid Date is refused before anything is sent', async () => {
    const counted = countingFetch();
    const local = new ExchangeRateClient({ apiKey: t.key, baseUrl: t.api, fetch: counted.fetch });
    const error = await rejection(local.getByDate(new Date('not a date')));
    expect(error).toMatchObject({ code: 'BAD_REQUEST', status: null });
    expect(error.message).toContain('"date"');
    expect(counted.calls).toEqual([]);
  });

  it('401 UNAUTHORIZED for a missing or unknown key', async () => {
    const unknown = new ExchangeRateClient({ apiKey: `crc_live_${'x'.repeat(43)}`, baseUrl: t.api });
    expect(await rejection(unknown.getLatest())).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    const none = new ExchangeRateClient({ apiKey: '', baseUrl: t.api });
    expect(await rejection(none.getLatest())).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
  });

  it('404 NOT_FOUND for a day without a rate', async () => {
    const error = await rejection(client.getByDate('2020-01-01'));
    expect(error).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(error.message).toContain('2020-01-01');
    expect((await rejection(client.getBankingRates({ date: '2024-12-31' }))).code).toBe('NOT_FOUND');
  });

  it('429 RATE_LIMITED with retryAfter; retried after Retry-After while retries last', async () => {
    const { key } = await createApiKeysStore(t.database.db).create({ name: 'sdk rate', plan: 'custom', monthlyQuota: 1000, ratePerMinute: 1 });
    const once = new ExchangeRateClient({ apiKey: key, baseUrl: t.api, retries: 0 });
    await once.getLatest();
    const limited = await rejection(once.getLatest());
    expect(limited).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    // The window of a minute has only just begun: the server asks for most of it.
    expect(limited.retryAfter).toBeGreaterThan(10);
    expect(limited.retryAfter).toBeLessThanOrEqual(60);
    expect(once.lastRateLimit).toMatchObject({ limit: 1, remaining: 0 });

    // That is over the default ceiling of 10 s: a client with retries rejects at once.
    const hurried = countingFetch();
    const fastWaits: number[] = [];
    const defaults = new ExchangeRateClient({ apiKey: key, baseUrl: t.api, fetch: hurried.fetch, sleep: async (ms) => void fastWaits.push(ms) });
    expect(await rejection(defaults.getLatest())).toMatchObject({ status: 429, code: 'RATE_LIMITED', retryAfter: expect.any(Number) });
    expect(hurried.calls).toHaveLength(1);
    expect(fastWaits).toEqual([]);

    // Under a ceiling of a minute it waits what Retry-After says before each new attempt (the
    // wait is faked here: the server's minute does not pass, so every attempt is refused again).
    const waits: number[] = [];
    const counted = countingFetch();
    const patient = new ExchangeRateClient({
      apiKey: key,
      baseUrl: t.api,
      retries: 2,
      maxRetryWaitMs: 60_000,
      fetch: counted.fetch,
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    const error = await rejection(patient.getLatest());
    expect(error.code).toBe('RATE_LIMITED');
    expect(counted.calls).toHaveLength(3);
    expect(waits).toHaveLength(2);
    for (const ms of waits) {
      expect(ms % 1000).toBe(0);
      expect(ms).toBeGreaterThanOrEqual(1000);
      expect(ms).toBeLessThanOrEqual(60_000);
    }

    // The same wait on a real timer, cancelled: the call rejects at once and asks nothing more.
    const cancelled = countingFetch();
    const controller = new AbortController();
    const waiting = new ExchangeRateClient({ apiKey: key, baseUrl: t.api, maxRetryWaitMs: 60_000, fetch: cancelled.fetch });
    const started = Date.now();
    const call = waiting.getLatest({ signal: controller.signal }).then(
      () => null,
      (e: unknown) => e,
    );
    while (cancelled.calls.length < 1) await new Promise((resolve) => setTimeout(resolve, 10));
    setTimeout(() => controller.abort(), 200);
    const aborted = await call;
    expect(aborted).toBeInstanceOf(DOMException);
    expect(aborted).toMatchObject({ name: 'AbortError' });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(cancelled.calls).toHaveLength(1);
  });

  it('429 QUOTA_EXCEEDED throws at once, never retried', async () => {
    const { key } = await createApiKeysStore(t.database.db).create({ name: 'sdk quota', plan: 'custom', monthlyQuota: 1, ratePerMinute: 1000 });
    const waits: number[] = [];
    const counted = countingFetch();
    const quota = new ExchangeRateClient({
      apiKey: key,
      baseUrl: t.api,
      retries: 5,
      fetch: counted.fetch,
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    await quota.getLatest();
    const error = await rejection(quota.getLatest());
    expect(error).toMatchObject({ status: 429, code: 'QUOTA_EXCEEDED' });
    // Seconds from the server's clock to 2025-02-01T00:00Z.
    expect(error.retryAfter).toBe((Date.parse('2025-02-01T00:00:00Z') - NOW.getTime()) / 1000);
    expect(counted.calls).toHaveLength(2);
    expect(waits).toEqual([]);
    expect(quota.lastRateLimit).toMatchObject({ quotaLimit: 1, quotaRemaining: 0 });
    // /usage is never counted, so it still answers.
    expect((await quota.getUsage()).remaining).toBe(0);
  });

  it('other 4xx are not retried', async () => {
    const waits: number[] = [];
    const counted = countingFetch();
    const retrying = new ExchangeRateClient({ apiKey: t.key, baseUrl: t.api, retries: 3, fetch: counted.fetch, sleep: async (ms) => void waits.push(ms) });
    await rejection(retrying.getHistory({ days: 1000 }));
    await rejection(retrying.getByDate('2020-01-01'));
    expect(counted.calls).toHaveLength(2);
    expect(waits).toEqual([]);
  });
});
