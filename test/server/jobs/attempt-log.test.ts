/**
 * What the scheduler logs when the upstream cannot be reached (a closed local port, as without a
 * network): one line per failed attempt of the official sync, with the error's message, the
 * source, the attempt and the next retry, and one for the window quotes; no stack trace unless
 * the level is debug. The pending retry is also what `nextAttemptAt()` says.
 */
import pino from 'pino';
import { createLocalChangeFeed } from '../../../server/changes';
import { startScheduler, type Scheduler } from '../../../server/jobs/scheduler';
import { syncBanking } from '../../../server/jobs/sync-banking';
import { createOfficialSources } from '../../../server/sources';
import { SITE_TOKEN_PATH } from '../../../server/sources/bccr-site';
import { HACIENDA_PATH } from '../../../server/sources/hacienda';
import { createVentanillaSource } from '../../../server/sources/ventanilla';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import { clearTables, waitFor } from '../../helpers/sync';
import { freePort } from '../access/support';

interface Line {
  level: number;
  msg: string;
  [field: string]: unknown;
}

let database: TestDatabase;
let base: string;
let port: number;
let scheduler: Scheduler | null = null;

beforeAll(async () => {
  database = await createTestDatabase();
  // Nothing listens there: every request is refused at once.
  port = await freePort();
  base = `http://127.0.0.1:${port}`;
});
afterAll(() => database.drop());
beforeEach(() => clearTables(database.db));
afterEach(async () => {
  await scheduler?.stop();
  scheduler = null;
});

/** A scheduler on the unreachable upstream, logging at `level`, with the window quotes riding along as in the server. */
function start(level: pino.Level, retryDelaysMs: number[], cron: string | null = null): { lines: Line[]; s: Scheduler } {
  const lines: Line[] = [];
  const logger = pino({ level }, { write: (line: string) => void lines.push(JSON.parse(line) as Line) });
  const policy = { retries: 0, timeoutMs: 5000 };
  const sources = createOfficialSources({ bccrApiUrl: base, bccrSiteApiUrl: base, haciendaUrl: base, ...policy });
  const ventanilla = createVentanillaSource({ bccrApiUrl: base, bccrSiteApiUrl: base, ...policy });
  const deps = { db: database.db, logger, changes: createLocalChangeFeed(), clock: () => new Date() };
  const s = startScheduler(deps, sources, { cron, retryDelaysMs, extraJobs: [(signal) => syncBanking({ ...deps, signal }, ventanilla)] });
  scheduler = s;
  return { lines, s };
}

const refused = (source: string, path: string) => `${source}: network error on ${base}${path}: fetch failed: connect ECONNREFUSED 127.0.0.1:${port}`;

it('logs one line per failed attempt, without stack traces, and plans the retry it names', async () => {
  const before = Date.now();
  const { lines, s } = start('info', [60_000]);
  const attempt = await waitFor(async () => lines.find((l) => l.msg.startsWith('sync attempt failed')), 'the failed attempt');

  expect(attempt).toEqual({
    level: pino.levels.values.warn,
    time: expect.any(Number),
    pid: expect.any(Number),
    hostname: expect.any(String),
    msg: 'sync attempt failed; retrying',
    source: 'bccr-site',
    error: refused('bccr-site', SITE_TOKEN_PATH),
    fallback: { source: 'hacienda', error: refused('hacienda', HACIENDA_PATH) },
    attempt: 1,
    nextRetryAt: expect.any(String),
  });
  // The first retry waits 60 s with jitter: between half of it and all of it.
  const retryAt = Date.parse(attempt.nextRetryAt as string);
  expect(retryAt).toBeGreaterThanOrEqual(before + 30_000);
  expect(retryAt).toBeLessThanOrEqual(Date.now() + 60_000);
  expect(s.nextAttemptAt()?.toISOString()).toBe(attempt.nextRetryAt);

  // Besides it, the window quotes' one line; nothing else at info level or above, and no stack.
  expect(lines.map((l) => [l.level, l.msg])).toEqual([
    [pino.levels.values.warn, 'window sync failed; stored data left as it was'],
    [pino.levels.values.warn, 'sync attempt failed; retrying'],
  ]);
  expect(lines[0]).toMatchObject({ source: 'bccr-site', error: refused('bccr-site', SITE_TOKEN_PATH) });
  for (const line of lines) {
    // A stack trace is a "stack" field, its lines joined by escaped line breaks.
    expect(JSON.stringify(line)).not.toMatch(/"stack"|\\n\s+at /);
    expect(JSON.stringify(line).length).toBeLessThan(1000);
  }

  await s.stop();
  expect(s.nextAttemptAt()).toBeNull();
});

it('says when no retry is left, and when the next scheduled run is', async () => {
  // Every day at 12:00 in Costa Rica (UTC−6, no daylight saving time): 18:00 UTC.
  const now = new Date();
  const todayAtNoon = Date.parse(`${now.toISOString().slice(0, 10)}T18:00:00.000Z`);
  const nextNoon = new Date(todayAtNoon > now.getTime() ? todayAtNoon : todayAtNoon + 86_400_000).toISOString();
  const { lines, s } = start('info', [], '0 12 * * *');
  const attempt = await waitFor(async () => lines.find((l) => l.msg.startsWith('sync attempt failed')), 'the failed attempt');
  expect(attempt).toMatchObject({
    level: pino.levels.values.error,
    msg: 'sync attempt failed; no retry left',
    source: 'bccr-site',
    attempt: 1,
    nextRetryAt: null,
    nextScheduledAt: nextNoon,
  });
  expect(s.nextAttemptAt()?.toISOString()).toBe(nextNoon);
});

it('plans nothing without a schedule once no retry is left', async () => {
  const { lines, s } = start('info', []);
  const attempt = await waitFor(async () => lines.find((l) => l.msg.startsWith('sync attempt failed')), 'the failed attempt');
  expect(attempt).toMatchObject({ nextRetryAt: null, nextScheduledAt: null });
  expect(s.nextAttemptAt()).toBeNull();
});

it('keeps the stack traces for the debug level', async () => {
  const { lines } = start('debug', [60_000]);
  await waitFor(async () => lines.find((l) => l.msg.startsWith('sync attempt failed')), 'the failed attempt');
  const detailed = lines.filter((l) => (l.err as { stack?: string } | undefined)?.stack?.includes('\n    at '));
  expect(detailed.map((l) => [l.level, l.msg, l.source])).toEqual([
    [pino.levels.values.debug, 'sync run failed; stored data left as it was', 'bccr-site'],
    [pino.levels.values.debug, 'sync run failed; stored data left as it was', 'hacienda'],
    [pino.levels.values.debug, 'window sync failed: details', 'bccr-site'],
  ]);
});
