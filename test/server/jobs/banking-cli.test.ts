/**
 * `npm run sync -- --banking` as an operator runs it: a child process configured by its
 * environment and aimed at the fake upstream (site API, no token), spawned asynchronously because
 * the fake lives in this process and must keep answering while the child waits on it.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { addDays } from '../../../shared/dates';
import { createDatabase, type Database } from '../../../server/store/database';
import { createSyncRunsStore } from '../../../server/store/sync-runs';
import { startFakeUpstream, type FakeUpstream } from '../../fakes/bccr-upstream';
import { SYNTHETIC_UNKNOWN_INSTITUTION, syntheticVentanilla } from '../../fakes/synthetic-history';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import { daysOf, snapshotBanking } from '../../helpers/sync';

const ROOT = path.resolve(__dirname, '../../..');
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runSync(args: readonly string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(TSX, ['server/cli/sync.ts', ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

let fake: FakeUpstream;
let dataDir: string;
/** A private PostgreSQL database when DATABASE_URL is set; otherwise the CLI's embedded one under dataDir. */
let postgres: TestDatabase | null = null;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  // The child's "today" is the real one, so the fake's is too.
  fake = await startFakeUpstream();
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'crc-sync-banking-cli-'));
  if (process.env.DATABASE_URL) postgres = await createTestDatabase();
  const { DATABASE_URL: _db, REDIS_URL: _redis, BCCR_TOKEN: _token, ...inherited } = process.env;
  env = {
    ...inherited,
    ...(postgres?.url ? { DATABASE_URL: postgres.url } : {}),
    DATA_DIR: dataDir,
    BCCR_API_URL: fake.sddeUrl,
    BCCR_SITE_API_URL: fake.siteUrl,
    HACIENDA_URL: fake.haciendaUrl,
    LOG_LEVEL: 'warn',
  };
});
afterAll(async () => {
  await fake.close();
  await postgres?.drop();
  await rm(dataDir, { recursive: true, force: true });
});

/**
 * Reads what the CLI stored, between runs, once no child process has the embedded database open.
 * Opening the embedded files claims them for this process until it exits (a pid file); the claim
 * is given back here as the exit handler would, so that the next child may open them.
 */
async function withStoredData<T>(read: (db: Database) => Promise<T>): Promise<T> {
  if (postgres) return read(postgres.db);
  const db = createDatabase({ databaseUrl: null, dataDir });
  try {
    return await read(db);
  } finally {
    await db.destroy();
    const pidFile = path.join(dataDir, 'crc-rates.pid');
    if ((await readFile(pidFile, 'utf8').catch(() => '')) === String(process.pid)) await rm(pidFile);
  }
}

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
  return rows.map(({ date, buy, sell }) => ({ date, buy, sell })).sort((a, b) => (a.date !== b.date ? (a.date < b.date ? -1 : 1) : a.buy - b.buy || a.sell - b.sell));
}

// Three child processes, each opening the database and migrating it: slow on a busy machine.
it('--banking: non-zero with nothing stored on a faulty window route; alone, the last 7 days with exit 0 and a summary line', async () => {
  const today = fake.today;
  const span = { from: addDays(today, -4), to: addDays(today, -1) };
  const spanArgs = ['--from', span.from, '--to', span.to, '--banking'];
  const week = daysOf(addDays(today, -6), today);

  // 1. The window route answers an HTML page: the official series is stored, the window quotes are not.
  fake.setFault('ventanillaSite', 'html');
  const failed = await runSync(spanArgs, env);
  expect(failed.stdout).toContain(`ok     bccr-site ${span.from}..${span.to}: 4 new`);
  expect(failed.stdout).toMatch(new RegExp(`FAILED window quotes bccr-site ${span.from}\\.\\.${span.to}: .*HTML.*\\(nothing of this run was stored\\)`));
  expect(failed.code).not.toBe(0);
  expect(failed.code).not.toBeNull();
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
  expect(good.code).toBe(0);
  after = await stored();
  expect(storedQuotes(after.banking.rates)).toEqual(fakeQuotes(week));
  expect(after.banking.rates.every((r) => r.source === 'bccr-site')).toBe(true);
  expect(after.banking.institutions.find((i) => i.name === SYNTHETIC_UNKNOWN_INSTITUTION)).toMatchObject({ known: false, type: 'exchange_house' });
  expect(after.runs.at(-1)).toEqual(['banking', 'bccr-site', 'succeeded', week[0], today, 77, 0]);

  // 3. --banking alone again: every quote of the week would now change, but the window route's
  //    answer cannot be read.
  const beforeFault = after;
  fake.setVentanilla((date) => syntheticVentanilla(date).map((r) => ({ ...r, buy: r.buy === null ? null : r.buy + 1, sell: r.sell === null ? null : r.sell + 1 })));
  fake.setFault('ventanillaSite', 'truncated');
  const broken = await runSync(['--banking'], env);
  expect(broken.stdout).toMatch(new RegExp(`FAILED window quotes bccr-site ${week[0]}\\.\\.${today}: .*truncated.*\\(nothing of this run was stored\\)`));
  // The official catch-up of that run succeeded: the exit code is the window quotes' failure.
  expect(broken.stdout).toMatch(/^ok {5}bccr-site \d{4}-\d{2}-\d{2}\.\.\d{4}-\d{2}-\d{2}: /m);
  expect(broken.stdout).not.toMatch(/^FAILED bccr-site/m);
  expect(broken.code).not.toBe(0);
  expect(broken.code).not.toBeNull();
  after = await stored();
  expect(after.banking).toEqual(beforeFault.banking);
  expect(after.runs.at(-1)).toEqual(['banking', 'bccr-site', 'failed', week[0], today, 0, 0]);
}, 90_000);
