/**
 * `npm start` as a user runs it: the compiled server in a real process, on the embedded database in an empty folder,
 * syncing from the (fake) central bank in the background, answering /api/v1/health, and stopping
 * cleanly on SIGTERM. And the first hour without a network: with the upstream unreachable, health
 * and every data route say why there is no data, and each failed attempt is one log line.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startFakeUpstream, type FakeUpstream } from '../../server/demo/bccr-upstream';
import { SITE_TOKEN_PATH } from '../../server/sources/bccr-site';
import { HACIENDA_PATH } from '../../server/sources/hacienda';
import { runCli } from '../helpers/cli';
import { freePort } from './access/support';
import { createTestDatabase, type TestDatabase } from '../helpers/database';
import { SERVER_START_MS, stopChild, waitForLine } from '../helpers/process';

const ROOT = path.resolve(__dirname, '../..');
// Each test's bound: the server's start, then up to two minutes of its work. It only catches a hang.
jest.setTimeout(SERVER_START_MS + 120_000);

describe('npm start', () => {
  let fake: FakeUpstream;
  let dataDir: string;

  beforeAll(async () => {
    fake = await startFakeUpstream();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'crc-start-'));
  });
  afterAll(async () => {
    await fake.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves health on the embedded database, fills itself, and stops on SIGTERM', async () => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: '0',
      DATA_DIR: dataDir,
      SYNC_CRON: 'off',
      BCCR_SITE_API_URL: fake.siteUrl,
      HACIENDA_URL: fake.haciendaUrl,
    };
    delete env.DATABASE_URL;
    delete env.REDIS_URL;
    // As package.json's start script runs it: compiled, then run in the same process, so SIGTERM reaches the server itself.
    const child = spawn(process.execPath, ['scripts/run.mjs', 'main'], { cwd: ROOT, env });
    let exitCode: number | null;
    try {
      const listening = JSON.parse(await waitForLine(child, /"msg":"listening"/, SERVER_START_MS)) as { port: number };
      const base = `http://127.0.0.1:${listening.port}/api/v1`;
      const health = await fetch(`${base}/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ success: true, data: { database: 'up', version: expect.any(String) } });

      // The background catch-up brings the whole history from the fake central bank.
      let latestDate: string | null = null;
      for (let i = 0; i < 120 && latestDate !== fake.today; i++) {
        const body = (await (await fetch(`${base}/health`)).json()) as { data: { latestDate: string | null } };
        latestDate = body.data.latestDate;
        if (latestDate !== fake.today) await new Promise((r) => setTimeout(r, 500));
      }
      expect(latestDate).toBe(fake.today);
    } finally {
      // Stopped whatever happened, but judged only after the body passed, so that a failure above
      // is the one reported (a server stopped before it set its handlers exits by the signal).
      exitCode = await stopChild(child);
    }
    expect(exitCode).toBe(0);
  });
});

/** The JSON log lines the child wrote on stdout so far, and a bounded wait for one of them. */
function logOf(child: ChildProcessWithoutNullStreams) {
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  const lines = () =>
    out
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => ({ text: line, json: JSON.parse(line) as Record<string, unknown> & { level: number; msg: string } }));
  return {
    lines,
    async waitFor(msg: string, timeoutMs: number) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = lines().find((line) => line.json.msg === msg);
        if (found) return found.json;
        if (child.exitCode !== null || Date.now() > deadline) throw new Error(`no "${msg}" line within ${timeoutMs} ms:\n${out}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
  };
}

describe('npm start without a reachable upstream', () => {
  let dataDir: string;
  /** A private PostgreSQL database when DATABASE_URL is set; the embedded one otherwise. */
  let postgres: TestDatabase | null = null;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'crc-offline-'));
    if (process.env.DATABASE_URL) postgres = await createTestDatabase();
  });
  afterAll(async () => {
    await postgres?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('says in health and on every data route that the first sync failed and why, and logs one line per failed attempt', async () => {
    // Nothing listens there: every connection is refused at once, as without a network.
    const port = await freePort();
    const upstream = `http://127.0.0.1:${port}`;
    const { DATABASE_URL: _db, REDIS_URL: _redis, BCCR_TOKEN: _token, ...inherited } = process.env;
    const env: NodeJS.ProcessEnv = {
      ...inherited,
      ...(postgres?.url ? { DATABASE_URL: postgres.url } : {}),
      PORT: '0',
      DATA_DIR: dataDir,
      SYNC_CRON: 'off',
      LOG_LEVEL: 'info',
      BCCR_API_URL: upstream,
      BCCR_SITE_API_URL: upstream,
      HACIENDA_URL: upstream,
      // As an operator sets it on PostgreSQL (without it the server warns that it derives one).
      WEBHOOK_SECRET_KEY: 'a webhook sealing key of thirty-two characters or more',
    };
    const child = spawn(process.execPath, ['scripts/run.mjs', 'main'], { cwd: ROOT, env });
    let exitCode: number | null;
    const log = logOf(child);
    try {
      const listening = Number((await log.waitFor('listening', SERVER_START_MS)).port);
      const base = `http://127.0.0.1:${listening}/api/v1`;
      // The upstream's client tries each request 4 times with backoff: seconds, not minutes.
      const attempt = await log.waitFor('sync attempt failed; retrying', 60_000);

      // Each source's error, as the sources word it: the address, the cause, the tries.
      const refused = (source: string, url: string) =>
        `${source}: network error on ${upstream}${url}: fetch failed: connect ECONNREFUSED 127.0.0.1:${port} (gave up after 4 attempts)`;
      const error = `${refused('bccr-site', SITE_TOKEN_PATH)}; ${refused('hacienda', HACIENDA_PATH)}`;
      expect(attempt).toMatchObject({
        level: 40,
        source: 'bccr-site',
        error: refused('bccr-site', SITE_TOKEN_PATH),
        fallback: { source: 'hacienda', error: refused('hacienda', HACIENDA_PATH) },
        attempt: 1,
        nextRetryAt: expect.any(String),
      });

      const health = await fetch(`${base}/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({
        success: true,
        data: {
          status: 'degraded',
          // Without BCCR_TOKEN, also the notes that the other currencies and MONEX need one.
          reasons: [
            `no rate stored yet: the last sync failed: ${error}`,
            'other currencies than USD need BCCR_TOKEN: their cross rates come only from the central bank’s SDDE API',
            'MONEX sessions and the market calendar need BCCR_TOKEN: cuadro 219 comes only from the central bank’s SDDE API',
          ],
          database: 'up',
          latestDate: null,
          lastSyncAt: null,
          sync: { state: 'failed', error, finishedAt: expect.any(String), nextAttemptAt: attempt.nextRetryAt },
          version: expect.any(String),
          uptimeSeconds: expect.any(Number),
        },
      });

      // A key, as the README says to make one: through the running server's database.
      const created = await runCli('keys', ['create', '--name', 'first hour', '--plan', 'pro', '--json'], env);
      expect([created.code, created.stderr]).toEqual([0, '']);
      const { key } = JSON.parse(created.stdout) as { key: string };
      // The API client learns that the sync failed; where and why (addresses, error codes) is the operator's, above.
      const message = 'No exchange rate has been stored yet: the last sync failed; the operator has been told; see /api/v1/health';
      for (const route of [
        '/exchange-rate/latest',
        '/exchange-rate?date=2025-01-15',
        '/exchange-rate/history?days=7',
        '/exchange-rate/chart',
        '/convert?amount=100',
        '/insights',
      ]) {
        const answer = await fetch(`${base}${route}`, { headers: { Authorization: `Bearer ${key}` } });
        expect([route, answer.status, await answer.json()]).toEqual([route, 404, { success: false, message, error: 'NOT_FOUND' }]);
      }

      // What the operator read meanwhile: one line for the failed attempt, one for the window
      // quotes and one for Hacienda's euro, nothing else at warn or above, and no stack trace anywhere.
      const lines = log.lines();
      expect(lines.filter((line) => line.json.level >= 40).map((line) => line.json.msg)).toEqual([
        'window sync failed; stored data left as it was',
        'provisional euro sync failed; stored data left as it was',
        'sync attempt failed; retrying',
      ]);
      for (const line of lines) {
        expect([line.json.msg, /"stack"|\\n\s+at /.test(line.text), line.text.length < 1000]).toEqual([line.json.msg, false, true]);
      }
    } finally {
      // Stopped whatever happened, but judged only after the body passed, so that a failure above
      // is the one reported (a server stopped before it set its handlers exits by the signal).
      exitCode = await stopChild(child);
    }
    expect(exitCode).toBe(0);
  });
});
