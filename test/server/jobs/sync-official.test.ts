/**
 * One sync over a span through the fake upstream, on both routes of the central bank: what a good
 * answer stores, that every kind of bad answer leaves the stored series exactly as it was,
 * idempotence, corrections, the primary winning over the Hacienda fallback, and what /health
 * then says (`lastSyncAt` is the end of the last successful sync; `degraded` once the latest
 * official date is more than 3 days before today).
 */
import { addDays } from '../../../shared/dates';
import type { ExchangeRate } from '../../../shared/types';
import { catchUpOfficial } from '../../../server/jobs/catch-up';
import { syncOfficialSpan } from '../../../server/jobs/sync-official-span';
import type { RequestPolicy } from '../../../server/sources/http';
import { createRatesStore, type RateInput } from '../../../server/store/rates';
import { createSyncRunsStore } from '../../../server/store/sync-runs';
import { startFakeUpstream, type Fault, type FakeRoute, type FakeUpstream } from '../../../server/demo/bccr-upstream';
import { startTestApp } from '../../helpers/app';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import { clearTables, createTestKey, daysOf, fakeSources, fakeValues, noonInCostaRica, PRIMARY_ROUTES, snapshotRates, syncDeps } from '../../helpers/sync';

const TODAY = '2026-11-20';
const clock = () => noonInCostaRica(TODAY);
/** A year that ends yesterday: the Hacienda fallback (today only) stays out of it. */
const YEAR = { from: addDays(TODAY, -365), to: addDays(TODAY, -1) };
/** 200 past days: one request on the token API, three 90-day chunks on the site API. */
const SPAN = { from: '2026-04-01', to: '2026-10-17' };
const SPAN_DAYS = daysOf(SPAN.from, SPAN.to);
const ALL_ROUTES: FakeRoute[] = ['sdde', 'siteToken', 'site', 'hacienda'];

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
  for (const route of ALL_ROUTES) fake.setFault(route, null);
  fake.setRates(null);
  fake.requests.length = 0;
});

const deps = () => syncDeps(database.db, clock);
const rates = () => createRatesStore(database.db);
const lastRun = async () => (await createSyncRunsStore(database.db).recent(1))[0];
const storedValues = async (from: string, to: string) => (await rates().range(from, to)).map(({ date, buy, sell }) => ({ date, buy, sell }));
const row = (date: string, buy: number, sell: number, source: RateInput['source'] = 'BCCR'): RateInput => ({
  date,
  buy,
  sell,
  source,
  fetchedAt: new Date('2026-01-01T00:00:00.000Z'),
});

/**
 * Rows already stored in and around SPAN that a successful sync would change: every third day a
 * BCCR value one colón off the fake's, every seventh a Hacienda row, and neighbours outside.
 */
async function seedRowsTheFakeWouldChange(): Promise<void> {
  const seeded: RateInput[] = [];
  for (const [i, date] of [addDays(SPAN.from, -1), ...SPAN_DAYS, addDays(SPAN.to, 1)].entries()) {
    const r = fake.rateFor(date)!;
    if (i % 7 === 0) seeded.push(row(date, r.buy! + 0.5, r.sell! + 0.5, 'Hacienda'));
    else if (i % 3 === 0) seeded.push(row(date, r.buy! + 1, r.sell! + 1));
  }
  await rates().upsert(seeded);
}

interface FaultCase {
  name: string;
  fault: Fault;
  error: RegExp;
  policy?: RequestPolicy;
  /** Requests the data route gets when the failure is retryable: the first one plus every retry. */
  attempts?: number;
  delays?: (delays: number[]) => void;
}

