/**
 * `npm run sync -- --banking` as an operator runs it: a child process configured by its
 * environment and aimed at the fake upstream (site API, no token), spawned asynchronously because
 * the fake lives in this process and must keep answering while the child waits on it.
 */
import { addDays } from '../../../shared/dates';
import type { Database } from '../../../server/store/database';
import { createSyncRunsStore } from '../../../server/store/sync-runs';
import type { FakeUpstream } from '../../../server/demo/bccr-upstream';
import { createCliFixture, runCli, type CliFixture } from '../../helpers/cli';
import { SYNTHETIC_UNKNOWN_INSTITUTION, syntheticVentanilla } from '../../../server/demo/synthetic-history';
import { daysOf, snapshotBanking } from '../../helpers/sync';

let fixture: CliFixture;
let fake: FakeUpstream;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  fixture = await createCliFixture('sync-banking-cli');
  ({ fake, env } = fixture);
});
afterAll(() => fixture.close());

const runSync = (args: readonly string[], environment: NodeJS.ProcessEnv) => runCli('sync', args, environment);
const withStoredData = <T>(read: (db: Database) => Promise<T>) => fixture.withStoredData(read);

const stored = () =>
  withStoredData(async (db) => ({
    banking: await snapshotBanking(db),
    runs: (await createSyncRunsStore(db).recent(50)).reverse().map((r) => [r.kind, r.source, r.status, r.spanFrom, r.spanTo, r.inserted, r.updated]),
  }));

/** What the fake serves for `days`, as stored values: both sides quoted (the N/D one left out). */
function fakeQuotes(days: readonly string[]): Array<{ date: string; buy: number; sell: number }> {
  return days
    .flatMap((date) => fake.ventanillaFor(date).flatMap((r) => (r.buy !== null && r.sell !== null ? [{ date, buy: r.buy, sell: r.sell }] : [])))
    .sort((a, b) => (a.date !== b.date ? (a.date < b.date ? -1 : 1) : a.buy - b.buy || a.sell - b.sell));
}
function storedQuotes(rows: ReadonlyArray<{ date: string; buy: number; sell: number }>): Array<{ date: string; buy: number; sell: number }> {
  return rows
    .map(({ date, buy, sell }) => ({ date, buy, sell }))
    .sort((a, b) => (a.date !== b.date ? (a.date < b.date ? -1 : 1) : a.buy - b.buy || a.sell - b.sell));
}

