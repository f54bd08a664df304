/**
 * The run every sync shares (`runSync`), on a definition of its own that stores official rates:
 * the span fetched in chunks with progress, the past gaps counted, rows and the run's record
 * written together, the change told after the commit; and a failure anywhere, upstream or in the
 * middle of the writes, leaves nothing stored, records the failed run and logs it one way.
 */
import pino from 'pino';
import { addDays } from '../../../shared/dates';
import { createLocalChangeFeed } from '../../../server/changes';
import { type Checked, runSync, type SyncDefinition, type SyncDeps } from '../../../server/jobs/sync-run';
import { UpstreamError } from '../../../server/sources/types';
import { createRatesStore, type RateInput } from '../../../server/store/rates';
import { createSyncRunsStore } from '../../../server/store/sync-runs';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import { clearTables, noonInCostaRica, snapshotRates } from '../../helpers/sync';

interface Line {
  level: number;
  msg: string;
  [field: string]: unknown;
}

interface Day {
  date: string;
  value: number;
}

interface CheckedDays extends Checked {
  rows: RateInput[];
}

const TODAY = '2025-03-10';
/** Eight days through tomorrow, fetched in chunks of three: three requests. */
const SPAN = { from: addDays(TODAY, -6), to: addDays(TODAY, 1) };
const DOWN = 'test-upstream: HTTP 503 from http://127.0.0.1:9/rates: Service Unavailable';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());
beforeEach(() => clearTables(database.db));

/** Dependencies on a pinned clock, with every log line kept and every told change counted. */
function harness(signal?: AbortSignal): { deps: SyncDeps; lines: Line[]; told: { rates: number } } {
  const lines: Line[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => void lines.push(JSON.parse(line) as Line) });
  const changes = createLocalChangeFeed();
  const told = { rates: 0 };
  changes.onRatesChanged(() => told.rates++);
  const deps: SyncDeps = { db: database.db, logger, changes, clock: () => noonInCostaRica(TODAY), ...(signal ? { signal } : {}) };
  return { deps, lines, told };
}

/**
 * A sync of rates whose upstream answers `days` (a day with a value of 0 is refused by the check),
 * recording what the skeleton asked of it. `fail` makes the numbered chunk's request fail, or the
 * store fail after it wrote its rows.
 */
function definition(days: readonly Day[], fail: { chunk?: number; store?: boolean; warns?: boolean } = {}) {
  const asked: Array<[string, string]> = [];
  const events: string[] = [];
  const sync: SyncDefinition<Day, CheckedDays> = {
    kind: 'official',
    source: 'test-upstream',
    label: 'test sync',
    warnsOnFailure: fail.warns ?? true,
    maxChunkDays: 3,
    async fetchChunk(from, to) {
      asked.push([from, to]);
      if (asked.length === fail.chunk) throw new UpstreamError(DOWN, { source: 'test-upstream', kind: 'http', status: 503, retryable: true });
      return days.filter((d) => d.date >= from && d.date <= to);
    },
    check(answer, { fetchedAt }) {
      const accepted = answer.filter((d) => d.value > 0);
      return {
        rows: accepted.map((d) => ({ date: d.date, buy: d.value, sell: d.value + 10, source: 'BCCR', fetchedAt })),
        rejected: answer.filter((d) => d.value <= 0).map((d) => ({ date: d.date, reason: 'not positive' })),
        present: new Set(answer.map((d) => d.date)),
      };
    },
    report(checks) {
      events.push(`report ${checks.rejected.length}`);
    },
    async store(checks, trx) {
      const counts = await createRatesStore(trx).upsert(checks.rows);
      events.push(`store ${checks.rows.length}`);
      if (fail.store) throw new Error('the disk is full');
      return counts;
    },
    async announce(checks, summary) {
      // After the commit: what the run stored is visible outside its transaction.
      const visible = await createRatesStore(database.db).range(SPAN.from, SPAN.to);
      events.push(`announce ${checks.rows.length} ${summary.inserted} visible ${visible.length}`);
    },
  };
  return { sync, asked, events };
}

const day = (offset: number, value = 500 + offset): Day => ({ date: addDays(TODAY, offset), value });

