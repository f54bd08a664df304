/**
 * The whole history on an empty database, 1983-01-01 through today, in one-year runs each stored
 * on its own: it completes with one row per calendar day, and when it is interrupted the years
 * already stored stay and the next catch-up resumes from there instead of starting over.
 */
import { addDays, daysBetween } from '../../../shared/dates';
import type { ExchangeRate } from '../../../shared/types';
import { RUN_SPAN_DAYS, catchUpOfficial } from '../../../server/jobs/catch-up';
import { SANITY_BOUNDS } from '../../../server/sources/sanity';
import { createRatesStore } from '../../../server/store/rates';
import { startFakeUpstream, type FakeUpstream } from '../../../server/demo/bccr-upstream';
import { startTestApp } from '../../helpers/app';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import { clearTables, createTestKey, daysOf, fakeSources, fakeValues, noonInCostaRica, snapshotRates, syncDeps } from '../../helpers/sync';

const TODAY = '2026-11-20';
const FIRST = SANITY_BOUNDS.firstDate;
const clock = () => noonInCostaRica(TODAY);
const ALL_DAYS = daysOf(FIRST, TODAY);
/** One run per 366 days, from 1983-01-01 through tomorrow. */
const RUNS = Math.ceil((daysBetween(FIRST, addDays(TODAY, 1)) + 1) / RUN_SPAN_DAYS);

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
  fake.setFault('sdde', null);
  fake.setRates(null);
});

const deps = () => syncDeps(database.db, clock);

/** Every day exactly once, each with the fake's values, all from the central bank. */
async function expectWholeHistory(): Promise<void> {
  const [{ rows, days }] = await database.db('exchange_rates').select(database.db.raw('count(*)::int AS rows, count(DISTINCT date)::int AS days'));
  expect({ rows, days }).toEqual({ rows: ALL_DAYS.length, days: ALL_DAYS.length });
  const stored = await snapshotRates(database.db);
  expect(stored.map(({ date, buy, sell }) => ({ date, buy, sell }))).toEqual(fakeValues(fake, ALL_DAYS));
  expect(stored.filter((r) => r.source !== 'BCCR')).toEqual([]);
}

it('backfills the whole synthetic history through the token API, one row per calendar day', async () => {
  const { sources } = fakeSources(fake, 'sdde');

  const result = await catchUpOfficial(deps(), sources);

  expect(result).toMatchObject({ ran: true, ok: true });
  expect(result.runs).toHaveLength(RUNS);
  expect(result.runs[0]).toMatchObject({ from: FIRST, to: addDays(FIRST, RUN_SPAN_DAYS - 1) });
  expect(result.runs.at(-1)).toMatchObject({ to: addDays(TODAY, 1) });
  for (const run of result.runs) expect(run).toMatchObject({ status: 'succeeded', source: 'bccr-sdde', updated: 0, rejected: [], missing: [] });
  expect(result.runs.reduce((n, r) => n + r.inserted, 0)).toBe(ALL_DAYS.length);
  await expectWholeHistory();
});

it('keeps the years stored before an interruption, and the next catch-up resumes and ends with every day once', async () => {
  const { sources } = fakeSources(fake, 'sdde', { retries: 1 });
  const KEPT_RUNS = 4;
  let fetched = 0;

  // The central bank starts failing for good once four one-year runs have been fetched.
  const interrupted = await catchUpOfficial(deps(), sources, {
    onProgress: () => {
      fetched += 1;
      if (fetched === KEPT_RUNS) fake.setFault('sdde', '500');
    },
  });

  expect(interrupted).toMatchObject({ ran: true, ok: false });
  const primaryRuns = interrupted.runs.filter((r) => r.source === 'bccr-sdde');
  expect(primaryRuns.map((r) => r.status)).toEqual([...Array<string>(KEPT_RUNS).fill('succeeded'), 'failed']);
  const lastKept = addDays(FIRST, KEPT_RUNS * RUN_SPAN_DAYS - 1);
  const keptDays = daysOf(FIRST, lastKept);
  const official = await createRatesStore(database.db).range(FIRST, addDays(TODAY, 1));
  const bccr = official.filter((r) => r.source === 'BCCR');
  expect(bccr.map(({ date, buy, sell }) => ({ date, buy, sell }))).toEqual(fakeValues(fake, keptDays));
  // Meanwhile the fallback filled today: that row must not make the next catch-up skip the gap.
  expect(interrupted.runs.at(-1)).toMatchObject({ source: 'hacienda', status: 'succeeded', inserted: 1 });
  expect(official.filter((r) => r.source !== 'BCCR').map((r) => [r.date, r.source])).toEqual([[TODAY, 'Hacienda']]);

  fake.setFault('sdde', null);
  fake.requests.length = 0;
  const resumed = await catchUpOfficial(deps(), sources);

  expect(resumed).toMatchObject({ ran: true, ok: true });
  // It resumes a week before the last year it kept (corrections), not from 1983 and not from today.
  expect(resumed.runs[0]).toMatchObject({ source: 'bccr-sdde', from: addDays(lastKept, -6) });
  expect(resumed.runs.every((r) => r.source === 'bccr-sdde' && r.status === 'succeeded')).toBe(true);
  // Every missing day is new; today's Hacienda row is replaced by the central bank's.
  expect(resumed.runs.reduce((n, r) => n + r.inserted, 0)).toBe(ALL_DAYS.length - keptDays.length - 1);
  expect(resumed.runs.reduce((n, r) => n + r.updated, 0)).toBe(1);
  expect(fake.requests.some((r) => r.query.get('fechaInicio') === '1983/01/01')).toBe(false);
  await expectWholeHistory();

  const app = await startTestApp({ database, clock });
  try {
    const key = await createTestKey(database.db);
    const spans = [
      { from: FIRST, to: '1983-12-31' },
      // Across the point where the first backfill stopped.
      { from: addDays(lastKept, -200), to: addDays(lastKept, 166) },
      { from: '2024-01-01', to: '2024-12-31' },
      { from: addDays(TODAY, -366), to: TODAY },
    ];
    for (const span of spans) {
      const { status, body } = await app.get(`/exchange-rate/range?from=${span.from}&to=${span.to}`, key);
      expect(status).toBe(200);
      const records = body.data as ExchangeRate[];
      expect(records.map((r) => r.date)).toEqual(daysOf(span.from, span.to));
      expect(records.map(({ date, buy, sell }) => ({ date, buy, sell }))).toEqual(fakeValues(fake, daysOf(span.from, span.to)));
    }
  } finally {
    await app.close();
  }
});
