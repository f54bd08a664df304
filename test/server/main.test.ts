/**
 * `npm start` as a user runs it: the compiled server in a real process, on the embedded database in an empty folder,
 * syncing from the (fake) central bank in the background, answering /api/v1/health, and stopping
 * cleanly on SIGTERM.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startFakeUpstream, type FakeUpstream } from '../../server/demo/bccr-upstream';
import { waitForLine } from '../helpers/process';

const ROOT = path.resolve(__dirname, '../..');

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
    try {
      const listening = JSON.parse(await waitForLine(child, /"msg":"listening"/, 30_000)) as { port: number };
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
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  }, 90_000);
});
