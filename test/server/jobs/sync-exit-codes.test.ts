/**
 * The exit codes of `npm run sync`, one fault of the fake upstream at a time, each run as an
 * operator runs it (a child process against the fake and a database of this file's own):
 * 1 an answer could not be fetched or parsed, 2 rows were rejected by the sanity checks, 3 past
 * days still have no stored rate, 0 otherwise; the reason is on stderr.
 */
import { addDays } from '../../../shared/dates';
import { withAdvisoryLock, LOCKS } from '../../../server/store/locks';
import { createRatesStore } from '../../../server/store/rates';
import { syntheticRate } from '../../../server/demo/synthetic-history';
import type { FakeUpstream } from '../../../server/demo/bccr-upstream';
import { createCliFixture, runCli, type CliFixture } from '../../helpers/cli';
import { daysOf } from '../../helpers/sync';

let fixture: CliFixture;
let fake: FakeUpstream;

beforeAll(async () => {
  fixture = await createCliFixture('sync-exit-codes');
  fake = fixture.fake;
});
afterAll(() => fixture.close());
afterEach(() => {
  fake.setFault('site', null);
  fake.setRates(null);
});

// Each test starts a child that compiles, opens and migrates the database: seconds, not millis.
jest.setTimeout(60_000);

const sync = (from: string, to: string) => runCli('sync', ['--from', from, '--to', to], fixture.env);
const storedDays = (from: string, to: string) =>
  fixture.withStoredData(async (db) => (await createRatesStore(db).range(from, to)).map(({ date, buy, sell, source }) => ({ date, buy, sell, source })));
const asStored = (days: readonly string[]) => days.map((date) => ({ date, ...syntheticRate(date), source: 'BCCR' }));
/** The lines that give the exit code's reason (stderr also carries the progress). */
const reasons = (stderr: string) => stderr.split('\n').filter((line) => line.startsWith('exit '));