const FAULTS: FaultCase[] = [
  { name: '401', fault: '401', error: /HTTP 401/ },
  { name: 'a 400 CodigoError body', fault: '400', error: /HTTP 400.*CodigoError/ },
  {
    name: '429 without Retry-After, persisting past the retries',
    fault: '429',
    error: /HTTP 429.*gave up after 3 attempts/,
    attempts: 3,
    // Its own backoff, far shorter than the Retry-After of the next case.
    delays: (d) => expect(d.every((ms) => ms < 1000)).toBe(true),
  },
  {
    name: '429 with Retry-After, persisting past the retries',
    fault: { kind: '429', retryAfter: '2' },
    error: /HTTP 429.*gave up after 3 attempts/,
    policy: { maxDelayMs: 5000 },
    attempts: 3,
    delays: (d) => expect(d).toEqual([2000, 2000]),
  },
  { name: '500', fault: '500', error: /HTTP 500.*gave up after 3 attempts/, attempts: 3 },
  { name: 'an HTML page instead of JSON', fault: 'html', error: /HTML/ },
  { name: 'a truncated body', fault: 'truncated', error: /not valid JSON \(truncated\?\)/ },
  {
    name: 'a hang past the timeout',
    fault: 'hang',
    error: /no answer .* within 500 ms.*gave up after 2 attempts/,
    policy: { timeoutMs: 500, retries: 1 },
    attempts: 2,
  },
  { name: 'estado:false', fault: 'estadoFalse', error: /estado false|unexpected shape/ },
];

