/**
 * Period statistics are computed from the series in memory: they must answer exactly what one
 * plain aggregation over the rows answers in SQL (NUMERIC averages), for any range (whole months,
 * cut months, one day, no data) and after any kind of write (upsert, correction, delete, truncate).
 */
import type { PeriodStats } from '../../../shared/types';
import { addDays } from '../../../shared/dates';
import { createRatesStore, type RatesStore } from '../../../server/store/rates';
import { createRatesInMemory } from '../../../server/store/rates-in-memory';
import type { RateSeries } from '../../../server/store/series-reader';
import { rate } from '../../helpers/app';
import { createTestDatabase, migrateDownTo, type TestDatabase } from '../../helpers/database';
import { migrate } from '../../../server/store/migrations';

type Kind = 'monthly' | 'yearly';

/** The statistics worked out the plain way, straight from every row in the range. */
async function byAggregation(database: TestDatabase, kind: Kind, from: string, to: string): Promise<PeriodStats[]> {
  const unit = kind === 'monthly' ? 'month' : 'year';
  const side = (c: string) =>
    `round(avg(${c}), 4) AS ${c}_average, min(${c}) AS ${c}_min, max(${c}) AS ${c}_max,
     (array_agg(${c} ORDER BY date))[1] AS ${c}_first, (array_agg(${c} ORDER BY date DESC))[1] AS ${c}_last`;
  const { rows } = (await database.db.raw(
    `SELECT to_char(date_trunc('${unit}', date), '${kind === 'monthly' ? 'YYYY-MM' : 'YYYY'}') AS period, min(date)::text AS "from", max(date)::text AS "to",
       count(*)::integer AS count, ${side('buy')}, ${side('sell')}
     FROM exchange_rates WHERE date BETWEEN ? AND ? GROUP BY 1 ORDER BY 1`,
    [from, to],
  )) as { rows: Array<Record<string, string | number>> };
  const pick = (r: Record<string, string | number>, c: string) => {
    const [average, min, max, first, last] = ['average', 'min', 'max', 'first', 'last'].map((k) => Number(r[`${c}_${k}`]));
    return { average, min, max, first, last, change: Math.round((last! - first!) * 1e4) / 1e4 };
  };
  return rows.map((r) => ({
    period: String(r.period),
    from: String(r.from),
    to: String(r.to),
    count: Number(r.count),
    buy: pick(r, 'buy'),
    sell: pick(r, 'sell'),
  })) as PeriodStats[];
}

/** About three years of days, with holes (a missing week, a missing month) and uneven values. */
function history(): ReturnType<typeof rate>[] {
  const rows: ReturnType<typeof rate>[] = [];
  for (let i = 0; i < 3 * 366; i++) {
    const date = addDays('2022-11-20', i);
    if ((date >= '2023-03-06' && date <= '2023-03-12') || date.startsWith('2024-02')) continue;
    const buy = Math.round((500 + 40 * Math.sin(i / 37) + (i % 7) * 0.13) * 100) / 100;
    rows.push(rate(date, buy, Math.round((buy + 5 + (i % 5) * 0.07) * 100) / 100));
  }
  return rows;
}

const RANGES: Array<[string, string]> = [
  ['1983-01-01', '2100-12-31'],
  ['2022-11-20', '2025-11-19'],
  ['2023-01-01', '2023-12-31'],
  ['2023-01-01', '2024-12-31'],
  ['2023-01-15', '2023-01-20'],
  ['2023-01-31', '2023-02-01'],
  ['2023-02-01', '2023-02-28'],
  ['2023-02-02', '2023-02-28'],
  ['2023-02-01', '2023-02-27'],
  ['2023-03-07', '2023-03-11'],
  ['2023-02-15', '2024-03-15'],
  ['2024-01-31', '2024-03-01'],
  ['2024-02-01', '2024-02-29'],
  ['2023-06-30', '2023-06-30'],
  ['2022-12-31', '2023-01-01'],
  ['2025-11-01', '2030-01-01'],
  ['1990-01-01', '2000-01-01'],
  // Two days whose averages are ties once the test below has written them (500.00015, 505.125).
  ['2023-04-03', '2023-04-04'],
];

