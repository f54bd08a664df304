/**
 * `npm run demo` as a user runs it: the compiled entry in a real process, with its own simulated
 * central bank as the only upstream. It prints a key, a curl line and the command that makes more
 * keys on it, logs no warning about its own sample data, serves the whole simulated
 * history labelled `DEMO` with the pages' "demo data" badge, and on SIGTERM stops with code 0 and
 * deletes its data. The database settings of the shell are set to places that would fail or show
 * a trace if the demo used them: it must not.
 */
import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { syntheticRate } from '../../../server/demo/synthetic-history';
import { calendarDay } from '../../../shared/dates';

const ROOT = path.resolve(__dirname, '../../..');
/** Compiling, opening the embedded database and syncing 44 years: seconds, more on a busy machine. */
const START_TIMEOUT_MS = 80_000;

const BANNER = /curl -H "x-api-key: (crc_live_[\w-]+)" (http:\/\/localhost:\d+)\/api\/v1\/exchange-rate\/latest\n\s+data\s+(\S+) .*\n\s+more keys (.+)\n/;

/** Everything the child printed on stdout so far, and a wait for a pattern in it. */
function collect(child: ChildProcessWithoutNullStreams) {
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  return {
    output: () => out,
    waitFor(pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray> {
      return new Promise((resolve, reject) => {
        const started = Date.now();
        const poll = () => {
          const match = pattern.exec(out);
          if (match) resolve(match);
          else if (child.exitCode !== null) reject(new Error(`the demo exited with ${child.exitCode}:\n${out}`));
          else if (Date.now() - started > timeoutMs) reject(new Error(`no ${pattern} within ${timeoutMs} ms:\n${out}`));
          else setTimeout(poll, 100);
        };
        poll();
      });
    },
  };
}

interface Rate {
  date: string;
  buy: number;
  sell: number;
  source: string;
}

describe('npm run demo', () => {
  let decoyDir: string;

  beforeAll(() => {
    decoyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'crc-demo-decoy-'));
  });
  afterAll(() => {
    fs.rmSync(decoyDir, { recursive: true, force: true });
  });

  it('prints a working key, serves DEMO data with the badge, and stops cleanly on SIGTERM', async () => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: '0',
      // Nothing listens on port 1: a demo that used this URL would fail to start.
      DATABASE_URL: 'postgres://postgres@127.0.0.1:1/not_the_demo',
      DATA_DIR: decoyDir,
    };
    delete env.LOG_LEVEL;
    const todayBefore = calendarDay(new Date());
    // As package.json's demo script runs it: compiled, then run in the same process.
    const child = spawn(process.execPath, ['scripts/run.mjs', 'demo'], { cwd: ROOT, env });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const stdout = collect(child);
    try {
      const [, key, url, dataDir, keysCommand] = (await stdout.waitFor(BANNER, START_TIMEOUT_MS)) as unknown as [string, string, string, string, string];
      const todayAfter = calendarDay(new Date());
      expect(fs.readdirSync(dataDir)).toContain('crc-rates.lock');
      const api = (route: string, headers: Record<string, string> = { 'x-api-key': key }) => fetch(`${url}/api/v1${route}`, { headers });

      const latest = await api('/exchange-rate/latest');
      expect(latest.status).toBe(200);
      const { data } = (await latest.json()) as { data: Rate };
      expect([todayBefore, todayAfter]).toContain(data.date);
      expect({ buy: data.buy, sell: data.sell, source: data.source }).toEqual({ ...syntheticRate(data.date), source: 'DEMO' });

      // The whole history came with the first sync, every day of it labelled DEMO.
      const year = (await (await api('/exchange-rate/range?from=1983-01-01&to=1983-12-31')).json()) as { data: Rate[] };
      expect(year.data).toHaveLength(365);
      expect(new Set(year.data.map((r) => r.source))).toEqual(new Set(['DEMO']));
      expect(year.data[0]).toMatchObject({ date: '1983-01-01', ...syntheticRate('1983-01-01') });

      expect((await api('/exchange-rate/latest', {})).status).toBe(401);
      expect((await api('/exchange-rate/latest', { 'x-api-key': 'crc_live_notAKeyTheDemoMade' })).status).toBe(401);

      const health = (await (await api('/health', {})).json()) as { data: { status: string; latestDate: string } };
      expect(health.data).toMatchObject({ status: 'ok', latestDate: data.date });

      // The command the banner prints for more keys, pasted into this same shell (whose
      // DATABASE_URL and DATA_DIR point elsewhere), makes a key the running demo accepts.
      const made = spawnSync('sh', ['-c', keysCommand], { cwd: ROOT, env, encoding: 'utf8' });
      expect({ status: made.status, stderr: made.stderr }).toMatchObject({ status: 0 });
      const madeKey = /crc_live_[\w-]+/.exec(made.stdout)?.[0];
      expect(madeKey).toBeDefined();
      expect(madeKey).not.toBe(key);
      expect((await api('/exchange-rate/latest', { 'x-api-key': madeKey ?? '' })).status).toBe(200);

      // The demo's own sample bank is one the catalog knows: no warning about its institutions.
      expect(stdout.output()).not.toContain('the catalog does not list');

      for (const page of ['/en', '/es/widget']) {
        const res = await fetch(`${url}${page}`);
        expect(res.status).toBe(200);
        expect(await res.text()).toContain('data-demo');
      }

      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(stdout.output()).toContain('crc-rates demo: stopped, its data deleted\n');
      expect(fs.existsSync(dataDir)).toBe(false);
      expect(fs.readdirSync(decoyDir)).toEqual([]);
    } finally {
      if (child.exitCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
    }
  }, 100_000);
});
