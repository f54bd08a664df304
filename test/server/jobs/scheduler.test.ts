/**
 * The scheduler: a catch-up in the background right after start, a failed run tried again with
 * backoff until it succeeds, and `stop()` ending everything (no retry, no schedule left behind,
 * a running job aborted and settled before it resolves).
 */
import pino from 'pino';
import { addDays } from '../../../shared/dates';
import { createLocalChangeFeed } from '../../../server/changes';
import { startScheduler, type Scheduler } from '../../../server/jobs/scheduler';
import { syncBanking } from '../../../server/jobs/sync-banking';
import { createRatesStore } from '../../../server/store/rates';
import { createSyncRunsStore } from '../../../server/store/sync-runs';
import { realSleep, type RequestPolicy } from '../../../server/sources/http';
import { startFakeUpstream, type Fault, type FakeRoute, type FakeUpstream } from '../../../server/demo/bccr-upstream';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import { clearTables, daysOf, fakeSources, fakeValues, fakeVentanilla, noonInCostaRica, syncDeps, waitFor } from '../../helpers/sync';

const TODAY = '2026-11-20';
const clock = () => noonInCostaRica(TODAY);
/** One stored day, so that the catch-up covers a couple of weeks instead of the whole history. */
const SEEDED = addDays(TODAY, -10);

let fake: FakeUpstream;
let database: TestDatabase;
let scheduler: Scheduler | null = null;

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
  fake.requests.length = 0;
  const r = fake.rateFor(SEEDED)!;
  await createRatesStore(database.db).upsert([{ date: SEEDED, buy: r.buy!, sell: r.sell!, source: 'BCCR', fetchedAt: clock() }]);
});
afterEach(async () => {
  await scheduler?.stop();
  scheduler = null;
});

const deps = () => syncDeps(database.db, clock);
const runs = async () => (await createSyncRunsStore(database.db).recent(100)).reverse();
const idle = (s: Scheduler) => async () => (s.current === null ? true : undefined);

async function expectCaughtUp(): Promise<void> {
  const days = daysOf(SEEDED, TODAY);
  const stored = await createRatesStore(database.db).range(SEEDED, addDays(TODAY, 1));
  expect(stored.map(({ date, buy, sell }) => ({ date, buy, sell }))).toEqual(fakeValues(fake, days));
  expect(stored.every((r) => r.source === 'BCCR')).toBe(true);
}

it('catches up in the background right after start', async () => {
  const { sources } = fakeSources(fake, 'sdde');
  const s = startScheduler(deps(), sources, { cron: null });
  scheduler = s;
  // start() returned without waiting for anything upstream.
  expect(fake.requests).toHaveLength(0);

  await waitFor(async () => (await runs()).find((r) => r.status === 'succeeded'), 'the first catch-up');
  await waitFor(idle(s), 'the run to end');

  expect((await runs()).map((r) => [r.source, r.status, r.spanFrom])).toEqual([['bccr-sdde', 'succeeded', addDays(SEEDED, -6)]]);
  await expectCaughtUp();
});

it('retries a failed run with backoff, and the retry succeeds once the fault clears', async () => {
  // Each scheduled attempt makes one request (no retries inside the adapter): the first two fail.
  fake.setFault('sdde', { kind: '500', times: 2 });
  const { sources } = fakeSources(fake, 'sdde', { retries: 0 });
  const s = startScheduler(deps(), sources, { cron: null, retryDelaysMs: [10, 10, 10] });
  scheduler = s;

  await waitFor(async () => (await runs()).find((r) => r.source === 'bccr-sdde' && r.status === 'succeeded'), 'a successful retry');
  await waitFor(idle(s), 'the run to end');

  const official = (await runs()).filter((r) => r.source === 'bccr-sdde');
  expect(official.map((r) => r.status)).toEqual(['failed', 'failed', 'succeeded']);
  expect(official[0]!.error).toMatch(/HTTP 500/);
  // While the central bank failed, the fallback gave today once; the central bank's value replaced it.
  expect((await runs()).filter((r) => r.source === 'hacienda').map((r) => [r.status, r.inserted])).toEqual([['succeeded', 1]]);
  await expectCaughtUp();
});