describe.each(PRIMARY_ROUTES)('official sync through %s', (_label, route) => {
  it('stores exactly the fake’s values as BCCR, and /range then returns every day', async () => {
    const { sources } = fakeSources(fake, route);
    const result = await catchUpOfficial(deps(), sources, YEAR);

    expect(result).toMatchObject({ ran: true, ok: true });
    expect(result.runs).toHaveLength(1);
    expect(result.runs[0]).toMatchObject({ status: 'succeeded', source: `bccr-${route}`, inserted: 365, updated: 0, rejected: [], missing: [] });
    const days = daysOf(YEAR.from, YEAR.to);
    expect(await storedValues(YEAR.from, YEAR.to)).toEqual(fakeValues(fake, days));
    expect(await database.db('exchange_rates').whereNot({ source: 'BCCR' }).count({ n: '*' })).toEqual([{ n: 0 }]);
    expect(await lastRun()).toMatchObject({ status: 'succeeded', kind: 'official', spanFrom: YEAR.from, spanTo: YEAR.to, inserted: 365, error: null });

    // The token goes only where it belongs: the site route never sends one.
    const dataRequests = fake.requests.filter((r) => r.route === 'sdde' || r.route === 'site');
    expect(new Set(dataRequests.map((r) => r.route))).toEqual(new Set([route]));
    for (const r of dataRequests) expect(r.headers.authorization).toBe(route === 'sdde' ? `Bearer ${fake.token}` : undefined);

    const app = await startTestApp({ database, clock });
    try {
      const { status, body } = await app.get(`/exchange-rate/range?from=${YEAR.from}&to=${YEAR.to}`, await createTestKey(database.db));
      expect(status).toBe(200);
      const records = body.data as ExchangeRate[];
      expect(records.map((r) => r.date)).toEqual(days);
      expect(records.map(({ date, buy, sell }) => ({ date, buy, sell }))).toEqual(fakeValues(fake, days));
      expect(records.every((r) => r.source === 'BCCR')).toBe(true);
    } finally {
      await app.close();
    }
  });

  describe('a bad answer fails the run and not a single stored row changes', () => {
    it.each(FAULTS)('$name', async ({ fault, error, policy, attempts, delays: checkDelays }) => {
      await seedRowsTheFakeWouldChange();
      const before = await snapshotRates(database.db);
      expect(before.length).toBeGreaterThan(50);
      fake.setFault(route, fault);
      const { sources, delays } = fakeSources(fake, route, policy);

      const result = await catchUpOfficial(deps(), sources, SPAN);

      expect(result).toMatchObject({ ran: true, ok: false });
      expect(result.runs).toHaveLength(1);
      const [summary] = result.runs;
      expect(summary).toMatchObject({ status: 'failed', inserted: 0, updated: 0 });
      expect(summary!.error).toMatch(error);
      expect(await snapshotRates(database.db)).toEqual(before);
      expect(await lastRun()).toMatchObject({
        status: 'failed',
        spanFrom: SPAN.from,
        spanTo: SPAN.to,
        error: summary!.error,
        finishedAt: expect.any(String),
        inserted: 0,
        updated: 0,
      });
      if (attempts !== undefined) expect(fake.requests.filter((r) => r.route === route)).toHaveLength(attempts);
      checkDelays?.(delays);
    });
  });

  it('takes an empty answer as valid: nothing stored, every day listed as missing, the run succeeds', async () => {
    await seedRowsTheFakeWouldChange();
    const before = await snapshotRates(database.db);
    fake.setFault(route, 'empty');
    const { sources } = fakeSources(fake, route);

    const result = await catchUpOfficial(deps(), sources, SPAN);

    expect(result).toMatchObject({ ran: true, ok: true });
    expect(result.runs[0]).toMatchObject({ status: 'succeeded', inserted: 0, updated: 0, rejected: [], missing: SPAN_DAYS });
    expect(await snapshotRates(database.db)).toEqual(before);
    expect(await lastRun()).toMatchObject({ status: 'succeeded', inserted: 0, updated: 0, missing: SPAN_DAYS.length, error: null });
  });

  it('rejects every row of an answer out of bounds, with reasons, and changes nothing', async () => {
    await seedRowsTheFakeWouldChange();
    const before = await snapshotRates(database.db);
    fake.setFault(route, 'outOfBounds');
    const { sources } = fakeSources(fake, route);

    const result = await catchUpOfficial(deps(), sources, SPAN);

    expect(result.ok).toBe(true);
    const [summary] = result.runs;
    expect(summary).toMatchObject({ status: 'succeeded', inserted: 0, updated: 0, missing: [] });
    expect(summary!.rejected.map((r) => r.date)).toEqual(SPAN_DAYS);
    for (const r of summary!.rejected) expect(r.reason).toMatch(/^buy 5 is outside 100\.\.2000 CRC$|^buy 99999 is above sell 5$/);
    expect(await snapshotRates(database.db)).toEqual(before);
  });

  it('rejects only the rows out of bounds (listed with reasons) and stores the others', async () => {
    await seedRowsTheFakeWouldChange();
    const [tooHigh, inverted, wide] = [SPAN_DAYS[3]!, SPAN_DAYS[14]!, SPAN_DAYS[150]!];
    const bad: Record<string, { buy: number; sell: number }> = {
      [tooHigh]: { buy: 5000, sell: 5010 },
      [inverted]: { buy: 520, sell: 510 },
      [wide]: { buy: 500, sell: 560 },
    };
    fake.setRates((date) => bad[date]);
    const before = new Map((await snapshotRates(database.db)).map((r) => [r.date, r]));
    const { sources } = fakeSources(fake, route);

    const result = await catchUpOfficial(deps(), sources, SPAN);

    expect(result.ok).toBe(true);
    expect(result.runs[0]!.rejected).toEqual([
      { date: tooHigh, reason: 'buy 5000 is outside 100..2000 CRC' },
      { date: inverted, reason: 'buy 520 is above sell 510' },
      { date: wide, reason: 'spread 60.00 is not under 50 CRC' },
    ]);
    const after = new Map((await snapshotRates(database.db)).map((r) => [r.date, r]));
    for (const date of SPAN_DAYS) {
      if (date in bad) {
        // A rejected row is never stored: what was there before stays, absent stays absent.
        expect(after.get(date)).toEqual(before.get(date));
      } else {
        expect(after.get(date)).toMatchObject({ ...fake.rateFor(date), source: 'BCCR' });
      }
    }
  });

  it('is idempotent: a second identical sync inserts 0 and updates 0', async () => {
    const { sources } = fakeSources(fake, route);
    const first = await catchUpOfficial(deps(), sources, YEAR);
    expect(first.runs[0]).toMatchObject({ inserted: 365, updated: 0 });
    const before = await snapshotRates(database.db);

    const second = await catchUpOfficial(deps(), sources, YEAR);

    expect(second).toMatchObject({ ran: true, ok: true });
    expect(second.runs.map((r) => [r.inserted, r.updated])).toEqual([[0, 0]]);
    expect(await snapshotRates(database.db)).toEqual(before);
    expect(await lastRun()).toMatchObject({ status: 'succeeded', inserted: 0, updated: 0 });
  });

  it('picks up a correction within the last 7 days on a catch-up', async () => {
    const { sources } = fakeSources(fake, route);
    await catchUpOfficial(deps(), sources, { from: addDays(TODAY, -30), to: TODAY });
    const [recent, old] = [addDays(TODAY, -3), addDays(TODAY, -20)];
    const was = { recent: fake.rateFor(recent)!, old: fake.rateFor(old)! };
    const corrected = { buy: was.recent.buy! + 1.25, sell: was.recent.sell! + 1.25 };
    fake.setRates((date) => (date === recent ? corrected : date === old ? { buy: 600, sell: 606 } : undefined));

    const result = await catchUpOfficial(deps(), sources);

    expect(result).toMatchObject({ ran: true, ok: true });
    // The catch-up re-reads the week before the last stored day, through tomorrow.
    expect(result.runs).toHaveLength(1);
    expect(result.runs[0]).toMatchObject({ from: addDays(TODAY, -6), to: addDays(TODAY, 1), inserted: 0, updated: 1, missing: [] });
    expect(await rates().byDate(recent)).toMatchObject({ ...corrected, source: 'BCCR' });
    expect(await rates().byDate(old)).toMatchObject({ buy: was.old.buy, sell: was.old.sell });
  });

  it('replaces a Hacienda row for today once the central bank publishes today', async () => {
    const { sources } = fakeSources(fake, route);
    await catchUpOfficial(deps(), sources, { from: addDays(TODAY, -10), to: addDays(TODAY, -1) });
    const hacienda = fake.rateFor(TODAY)!;

    // The central bank cannot be reached: the week is left alone and Hacienda gives today.
    fake.setFault(route, '500');
    const down = await catchUpOfficial(deps(), sources);
    expect(down).toMatchObject({ ran: true, ok: false });
    expect(down.runs.map((r) => [r.source, r.status])).toEqual([
      [`bccr-${route}`, 'failed'],
      ['hacienda', 'succeeded'],
    ]);
    expect(down.runs[1]).toMatchObject({ from: TODAY, to: TODAY, inserted: 1 });
    expect(await rates().byDate(TODAY)).toMatchObject({ buy: hacienda.buy, sell: hacienda.sell, source: 'Hacienda' });

    fake.setFault(route, null);
    const official = { buy: hacienda.buy! + 0.75, sell: hacienda.sell! + 0.75 };
    fake.setRates((date) => (date === TODAY ? official : undefined));
    const up = await catchUpOfficial(deps(), sources);

    expect(up).toMatchObject({ ran: true, ok: true });
    expect(up.runs.map((r) => r.source)).toEqual([`bccr-${route}`]);
    expect(up.runs[0]).toMatchObject({ inserted: 0, updated: 1 });
    expect(await rates().byDate(TODAY)).toMatchObject({ ...official, source: 'BCCR' });
  });

  it('never lets a Hacienda answer replace a BCCR row', async () => {
    const { sources } = fakeSources(fake, route);
    await catchUpOfficial(deps(), sources, { from: addDays(TODAY, -10), to: TODAY });
    const official = await rates().byDate(TODAY);
    expect(official).toMatchObject({ source: 'BCCR' });
    const before = await snapshotRates(database.db);
    fake.setRates((date) => (date === TODAY ? { buy: official!.buy + 3, sell: official!.sell + 3 } : undefined));

    const fallback = await syncOfficialSpan(deps(), sources.fallback, { from: TODAY, to: TODAY });

    expect(fallback).toMatchObject({ status: 'succeeded', source: 'hacienda', inserted: 0, updated: 0 });
    expect(await snapshotRates(database.db)).toEqual(before);
    // And a catch-up does not even ask Hacienda while today has the central bank's value.
    fake.requests.length = 0;
    await catchUpOfficial(deps(), sources);
    expect(fake.requests.filter((r) => r.route === 'hacienda')).toEqual([]);
  });
});

