/**
 * `SyncDeps.skipObservationLog`, which the benchmark uses to time a backfill without the
 * observation log: set, a sync stores the same rates and writes no observation; unset, the log is
 * written as ever.
 */
import { addDays } from '../../../shared/dates';
import { syncOfficialSpan } from '../../../server/jobs/sync-official-span';
import { startFakeUpstream, type FakeUpstream } from '../../../server/demo/bccr-upstream';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import { clearTables, daysOf, fakeSources, fakeValues, noonInCostaRica, snapshotRates, syncDeps } from '../../helpers/sync';

const TODAY = '2026-11-20';
const clock = () => noonInCostaRica(TODAY);
const WEEK = { from: addDays(TODAY, -7), to: addDays(TODAY, -1) };

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
beforeEach(() => clearTables(database.db));

const observedDays = async () => (await database.db('rate_observations').select('date').orderBy('date')).map((row: { date: string }) => row.date);
const storedValues = async () => (await snapshotRates(database.db)).map(({ date, buy, sell }) => ({ date, buy, sell }));

test('a sync told to skip the log stores the rates and writes no observation', async () => {
  const { sources } = fakeSources(fake, 'sdde');
  const summary = await syncOfficialSpan({ ...syncDeps(database.db, clock), skipObservationLog: true }, sources.primary, WEEK);

  expect([summary.status, summary.inserted]).toEqual(['succeeded', 7]);
  expect(await storedValues()).toEqual(fakeValues(fake, daysOf(WEEK.from, WEEK.to)));
  expect(await observedDays()).toEqual([]);
});

test('left unset, the sync writes an observation of every day it stored', async () => {
  const { sources } = fakeSources(fake, 'sdde');
  const summary = await syncOfficialSpan(syncDeps(database.db, clock), sources.primary, WEEK);

  expect([summary.status, summary.inserted]).toEqual(['succeeded', 7]);
  expect(await observedDays()).toEqual(daysOf(WEEK.from, WEEK.to));
});
