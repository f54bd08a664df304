/**
 * The site API ignores FechaInicio: each table holds the 100 days up to FechaFin, so every
 * 90-day chunk brings days before the ones asked. The sync keeps only the days of the span it
 * was asked for: every one of them once, and nothing outside it, not even a corrected value.
 */
import { addDays } from '../../../shared/dates';
import { syncOfficialSpan } from '../../../server/jobs/sync-official-span';
import { createRatesStore } from '../../../server/store/rates';
import { startFakeUpstream, type FakeUpstream } from '../../../server/demo/bccr-upstream';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import { clearTables, daysOf, fakeSources, fakeValues, noonInCostaRica, snapshotRates, syncDeps } from '../../helpers/sync';

const TODAY = '2026-11-20';
/** 200 past days: three 90-day chunks, each answered with 100 days. */
const SPAN = { from: '2026-04-01', to: '2026-10-17' };

let fake: FakeUpstream;
let database: TestDatabase;

beforeAll(async () => {
  fake = await startFakeUpstream({ today: TODAY });
  database = await createTestDatabase();
});
afterAll(async () => {
  await fake.close();
  await database.drop();
});
beforeEach(async () => {
  await clearTables(database.db);
  fake.requests.length = 0;
});

it('stores every day of the span once and nothing of the days the tables add before it', async () => {
  // A stored day just before the span, with a value the fake now serves differently.
  const before = addDays(SPAN.from, -1);
  const served = fake.rateFor(before)!;
  await createRatesStore(database.db).upsert([
    { date: before, buy: served.buy! + 1, sell: served.sell! + 1, source: 'BCCR', fetchedAt: new Date('2026-01-01T00:00:00.000Z') },
  ]);
  const untouched = await snapshotRates(database.db);

  const { sources } = fakeSources(fake, 'site');
  const summary = await syncOfficialSpan(
    syncDeps(database.db, () => noonInCostaRica(TODAY)),
    sources.primary,
    SPAN,
  );

  const days = daysOf(SPAN.from, SPAN.to);
  expect(summary).toMatchObject({ status: 'succeeded', inserted: days.length, updated: 0, rejected: [], missing: [] });
  // Three chunks were asked, each answered with the 100 days up to its FechaFin.
  const asked = fake.requests.filter((r) => r.route === 'site').map((r) => [r.query.get('FechaInicio'), r.query.get('FechaFin')]);
  expect(asked).toEqual([
    [`${SPAN.from}T00:00:00`, '2026-06-29'],
    ['2026-06-30T00:00:00', '2026-09-27'],
    ['2026-09-28T00:00:00', SPAN.to],
  ]);
  const stored = await snapshotRates(database.db);
  expect(stored.filter((r) => r.date < SPAN.from)).toEqual(untouched);
  expect(stored.filter((r) => r.date >= SPAN.from).map(({ date, buy, sell }) => ({ date, buy, sell }))).toEqual(fakeValues(fake, days));
});