it('fetches the span in chunks with progress, stores the rows with the run, counts past gaps only, and tells the change after the commit', async () => {
  const { deps, lines, told } = harness();
  // Today-6 and today-3 absent, today-4 refused, tomorrow (not yet published) absent.
  const { sync, asked, events } = definition([day(-5), day(-4, 0), day(-2), day(-1), day(0)]);
  const progress: unknown[] = [];

  const outcome = await runSync(deps, sync, SPAN, (...args) => progress.push(args));

  expect(asked).toEqual([
    [addDays(TODAY, -6), addDays(TODAY, -4)],
    [addDays(TODAY, -3), addDays(TODAY, -1)],
    [TODAY, addDays(TODAY, 1)],
  ]);
  expect(progress).toEqual(asked.map((chunk, i) => [i + 1, 3, chunk]));
  expect(outcome.summary).toEqual({
    status: 'succeeded',
    source: 'test-upstream',
    ...SPAN,
    inserted: 4,
    updated: 0,
    rejected: [{ date: addDays(TODAY, -4), reason: 'not positive' }],
    missing: [addDays(TODAY, -6), addDays(TODAY, -3)],
  });
  expect(events).toEqual(['report 1', 'store 4', 'announce 4 4 visible 4']);
  expect((await snapshotRates(database.db)).map((r) => r.date)).toEqual([-5, -2, -1, 0].map((n) => addDays(TODAY, n)));
  expect(await createSyncRunsStore(database.db).latest('official', 5)).toEqual([
    expect.objectContaining({ status: 'succeeded', source: 'test-upstream', inserted: 4, updated: 0, rejected: 1, missing: 2, error: null }),
  ]);
  expect(told.rates).toBe(1);
  expect(lines.filter((l) => l.level >= pino.levels.values.warn)).toEqual([]);

  // The same answer again changes nothing: no change is told, though the kind still announces.
  const again = await runSync(harness().deps, definition([day(-5), day(-4, 0), day(-2), day(-1), day(0)]).sync, SPAN);
  expect(again.summary).toMatchObject({ status: 'succeeded', inserted: 0, updated: 0 });
  expect(told.rates).toBe(1);
});

it('fails on a chunk that cannot be fetched: nothing stored, the run recorded as failed, one warning line and the stack at debug', async () => {
  const { deps, lines, told } = harness();
  const { sync, asked, events } = definition([day(-5), day(-1), day(0)], { chunk: 2 });

  const outcome = await runSync(deps, sync, SPAN);

  expect(asked).toHaveLength(2);
  expect(outcome).toEqual({
    summary: { status: 'failed', source: 'test-upstream', ...SPAN, inserted: 0, updated: 0, rejected: [], missing: [], error: DOWN },
    checks: null,
  });
  expect(events).toEqual([]);
  expect(await snapshotRates(database.db)).toEqual([]);
  expect(await createSyncRunsStore(database.db).latest('official', 5)).toEqual([
    expect.objectContaining({ status: 'failed', inserted: 0, updated: 0, rejected: 0, missing: 0, error: DOWN }),
  ]);
  expect(told.rates).toBe(0);
  expect(lines.map((l) => [l.level, l.msg])).toEqual([
    [pino.levels.values.warn, 'test sync failed; stored data left as it was'],
    [pino.levels.values.debug, 'test sync failed: details'],
  ]);
  expect(lines[0]).toMatchObject({ source: 'test-upstream', ...SPAN, error: DOWN });
  expect(JSON.stringify(lines[0])).not.toContain('"stack"');
  expect((lines[1]?.err as { stack?: string } | undefined)?.stack).toContain(DOWN);
});

it('keeps a failure to debug, stack and all, for a kind whose callers report it', async () => {
  const { deps, lines } = harness();
  await runSync(deps, definition([day(0)], { chunk: 1, warns: false }).sync, SPAN);
  expect(lines.map((l) => [l.level, l.msg, (l.err as { message?: string } | undefined)?.message])).toEqual([
    [pino.levels.values.debug, 'test sync failed; stored data left as it was', DOWN],
  ]);
});

it('rolls back what the store wrote when it fails in the middle of the transaction', async () => {
  const { deps, lines, told } = harness();
  const { sync, events } = definition([day(-2), day(-1), day(0)], { store: true });

  const outcome = await runSync(deps, sync, SPAN);

  // The rows were written inside the transaction, then undone with it.
  expect(events).toEqual(['report 0', 'store 3']);
  expect(outcome.summary).toMatchObject({ status: 'failed', inserted: 0, updated: 0, error: 'the disk is full' });
  expect(await snapshotRates(database.db)).toEqual([]);
  expect(await createSyncRunsStore(database.db).latest('official', 5)).toEqual([expect.objectContaining({ status: 'failed', error: 'the disk is full' })]);
  expect(told.rates).toBe(0);
  expect(lines.filter((l) => l.level >= pino.levels.values.warn).map((l) => l.msg)).toEqual(['test sync failed; stored data left as it was']);
});

it('says a run stopped by a shutdown stopped, and no more', async () => {
  const stopping = new AbortController();
  const { deps, lines } = harness(stopping.signal);
  const { sync } = definition([day(0)]);
  const aborting: typeof sync = {
    ...sync,
    async fetchChunk() {
      stopping.abort();
      throw new UpstreamError('test-upstream: aborted', { source: 'test-upstream', kind: 'aborted', retryable: false });
    },
  };

  const outcome = await runSync(deps, aborting, SPAN);

  expect(outcome.summary).toMatchObject({ status: 'failed', error: 'test-upstream: aborted' });
  expect(lines.map((l) => [l.level, l.msg])).toEqual([[pino.levels.values.warn, 'test sync stopped by a shutdown; stored data left as it was']]);
  expect(await createSyncRunsStore(database.db).latest('official', 5)).toEqual([expect.objectContaining({ status: 'failed' })]);
});