it('stop() ends it: the pending retry and the schedule are dropped', async () => {
  fake.setFault('sdde', '500');
  const { sources } = fakeSources(fake, 'sdde', { retries: 0 });
  const s = startScheduler(deps(), sources, { cron: '0,30 12-18 * * 1-5', retryDelaysMs: [60_000] });
  scheduler = s;
  await waitFor(async () => (await runs()).find((r) => r.status === 'failed'), 'the first failed run');
  await waitFor(idle(s), 'the run to end, with a retry now pending');

  await s.stop();
  const requests = fake.requests.length;
  const recorded = (await runs()).length;
  await s.runNow();

  expect(s.current).toBeNull();
  expect(fake.requests).toHaveLength(requests);
  expect(await runs()).toHaveLength(recorded);
});

describe('stop() during a running job', () => {
  // Far longer than the test may take: only an abort ends these requests, or this wait, in time.
  const patient: RequestPolicy = { timeoutMs: 60_000, retries: 0 };
  const backingOff: RequestPolicy = { retries: 1, maxDelayMs: 60_000, sleep: realSleep };
  // A database and an upstream of each test's own, closed as the server closes its own.
  let own: TestDatabase | null = null;
  let upstream: FakeUpstream | null = null;
  afterEach(async () => {
    await own?.drop();
    await upstream?.close();
    own = null;
    upstream = null;
  });

  it.each<[string, FakeRoute, Fault, RequestPolicy]>([
    ['the official sync', 'sdde', 'hang', patient],
    ['the official sync waiting out a Retry-After', 'sdde', { kind: '429', retryAfter: '60' }, backingOff],
    ['the window-quote job', 'ventanillaSdde', 'hang', patient],
  ])('aborts %s, resolves once it settled, and nothing is logged after the database closes', async (_name, route, fault, policy) => {
    own = await createTestDatabase();
    upstream = await startFakeUpstream({ today: TODAY });
    const { db } = own;
    const fake = upstream;
    const r = fake.rateFor(SEEDED)!;
    await createRatesStore(db).upsert([{ date: SEEDED, buy: r.buy!, sell: r.sell!, source: 'BCCR', fetchedAt: clock() }]);
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
    const d = { db, logger, changes: createLocalChangeFeed(), clock };
    fake.setFault(route, fault);
    const { sources } = fakeSources(fake, 'sdde', policy);
    const { source: ventanilla } = fakeVentanilla(fake, 'sdde', policy);

    const s = startScheduler(d, sources, { cron: null, extraJobs: [(signal) => syncBanking({ ...d, signal }, ventanilla)] });
    await waitFor(async () => (fake.requests.some((q) => q.route === route) ? true : undefined), `a request on ${route}`);
    const running = s.current;
    let settled = false;
    void running?.then(() => {
      settled = true;
    });

    await s.stop();
    expect(running).not.toBeNull();
    expect(settled).toBe(true);
    expect(s.current).toBeNull();
    const runs = (await createSyncRunsStore(db).recent(10)).reverse();
    expect(runs.at(-1)).toMatchObject({ status: 'failed', error: expect.stringMatching(/aborted/) });
    // The abort ended the job: nothing ran after it (no Hacienda fallback, no window quotes).
    expect(fake.requests.at(-1)?.route).toBe(route);
    expect(fake.requests.map((q) => q.route)).not.toContain('hacienda');
    // A shutdown is no error to alert on.
    expect(lines.map((line) => (JSON.parse(line) as { level: number }).level)).not.toContain(pino.levels.values.error);

    // As the server goes on: it closes the database, says "stopped", and the upstream goes away.
    const logged = lines.length;
    await own.drop();
    own = null;
    await fake.close();
    upstream = null;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(lines.slice(logged)).toEqual([]);
  });
});
