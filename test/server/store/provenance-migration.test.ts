/**
 * Migration 008 (the provenance log): rows stored before it get one observation each, from their
 * source and fetch time, so an existing database has provenance at once; its trigger keeps the
 * values a row had before any change to them, whoever makes it; and `down` removes all it added.
 */
import { migrate } from '../../../server/store/migrations';
import { createProvenanceStore } from '../../../server/store/provenance';
import { createRatesStore } from '../../../server/store/rates';
import { rate } from '../../helpers/app';
import { createTestDatabase, migrateDownTo, type TestDatabase } from '../../helpers/database';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

const FETCHED = {
  '2025-01-14': new Date('2025-01-13T20:05:12.000Z'),
  '2025-01-15': new Date('2025-01-14T20:05:12.000Z'),
  '2025-01-16': new Date('2025-01-16T15:00:00.000Z'),
};

async function objects(): Promise<{ tables: string[]; functions: string[]; triggers: string[] }> {
  const db = database.db;
  const names = async (sql: string) => ((await db.raw(sql)) as { rows: Array<{ name: string }> }).rows.map((r) => r.name).sort();
  return {
    tables: await names(`SELECT table_name AS name FROM information_schema.tables WHERE table_name IN ('rate_observations', 'rate_revisions')`),
    functions: await names(`SELECT proname AS name FROM pg_proc WHERE proname = 'exchange_rates_keep_revisions'`),
    triggers: await names(`SELECT tgname AS name FROM pg_trigger WHERE tgname = 'exchange_rates_revisions'`),
  };
}

it('fills the log from the rows already stored, one observation each, from their source and fetch time', async () => {
  await migrateDownTo(database.db, '007_rate_months');
  expect(await objects()).toEqual({ tables: [], functions: [], triggers: [] });
  await createRatesStore(database.db).upsert([
    { ...rate('2025-01-14', 506.1, 512.2), fetchedAt: FETCHED['2025-01-14'] },
    { ...rate('2025-01-15', 506.47, 512.8), fetchedAt: FETCHED['2025-01-15'] },
    { ...rate('2025-01-16', 507, 513.4, 'Hacienda'), fetchedAt: FETCHED['2025-01-16'] },
  ]);

  await migrate(database.db);

  const log = await database.db('rate_observations').select('*').orderBy('date');
  expect(log).toEqual([
    {
      date: '2025-01-14',
      route: 'bccr',
      source: 'BCCR',
      upstream_buy: 'BCCR indicator 317',
      upstream_sell: 'BCCR indicator 318',
      buy: 506.1,
      sell: 512.2,
      first_seen_at: FETCHED['2025-01-14'],
      last_confirmed_at: FETCHED['2025-01-14'],
      count: 1,
    },
    expect.objectContaining({ date: '2025-01-15', route: 'bccr', source: 'BCCR', buy: 506.47, sell: 512.8, first_seen_at: FETCHED['2025-01-15'], count: 1 }),
    {
      date: '2025-01-16',
      route: 'hacienda',
      source: 'Hacienda',
      upstream_buy: 'Hacienda /indicadores/tc/dolar (compra)',
      upstream_sell: 'Hacienda /indicadores/tc/dolar (venta)',
      buy: 507,
      sell: 513.4,
      first_seen_at: FETCHED['2025-01-16'],
      last_confirmed_at: FETCHED['2025-01-16'],
      count: 1,
    },
  ]);
  expect(await database.db('rate_revisions').count({ n: '*' })).toEqual([{ n: 0 }]);

  const day = await createProvenanceStore(database.db).ofDay('2025-01-15');
  expect(day).toEqual({
    record: { date: '2025-01-15', currencyFrom: 'USD', currencyTo: 'CRC', buy: 506.47, sell: 512.8, source: 'BCCR', fetchedAt: '2025-01-14T20:05:12.000Z' },
    observations: [
      {
        source: 'BCCR',
        upstream: { buy: 'BCCR indicator 317', sell: 'BCCR indicator 318' },
        buy: 506.47,
        sell: 512.8,
        firstSeenAt: '2025-01-14T20:05:12.000Z',
        lastConfirmedAt: '2025-01-14T20:05:12.000Z',
        count: 1,
      },
    ],
    revisions: [],
  });
});

it('keeps the values a row had before a change made by hand, dated when it was made', async () => {
  const before = new Date();
  await database.db('exchange_rates').where({ date: '2025-01-14' }).update({ sell: 512.5 });
  // Updating a row to the values it has is no revision.
  await database.db('exchange_rates').where({ date: '2025-01-15' }).update({ sell: 512.8 });

  const revisions = await database.db('rate_revisions').select('*');
  expect(revisions).toEqual([
    expect.objectContaining({
      date: '2025-01-14',
      buy: 506.1,
      sell: 512.2,
      source: 'BCCR',
      observed_at: FETCHED['2025-01-14'],
      new_buy: 506.1,
      new_sell: 512.5,
      new_source: 'BCCR',
    }),
  ]);
  expect((revisions[0] as { replaced_at: Date }).replaced_at.getTime()).toBeGreaterThanOrEqual(before.getTime() - 1000);
  expect(await createProvenanceStore(database.db).revisions('2025-01-01', '2025-01-31')).toEqual([
    {
      date: '2025-01-14',
      before: { buy: 506.1, sell: 512.2, source: 'BCCR' },
      after: { buy: 506.1, sell: 512.5, source: 'BCCR' },
      revisedAt: (revisions[0] as { replaced_at: Date }).replaced_at.toISOString(),
    },
  ]);
});

it('goes back down cleanly, leaving the rates and their monthly summaries working', async () => {
  await migrateDownTo(database.db, '007_rate_months');
  expect(await objects()).toEqual({ tables: [], functions: [], triggers: [] });
  await database.db('exchange_rates').where({ date: '2025-01-15' }).update({ sell: 513 });
  expect(await database.db('rate_months').select('sell_max')).toEqual([{ sell_max: 513.4 }]);

  await migrate(database.db);
  expect(await objects()).toEqual({
    tables: ['rate_observations', 'rate_revisions'],
    functions: ['exchange_rates_keep_revisions'],
    triggers: ['exchange_rates_revisions'],
  });
  expect(await database.db('rate_observations').count({ n: '*' })).toEqual([{ n: 3 }]);
});