// Three child processes, each opening the database and migrating it: slow on a busy machine.
it('--banking: 1 with nothing stored on a faulty window route; alone, the last 7 days with exit 0 and a summary line', async () => {
  const today = fake.today;
  const span = { from: addDays(today, -4), to: addDays(today, -1) };
  const spanArgs = ['--from', span.from, '--to', span.to, '--banking'];
  const week = daysOf(addDays(today, -6), today);

  // 1. The window route answers an HTML page: the official series is stored, the window quotes are not.
  fake.setFault('ventanillaSite', 'html');
  const failed = await runSync(spanArgs, env);
  expect(failed.stdout).toContain(`ok     bccr-site ${span.from}..${span.to}: 4 new`);
  expect(failed.stdout).toMatch(new RegExp(`FAILED window quotes bccr-site ${span.from}\\.\\.${span.to}: .*HTML.*\\(nothing of this run was stored\\)`));
  expect(failed.stderr).toMatch(
    new RegExp(
      `^exit 1: window quotes bccr-site ${span.from}\\.\\.${span.to} could not be fetched or parsed \\(.*HTML.*\\); nothing of that run was stored$`,
      'm',
    ),
  );
  expect(failed.code).toBe(1);
  let after = await stored();
  expect(after.banking).toEqual({ rates: [], institutions: [] });
  expect(after.runs).toEqual([
    ['official', 'bccr-site', 'succeeded', span.from, span.to, 4, 0],
    ['banking', 'bccr-site', 'failed', span.from, span.to, 0, 0],
  ]);

  // 2. --banking alone, once the route answers: the official catch-up, then the window quotes of
  //    the last 7 days (today included), exit 0 and one summary line for them.
  fake.setFault('ventanillaSite', null);
  const good = await runSync(['--banking'], env);
  expect(good.stderr).toContain(`fetched ${week[0]}..${today} (1/1 of ${week[0]}..${today})`);
  expect(good.stdout).toContain(`ok     window quotes bccr-site ${week[0]}..${today}: 77 new, 0 updated, 0 rejected, 0 days without quotes`);
  expect(good.stdout).toContain(`not in the catalog (stored anyway): ${SYNTHETIC_UNKNOWN_INSTITUTION}`);
  expect(good.stderr).not.toMatch(/^exit /m);
  expect(good.code).toBe(0);
  after = await stored();
  expect(storedQuotes(after.banking.rates)).toEqual(fakeQuotes(week));
  expect(after.banking.rates.every((r) => r.source === 'bccr-site')).toBe(true);
  expect(after.banking.institutions.find((i) => i.name === SYNTHETIC_UNKNOWN_INSTITUTION)).toMatchObject({ known: false, type: 'exchange_house' });
  expect(after.runs.at(-1)).toEqual(['banking', 'bccr-site', 'succeeded', week[0], today, 77, 0]);

  // 3. --banking alone again: every quote of the week would now change, but the window route's
  //    answer cannot be read.
  const beforeFault = after;
  fake.setVentanilla((date) =>
    syntheticVentanilla(date).map((r) => ({ ...r, buy: r.buy === null ? null : r.buy + 1, sell: r.sell === null ? null : r.sell + 1 })),
  );
  fake.setFault('ventanillaSite', 'truncated');
  const broken = await runSync(['--banking'], env);
  expect(broken.stdout).toMatch(new RegExp(`FAILED window quotes bccr-site ${week[0]}\\.\\.${today}: .*truncated.*\\(nothing of this run was stored\\)`));
  // The official catch-up of that run succeeded: the exit code is the window quotes' failure.
  expect(broken.stdout).toMatch(/^ok {5}bccr-site \d{4}-\d{2}-\d{2}\.\.\d{4}-\d{2}-\d{2}: /m);
  expect(broken.stdout).not.toMatch(/^FAILED bccr-site/m);
  expect(broken.stderr).toMatch(/^exit 1: window quotes bccr-site .* could not be fetched or parsed \(.*truncated.*\)/m);
  expect(broken.code).toBe(1);
  after = await stored();
  expect(after.banking).toEqual(beforeFault.banking);
  expect(after.runs.at(-1)).toEqual(['banking', 'bccr-site', 'failed', week[0], today, 0, 0]);
}, 90_000);

it('--banking: 2 when window quotes fail the sanity checks (the valid days stored), 0 with days without quotes', async () => {
  fake.setFault('ventanillaSite', null);
  fake.setVentanilla(null);
  const today = fake.today;
  const span = { from: addDays(today, -20), to: addDays(today, -17) };
  const inSpan = <T extends { date: string }>(rows: readonly T[]): T[] => rows.filter((r) => r.date >= span.from && r.date <= span.to);

  // One request a day on the site API: the first two days' answers are absurd.
  fake.setFault('ventanillaSite', { kind: 'outOfBounds', times: 2 });
  const rejected = await runSync(['--from', span.from, '--to', span.to, '--banking'], env);
  const [first, second] = daysOf(span.from, span.to);
  expect(rejected.stderr).toMatch(
    new RegExp(
      `^exit 2: window quotes bccr-site ${span.from}\\.\\.${span.to}: \\d+ quotes failed the sanity checks and were not stored, on ${first}, ${second}; the valid ones were stored$`,
      'm',
    ),
  );
  expect(rejected.code).toBe(2);
  expect(storedQuotes(inSpan((await stored()).banking.rates))).toEqual(fakeQuotes(daysOf(addDays(span.from, 2), span.to)));

  // A past day the central bank gathered no quotes for is no fault: the window quotes promise no
  // snapshot every calendar day (the official series of that day is there all the same).
  fake.setVentanilla((date) => (date === first ? null : undefined));
  const gap = await runSync(['--from', span.from, '--to', span.to, '--banking'], env);
  expect(gap.stdout).toMatch(
    new RegExp(`^ok {5}window quotes bccr-site ${span.from}\\.\\.${span.to}: \\d+ new, 0 updated, 0 rejected, 1 days without quotes$`, 'm'),
  );
  expect(gap.stderr).not.toMatch(/^exit /m);
  expect(gap.code).toBe(0);
}, 60_000);