it.each([
  ['an answer that cannot be parsed', 'html', /HTML/],
  ['a network failure', 'reset', /network error/],
] as const)('exits 1 for %s, with nothing of the run stored', async (_name, fault, detail) => {
  const span = { from: '2025-01-01', to: '2025-01-31' };
  fake.setFault('site', fault);
  const result = await sync(span.from, span.to);

  expect(reasons(result.stderr)).toEqual([expect.stringMatching(/^exit 1: bccr-site 2025-01-01\.\.2025-01-31 could not be fetched or parsed \(/)]);
  expect(result.stderr).toMatch(detail);
  expect(result.stderr).toContain('nothing of that run was stored');
  expect(result.code).toBe(1);
  expect(await storedDays(span.from, span.to)).toEqual([]);
});

it('exits 2 when rows fail the sanity checks: those are not stored, the valid ones are', async () => {
  // Two chunks of the site API (90 days, then 2): only the first answer is absurd.
  const span = { from: '2025-03-01', to: '2025-05-31' };
  fake.setFault('site', { kind: 'outOfBounds', times: 1 });
  const result = await sync(span.from, span.to);

  expect(reasons(result.stderr)).toEqual([
    expect.stringMatching(
      /^exit 2: bccr-site 2025-03-01\.\.2025-05-31: 90 rows failed the sanity checks and were not stored, on 2025-03-01, .* \(90 days\); the valid ones were stored$/,
    ),
  ]);
  expect(result.code).toBe(2);
  expect(await storedDays(span.from, span.to)).toEqual(asStored(['2025-05-30', '2025-05-31']));
});

describe('days the upstream has no data for', () => {
  const span = { from: '2025-07-01', to: '2025-07-10' };
  const gaps = ['2025-07-04', '2025-07-05'];

  it('exits 3 for past days still without a stored rate, having stored what came', async () => {
    fake.setRates((date) => (gaps.includes(date) ? null : undefined));
    const result = await sync(span.from, span.to);

    expect(reasons(result.stderr)).toEqual(['exit 3: 2 days before today still have no stored rate: 2025-07-04, 2025-07-05']);
    expect(result.code).toBe(3);
    expect(await storedDays(span.from, span.to)).toEqual(asStored(daysOf(span.from, span.to).filter((d) => !gaps.includes(d))));
  });

  it('exits 3 naming only the days not stored when the upstream answers "no data" for the whole span', async () => {
    fake.setFault('site', 'empty');
    const result = await sync(span.from, span.to);

    expect(result.stdout).toContain('ok     bccr-site 2025-07-01..2025-07-10: 0 new, 0 updated, 0 rejected, 10 days without a value');
    expect(reasons(result.stderr)).toEqual(['exit 3: 2 days before today still have no stored rate: 2025-07-04, 2025-07-05']);
    expect(result.code).toBe(3);
  });

  it('exits 0 when the upstream answers "no data" for days already stored: nothing changes', async () => {
    const stored = { from: '2025-07-06', to: '2025-07-10' };
    const before = await storedDays(stored.from, stored.to);
    fake.setFault('site', 'empty');
    const result = await sync(stored.from, stored.to);

    expect(reasons(result.stderr)).toEqual([]);
    expect(result.code).toBe(0);
    expect(await storedDays(stored.from, stored.to)).toEqual(before);
    expect(before).toEqual(asStored(daysOf(stored.from, stored.to)));
  });
});

it("exits 0 when today's rate is not published yet, by the central bank or Hacienda", async () => {
  const today = fake.today;
  const span = { from: addDays(today, -2), to: today };
  fake.setRates((date) => (date === today ? null : undefined));
  const result = await sync(span.from, span.to);

  // Both were asked: the central bank for the span, Hacienda for today.
  expect(result.stdout).toContain(`ok     bccr-site ${span.from}..${today}: 2 new, 0 updated, 0 rejected, 1 days without a value`);
  expect(result.stdout).toContain(`ok     hacienda ${today}..${today}: 0 new, 0 updated, 0 rejected, 1 days without a value`);
  expect(reasons(result.stderr)).toEqual([]);
  expect(result.code).toBe(0);
  expect(await storedDays(span.from, today)).toEqual(asStored([span.from, addDays(today, -1)]));
});

// The lock is held from this process through the test's own PostgreSQL database: the embedded
// one gives this process no second session to hold it from while the child runs.
(process.env.DATABASE_URL ? it : it.skip)('exits 1 without syncing while another instance holds the sync lock', async () => {
  const postgres = fixture.postgres;
  if (!postgres) throw new Error('this test needs DATABASE_URL');
  const requests = fake.requests.length;
  const held = await withAdvisoryLock(postgres.db, LOCKS.officialSync, () => sync('2025-09-01', '2025-09-30'));
  if (!held.acquired) throw new Error('the test could not take the sync lock');

  expect(reasons(held.value.stderr)).toEqual(['exit 1: another instance is syncing the official series right now; nothing done']);
  expect(held.value.code).toBe(1);
  expect(fake.requests).toHaveLength(requests);
});

describe('--currencies', () => {
  afterEach(() => fake.setCross(null));

  it('needs BCCR_TOKEN, and says so with exit 2 before anything is fetched', async () => {
    const result = await runCli('sync', ['--currencies'], fixture.env);
    expect(result.stderr).toContain('--currencies needs BCCR_TOKEN');
    expect(result.code).toBe(2);
  });

  it('reads every currency of the span with the token: 0 when all is stored, 2 when a value is refused', async () => {
    const env = { ...fixture.env, BCCR_TOKEN: fake.token };
    const span = { from: addDays(fake.today, -9), to: addDays(fake.today, -3) };
    const good = await runCli('sync', ['--from', span.from, '--to', span.to, '--currencies'], env);
    expect(good.stdout).toMatch(new RegExp(`^ok     bccr-sdde EUR ${span.from}\\.\\.${span.to}: 5 new, 0 updated, 0 rejected`, 'm'));
    expect(good.stdout).toMatch(new RegExp(`^ok     bccr-sdde VND ${span.from}\\.\\.${span.to}: 5 new`, 'm'));
    expect(reasons(good.stderr)).toEqual([]);
    expect(good.code).toBe(0);

    const refused = addDays(span.from, 1);
    fake.setCross((code, date) => (code === 'EUR' && date === refused ? 1165.3 : undefined));
    const bad = await runCli('sync', ['--from', span.from, '--to', span.to, '--currencies'], env);
    expect(reasons(bad.stderr)).toEqual([
      `exit 2: bccr-sdde EUR ${span.from}..${span.to}: 1 values failed the sanity checks and were not stored, on ${refused}; the valid ones were stored`,
    ]);
    expect(bad.code).toBe(2);
  });
});

describe('--monex', () => {
  afterEach(() => fake.setMonex(null));

  it('needs BCCR_TOKEN, and says so with exit 2 before anything is fetched', async () => {
    const result = await runCli('sync', ['--monex'], fixture.env);
    expect(result.stderr).toContain('--monex needs BCCR_TOKEN');
    expect(result.code).toBe(2);
  });

  it('reads MONEX of the span with the token: 0 when all is stored, 2 when a day is refused, 1 when it cannot be read', async () => {
    const env = { ...fixture.env, BCCR_TOKEN: fake.token };
    const span = { from: addDays(fake.today, -9), to: addDays(fake.today, -3) };
    const good = await runCli('sync', ['--from', span.from, '--to', span.to, '--monex'], env);
    expect(good.stdout).toMatch(new RegExp(`^ok     bccr-sdde MONEX ${span.from}\\.\\.${span.to}: \\d+ new, 0 updated, 0 rejected`, 'm'));
    expect(reasons(good.stderr)).toEqual([]);
    expect(good.code).toBe(0);

    // A partial zero on the first business day of the span.
    const refused = daysOf(span.from, span.to).find((d) => fake.monexFor(d) !== null) as string;
    fake.setMonex((date) => (date === refused ? { average: 0, min: 480, max: 485, volume: 10 } : undefined));
    const bad = await runCli('sync', ['--from', span.from, '--to', span.to, '--monex'], env);
    expect(reasons(bad.stderr)).toEqual([
      `exit 2: bccr-sdde MONEX ${span.from}..${span.to}: 1 MONEX days failed the sanity checks and were not stored, on ${refused}; the valid ones were stored`,
    ]);
    expect(bad.code).toBe(2);

    fake.setFault('sdde', 'html');
    try {
      const failed = await runCli('sync', ['--from', span.from, '--to', span.to, '--monex'], env);
      expect(failed.code).toBe(1);
      expect(reasons(failed.stderr).some((r) => r.startsWith(`exit 1: bccr-sdde MONEX ${span.from}..${span.to} could not be fetched or parsed`))).toBe(true);
    } finally {
      fake.setFault('sdde', null);
    }
  });
});