describe('official sync through the site API, several chunks', () => {
  it('stores nothing when a later chunk fails after the first was fetched fine', async () => {
    await seedRowsTheFakeWouldChange();
    const before = await snapshotRates(database.db);
    const { sources } = fakeSources(fake, 'site');
    const fetched: string[] = [];

    const result = await catchUpOfficial(deps(), sources, {
      ...SPAN,
      onProgress: (_run, _done, _total, chunk) => {
        fetched.push(chunk[0]);
        fake.setFault('site', 'truncated');
      },
    });

    expect(fetched).toEqual([SPAN.from]);
    expect(result).toMatchObject({ ran: true, ok: false });
    expect(result.runs[0]!.error).toMatch(/truncated/);
    expect(await snapshotRates(database.db)).toEqual(before);
  });
});

describe('two syncs started together in one process, on one database', () => {
  it('lets exactly one run; the other returns ran:false without waiting', async () => {
    // The first request hangs until the timeout, so the winner holds the lock for a while.
    fake.setFault('sdde', { kind: 'hang', times: 1 });
    const settled: string[] = [];
    const start = async (name: string) => {
      const result = await catchUpOfficial(deps(), fakeSources(fake, 'sdde', { timeoutMs: 1000, retries: 1 }).sources, SPAN);
      settled.push(name);
      return { name, result };
    };

    const both = await Promise.all([start('first'), start('second')]);

    const winner = both.find((b) => b.result.ran);
    const loser = both.find((b) => !b.result.ran);
    expect(loser?.result).toEqual({ ran: false, ok: true, runs: [], unfilled: [] });
    expect(winner?.result).toMatchObject({ ran: true, ok: true });
    expect(settled).toEqual([loser!.name, winner!.name]);
    expect(await createSyncRunsStore(database.db).recent()).toHaveLength(1);
    expect(await rates().range(SPAN.from, SPAN.to)).toHaveLength(SPAN_DAYS.length);
  });
});

