/**
 * `npm run sync` as an operator runs it: a child process with its configuration in the
 * environment, aimed at the fake upstream. Spawned asynchronously, because the fake lives in this
 * process and must keep answering while the child waits on it.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createDatabase, type Database } from '../../../server/store/database';
import { createRatesStore } from '../../../server/store/rates';
import { createSyncRunsStore } from '../../../server/store/sync-runs';
import { startFakeUpstream, type FakeUpstream } from '../../fakes/bccr-upstream';
import { syntheticRate } from '../../fakes/synthetic-history';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import { daysOf } from '../../helpers/sync';

const ROOT = path.resolve(__dirname, '../../..');
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');
const SPAN = { from: '2026-01-01', to: '2026-03-31' };
const SPAN_DAYS = daysOf(SPAN.from, SPAN.to);

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
  fake = await startFakeUpstream();
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'crc-sync-cli-'));
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

/** Reads what the CLI stored, once no child process has the embedded database open. */
async function withStoredData<T>(read: (db: Database) => Promise<T>): Promise<T> {
  if (postgres) return read(postgres.db);
  const db = createDatabase({ databaseUrl: null, dataDir });
  try {
    return await read(db);
  } finally {
    await db.destroy();
  }
}

it('exits 0 with a summary for a good span, then non-zero for a faulty upstream with nothing of it stored', async () => {
  const good = await runSync(['--from', SPAN.from, '--to', SPAN.to], env);
  expect(good.stderr).toContain(`fetched ${SPAN.from}..${SPAN.to} (1/1 of ${SPAN.from}..${SPAN.to})`);
  expect(good.stdout).toContain(`ok     bccr-site ${SPAN.from}..${SPAN.to}: 90 new, 0 updated, 0 rejected, 0 days without a value`);
  expect(good.code).toBe(0);

  // Now every value of the span would change, but the answer cannot be read.
  fake.setRates((date) => ({ buy: syntheticRate(date).buy + 1, sell: syntheticRate(date).sell + 1 }));
  fake.setFault('site', 'html');
  const bad = await runSync(['--from', SPAN.from, '--to', SPAN.to], env);
  expect(bad.stdout).toMatch(new RegExp(`FAILED bccr-site ${SPAN.from}\\.\\.${SPAN.to}: .*HTML.*\\(nothing of this run was stored\\)`));
  expect(bad.code).not.toBe(0);
  expect(bad.code).not.toBeNull();

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