describe('period statistics from the series in memory', () => {
  let database: TestDatabase;
  let store: RatesStore;
  let rates: RateSeries;
  // The change feed's notice, given by hand after each write (the sync's writes give it themselves).
  let ratesChanged: () => void = () => undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
    store = createRatesStore(database.db);
    rates = createRatesInMemory(store, (listener) => {
      ratesChanged = listener;
    });
    await store.upsert(history());
  });
  afterAll(() => database.drop());

  const expectSameAsAggregation = async () => {
    ratesChanged();
    for (const kind of ['monthly', 'yearly'] as const) {
      for (const [from, to] of RANGES) {
        expect([kind, from, to, await rates.periodStats(kind, from, to)]).toEqual([kind, from, to, await byAggregation(database, kind, from, to)]);
      }
    }
  };

  it('answers what aggregating every row answers, over ranges that cut months or years anywhere', async () => {
    expect((await rates.periodStats('monthly', '2022-11-20', '2025-11-19')).length).toBeGreaterThan(30);
    await expectSameAsAggregation();
  });

  it('computes a whole period once per loaded series, whatever range asks for it, and a cut one each time', async () => {
    ratesChanged();
    const [, may] = await rates.periodStats('monthly', '2023-04-15', '2023-05-31');
    const [mayAgain] = await rates.periodStats('monthly', '2023-05-01', '2023-06-10');
    expect(may?.period).toBe('2023-05');
    expect(mayAgain).toBe(may);
    expect(Object.isFrozen(may)).toBe(true);
    const [cut] = await rates.periodStats('monthly', '2023-05-02', '2023-05-31');
    const [cutAgain] = await rates.periodStats('monthly', '2023-05-02', '2023-05-31');
    expect(cut).toEqual(cutAgain);
    expect(cut).not.toBe(cutAgain);
    // After a change of rates the series is loaded again, and so are its periods.
    ratesChanged();
    const [reloaded] = await rates.periodStats('monthly', '2023-05-01', '2023-05-31');
    expect(reloaded).toEqual(may);
    expect(reloaded).not.toBe(may);
  });

  it('follows corrections, new rows and deletions, made through the store or by hand', async () => {
    await store.upsert([rate('2023-01-15', 612.34, 620.01), rate('2024-02-10', 700, 710), rate('2023-03-08', 499.99, 505)]);
    await database.db('exchange_rates').where({ date: '2023-06-30' }).update({ sell: 999.99 });
    await database.db('exchange_rates').whereBetween('date', ['2023-08-01', '2023-08-31']).delete();
    await database.db('exchange_rates').where({ date: '2024-05-01' }).delete();
    await database
      .db('exchange_rates')
      .whereIn('date', ['2022-12-31', '2025-06-15'])
      .update({ buy: database.db.raw('buy + 0.01') });
    ratesChanged();
    expect(await rates.periodStats('monthly', '2023-08-01', '2023-08-31')).toEqual([]);
    await expectSameAsAggregation();
  });

  it('averages values of more decimals exactly, rounding ties away from zero', async () => {
    // Four-decimal values, as the derived currencies' records carry; the first two days' averages are ties.
    await store.upsert([rate('2023-04-03', 500.0001, 505.12), rate('2023-04-04', 500.0002, 505.13), rate('2023-04-05', 500.1234, 505.1299)]);
    await expectSameAsAggregation();
    ratesChanged();
    const [days] = await rates.periodStats('monthly', '2023-04-03', '2023-04-04');
    expect([days?.buy.average, days?.sell.average]).toEqual([500.0002, 505.125]);
  });

  it('is empty after the table is emptied, and whole again after a reload', async () => {
    await database.db.raw('TRUNCATE exchange_rates');
    ratesChanged();
    expect(await rates.periodStats('yearly', '1983-01-01', '2100-12-31')).toEqual([]);
    await store.upsert(history());
    await expectSameAsAggregation();
  });
});

describe('the monthly summaries, dropped', () => {
  it('are gone after migration 015, and built again from the rows stored by then when it goes back down', async () => {
    const database = await createTestDatabase();
    try {
      expect(await database.db.schema.hasTable('rate_months')).toBe(false);
      await createRatesStore(database.db).upsert(history());
      await migrateDownTo(database.db, '014_provisional_rates');
      const { rows } = (await database.db.raw(
        `SELECT to_char(month, 'YYYY-MM') AS month, count, buy_sum::text AS buy_sum FROM rate_months ORDER BY month`,
      )) as { rows: Array<{ month: string; count: number; buy_sum: string }> };
      const { rows: expected } = (await database.db.raw(
        `SELECT to_char(date_trunc('month', date), 'YYYY-MM') AS month, count(*)::integer AS count, sum(buy)::text AS buy_sum FROM exchange_rates GROUP BY 1 ORDER BY 1`,
      )) as { rows: typeof rows };
      expect(rows.length).toBeGreaterThan(30);
      expect(rows).toEqual(expected);
      // And their triggers follow writes again, until the summaries are dropped once more.
      await database.db('exchange_rates').where({ date: '2023-06-30' }).delete();
      expect(await database.db('rate_months').where({ month: '2023-06-01' }).first('count')).toEqual({ count: 29 });
      await migrate(database.db);
      expect(await database.db.schema.hasTable('rate_months')).toBe(false);
      await database.db('exchange_rates').where({ date: '2023-07-01' }).delete();
    } finally {
      await database.drop();
    }
  });
});