describe('/health after syncs', () => {
  /** /health as an app on the same database sees it on `day`. */
  async function healthOn(day: string) {
    const app = await startTestApp({ database, clock: () => noonInCostaRica(day) });
    try {
      const { status, body } = await app.get('/health');
      expect(status).toBe(200);
      return body.data;
    } finally {
      await app.close();
    }
  }

  it('shows lastSyncAt and ok after a successful sync, and degraded once the latest date is over 3 days old', async () => {
    expect(await healthOn(TODAY)).toMatchObject({ status: 'degraded', database: 'up', latestDate: null, lastSyncAt: null });

    const syncedAt = noonInCostaRica(TODAY);
    const { sources } = fakeSources(fake, 'sdde');
    const result = await catchUpOfficial(
      syncDeps(database.db, () => syncedAt),
      sources,
      { from: addDays(TODAY, -30), to: addDays(TODAY, 1) },
    );
    expect(result).toMatchObject({ ran: true, ok: true });

    expect(await healthOn(TODAY)).toMatchObject({ status: 'ok', database: 'up', latestDate: TODAY, lastSyncAt: syncedAt.toISOString() });
    expect(await healthOn(addDays(TODAY, 3))).toMatchObject({ status: 'ok', latestDate: TODAY });
    expect(await healthOn(addDays(TODAY, 4))).toMatchObject({ status: 'degraded', latestDate: TODAY, lastSyncAt: syncedAt.toISOString() });

    // A failed sync later on leaves lastSyncAt at the last one that succeeded.
    fake.setFault('sdde', '500');
    const later = noonInCostaRica(addDays(TODAY, 1));
    const failed = await catchUpOfficial(
      syncDeps(database.db, () => later),
      fakeSources(fake, 'sdde').sources,
      { from: addDays(TODAY, -5), to: addDays(TODAY, -1) },
    );
    expect(failed).toMatchObject({ ran: true, ok: false });
    expect(await healthOn(addDays(TODAY, 1))).toMatchObject({ status: 'ok', lastSyncAt: syncedAt.toISOString() });
  });
});
