/**
 * `npm run sync` as an operator runs it: a child process with its configuration in the
 * environment, aimed at the fake upstream. Spawned asynchronously, because the fake lives in this
 * process and must keep answering while the child waits on it.
 */
import type { Database } from '../../../server/store/database';
import { createRatesStore } from '../../../server/store/rates';
import { createSyncRunsStore } from '../../../server/store/sync-runs';
import type { FakeUpstream } from '../../../server/demo/bccr-upstream';
import { createCliFixture, runCli, type CliFixture } from '../../helpers/cli';
import { syntheticRate } from '../../../server/demo/synthetic-history';
import { daysOf } from '../../helpers/sync';

const SPAN = { from: '2026-01-01', to: '2026-03-31' };
const SPAN_DAYS = daysOf(SPAN.from, SPAN.to);

let fixture: CliFixture;
let fake: FakeUpstream;
let env: NodeJS.ProcessEnv;

// Each test runs the command as a child process, some several times: seconds each, and more
// while the other test worker keeps the machine's two cores busy.
jest.setTimeout(120_000);
beforeAll(async () => {
  fixture = await createCliFixture('sync-cli');
  ({ fake, env } = fixture);
});
afterAll(() => fixture.close());

const runSync = (args: readonly string[], environment: NodeJS.ProcessEnv) => runCli('sync', args, environment);
const withStoredData = <T>(read: (db: Database) => Promise<T>) => fixture.withStoredData(read);

it('exits 0 with a summary for a good span, then 1 for a faulty upstream with nothing of it stored', async () => {
  const good = await runSync(['--from', SPAN.from, '--to', SPAN.to], env);
  expect(good.stderr).toContain(`fetched ${SPAN.from}..${SPAN.to} (1/1 of ${SPAN.from}..${SPAN.to})`);
  expect(good.stdout).toContain(`ok     bccr-site ${SPAN.from}..${SPAN.to}: 90 new, 0 updated, 0 rejected, 0 days without a value`);
  expect(good.stderr).not.toMatch(/^exit /m);
  expect(good.code).toBe(0);

  // Now every value of the span would change, but the answer cannot be read.
  fake.setRates((date) => ({ buy: syntheticRate(date).buy + 1, sell: syntheticRate(date).sell + 1 }));
  fake.setFault('site', 'html');
  const bad = await runSync(['--from', SPAN.from, '--to', SPAN.to], env);
  expect(bad.stdout).toMatch(new RegExp(`FAILED bccr-site ${SPAN.from}\\.\\.${SPAN.to}: .*HTML.*\\(nothing of this run was stored\\)`));
  expect(bad.stderr).toMatch(
    new RegExp(`^exit 1: bccr-site ${SPAN.from}\\.\\.${SPAN.to} could not be fetched or parsed \\(.*HTML.*\\); nothing of that run was stored$`, 'm'),
  );
  expect(bad.code).toBe(1);

  const { stored, runs } = await withStoredData(async (db) => ({
    stored: await createRatesStore(db).range('1983-01-01', '2100-01-01'),
    runs: await createSyncRunsStore(db).recent(),
  }));
  expect(stored.map(({ date, buy, sell, source }) => ({ date, buy, sell, source }))).toEqual(
    SPAN_DAYS.map((date) => ({ date, ...syntheticRate(date), source: 'BCCR' })),
  );
  expect(runs.map((r) => [r.source, r.status, r.inserted])).toEqual([
    ['bccr-site', 'failed', 0],
    ['bccr-site', 'succeeded', 90],
  ]);
});

it.each([
  ['a --from that is no calendar day', ['--from', '2026-02-30'], /--from must be a calendar date as YYYY-MM-DD \(got "2026-02-30"\)/],
  ['--from after --to', ['--from', '2026-03-01', '--to', '2026-02-01'], /--from must not be after --to/],
  ['an unknown option', ['--since', '2026-03-01'], /since/],
])('exits 2 for %s', async (_name, args, message) => {
  const requests = fake.requests.length;
  const result = await runSync(args, env);
  expect(result.stderr).toMatch(message);
  expect(result.code).toBe(2);
  expect(fake.requests).toHaveLength(requests);
});
