/**
 * A DATE goes into the database as `YYYY-MM-DD` and must come back as the same string, whatever
 * the process time zone: test/setup-env.js runs everything in America/Costa_Rica (UTC−6), and one
 * check below runs in Asia/Tokyo (UTC+9, where local midnight is still the day before in UTC, so a
 * DATE parsed as a local-midnight Date and serialised with toISOString() loses a day).
 */
import vm from 'node:vm';
import type { ExchangeRate, PeriodStats } from '../../../shared/types';
import { createRatesStore } from '../../../server/store/rates';
import { rate, startTestApp, type TestApp } from '../../helpers/app';
import { createTestDatabase } from '../../helpers/database';

/**
 * Jest's `process.env` is a sandbox copy: a TZ assigned there never reaches Node. The process of
 * the main context is the real one (test/setup-env.js sets Costa Rica's zone on it the same way).
 */
const realEnv = (vm.runInThisContext('process') as NodeJS.Process).env;

const ROWS = [rate('2024-02-29', 508.11, 514.4), rate('2024-12-31', 512.5, 518.25), rate('2025-01-01', 512.6, 518.3), rate('2025-01-02', 512.7, 518.4)];

describe('DATE round trip in America/Costa_Rica', () => {
  let t: TestApp;
  beforeAll(async () => {
    expect(realEnv.TZ).toBe('America/Costa_Rica');
    // The zone is really in effect: local midnight of 2025-01-01 is 06:00 UTC.
    expect(new Date(2025, 0, 1).toISOString()).toBe('2025-01-01T06:00:00.000Z');
    // 2025-01-01T03:00Z is still 2024-12-31 at 21:00 in Costa Rica: the instant crosses midnight
    // (and the year) in UTC but not in Costa Rica.
    t = await startTestApp({ clock: () => new Date('2025-01-01T03:00:00Z') });
    await t.seed(ROWS);
  });
  afterAll(() => t.close());

  it('reads every date back through the store as the same string', async () => {
    for (const row of ROWS) {
      const record = await t.rates.byDate(row.date);
      expect(record?.date).toBe(row.date);
      expect(typeof record?.date).toBe('string');
      expect(record?.fetchedAt).toBe(row.fetchedAt.toISOString());
    }
    expect((await t.rates.range('2024-01-01', '2025-12-31')).map((r) => r.date)).toEqual(ROWS.map((r) => r.date));
    expect((await t.rates.points('2024-12-31', '2025-01-01')).map((p) => p.date)).toEqual(['2024-12-31', '2025-01-01']);
    expect(await t.rates.earliestDate()).toBe('2024-02-29');
    expect(await t.rates.lastStoredDate()).toBe('2025-01-02');
    expect((await t.rates.latest('2024-12-31'))?.date).toBe('2024-12-31');
  });

  it('answers with the day of Costa Rica at an instant already past midnight in UTC', async () => {
    const latest = await t.get('/exchange-rate/latest');
    // Today is 2024-12-31 in Costa Rica; 2025-01-01 (today in UTC) is not the latest yet.
    expect((latest.body.data as ExchangeRate).date).toBe('2024-12-31');
    const byDate = await t.get('/exchange-rate?date=2025-01-01');
    expect((byDate.body.data as ExchangeRate).date).toBe('2025-01-01');
    const leap = await t.get('/exchange-rate?date=2024-02-29');
    expect((leap.body.data as ExchangeRate).date).toBe('2024-02-29');
    const history = await t.get('/exchange-rate/history?days=1');
    expect((history.body.data as ExchangeRate[]).map((r) => r.date)).toEqual(['2024-12-31']);
  });

  it('groups periods by the stored day, not a shifted one', async () => {
    const { body } = await t.get('/exchange-rate/stats?period=yearly&from=2024-12-31&to=2025-01-01');
    expect((body.data as PeriodStats[]).map((p) => [p.period, p.from, p.to, p.count])).toEqual([
      ['2024', '2024-12-31', '2024-12-31', 1],
      ['2025', '2025-01-01', '2025-01-01', 1],
    ]);
    const monthly = await t.get('/exchange-rate/stats?from=2024-02-01&to=2024-02-29');
    expect((monthly.body.data as PeriodStats[]).map((p) => [p.period, p.from, p.to])).toEqual([['2024-02', '2024-02-29', '2024-02-29']]);
  });
});

describe('DATE round trip in Asia/Tokyo', () => {
  const saved = realEnv.TZ;
  afterEach(() => {
    realEnv.TZ = saved;
  });

  it('reads the same strings back from a fresh database east of UTC', async () => {
    realEnv.TZ = 'Asia/Tokyo';
    // Node applies a TZ change at once: local midnight of 2025-01-01 is now 2024-12-31T15:00Z.
    expect(new Date(2025, 0, 1).toISOString()).toBe('2024-12-31T15:00:00.000Z');
    const database = await createTestDatabase();
    try {
      const rates = createRatesStore(database.db);
      await rates.upsert(ROWS);
      const { rows } = (await database.db.raw('SELECT date FROM exchange_rates ORDER BY date')) as { rows: Array<{ date: unknown }> };
      expect(rows.map((r) => r.date)).toEqual(ROWS.map((r) => r.date));
      for (const row of ROWS) {
        const record = await rates.byDate(row.date);
        expect(record?.date).toBe(row.date);
        expect(record?.fetchedAt).toBe('2025-01-14T18:05:12.000Z');
      }

      // And over HTTP, at 08:00 on 2025-01-02 in Tokyo, which is still 2025-01-01 in Costa Rica.
      const t = await startTestApp({ database, clock: () => new Date('2025-01-01T23:00:00Z') });
      try {
        const { body } = await t.get('/exchange-rate/latest');
        expect((body.data as ExchangeRate).date).toBe('2025-01-01');
        const range = await t.get('/exchange-rate/range?from=2024-12-31&to=2025-01-02');
        expect((range.body.data as ExchangeRate[]).map((r) => r.date)).toEqual(['2024-12-31', '2025-01-01', '2025-01-02']);
        const stats = await t.get('/exchange-rate/stats?period=monthly&from=2024-12-01&to=2025-01-31');
        expect((stats.body.data as PeriodStats[]).map((p) => [p.period, p.from, p.to])).toEqual([
          ['2024-12', '2024-12-31', '2024-12-31'],
          ['2025-01', '2025-01-01', '2025-01-02'],
        ]);
      } finally {
        await t.close();
      }
    } finally {
      await database.drop();
    }
  });
});
