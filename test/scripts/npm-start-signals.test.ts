/**
 * `npm start` under a supervisor (systemd, pm2, a hosting platform): the supervisor signals the
 * process it started, which is npm, not the server. The signal has to reach the server, so that it
 * stops, frees its port and gives the data folder back, rather than living on as an orphan that
 * still answers and still holds the folder. npm passes SIGTERM and SIGINT on; on the signals that
 * kill npm itself (SIGHUP, SIGKILL) the server stops once npm is gone.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { LOCK_FILE, readHolder } from '../../server/store/embedded/claim';
import { SERVER_START_MS, waitForLine } from '../helpers/process';
import { freePort } from '../server/access/support';

const ROOT = path.resolve(__dirname, '../..');
/** A stop takes well under a second; this bound only tells "stopped" from "never stops". */
const STOP_BOUND_MS = 2_000;

/** True when nothing listens on the port (on any address, as the server listens). */
function isFree(port: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => (error.code === 'EADDRINUSE' ? resolve(false) : reject(error)));
    probe.listen(port, () => probe.close(() => resolve(true)));
  });
}

async function stoppedWithin(port: number, lockFile: string, boundMs: number): Promise<boolean> {
  const deadline = Date.now() + boundMs;
  for (;;) {
    if (!fs.existsSync(lockFile) && (await isFree(port))) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** MALLOC_ARENA_MAX as glibc read it when the process started (Linux's record of its environment). */
function arenasOf(pid: number | undefined): string | null {
  if (pid === undefined) return null;
  const environment = fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
  return environment.find((entry) => entry.startsWith('MALLOC_ARENA_MAX='))?.slice('MALLOC_ARENA_MAX='.length) ?? null;
}

describe('npm start, signalled through npm', () => {
  let dataDir: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'crc-npm-start-'));
    // Nothing listens there: the background catch-up fails at once, and nothing leaves the machine.
    const nowhere = `http://127.0.0.1:${await freePort()}`;
    const { DATABASE_URL: _db, REDIS_URL: _redis, BCCR_TOKEN: _token, MALLOC_ARENA_MAX: _arenas, ...inherited } = process.env;
    env = {
      ...inherited,
      DATA_DIR: dataDir,
      SYNC_CRON: 'off',
      LOG_LEVEL: 'info',
      BCCR_API_URL: nowhere,
      BCCR_SITE_API_URL: nowhere,
      HACIENDA_URL: nowhere,
    };
  });
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it.each(['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGKILL'] as const)(
    'stops the server on %s sent to the npm process: the port is free and the claim gone',
    async (signal) => {
      const port = await freePort();
      const npm: ChildProcessWithoutNullStreams = spawn('npm', ['start'], { cwd: ROOT, env: { ...env, PORT: String(port) } });
      npm.stderr.resume();
      const exited = new Promise<number | null>((resolve) => npm.once('exit', (code) => resolve(code)));
      try {
        await waitForLine(npm, /"msg":"listening"/, SERVER_START_MS);
        expect((await fetch(`http://127.0.0.1:${port}/livez`)).status).toBe(200);
        expect(fs.existsSync(path.join(dataDir, LOCK_FILE))).toBe(true);
        expect(arenasOf(readHolder(dataDir)?.pid)).toBe('2');

        npm.kill(signal);
        expect(await stoppedWithin(port, path.join(dataDir, LOCK_FILE), STOP_BOUND_MS)).toBe(true);
        // npm passes these on and reports the server's own exit code: a graceful stop.
        if (signal === 'SIGTERM' || signal === 'SIGINT') expect(await exited).toBe(0);
      } finally {
        if (npm.exitCode === null) npm.kill('SIGKILL');
        // A server the signal missed lives on as an orphan: the claim names it.
        const orphan = readHolder(dataDir);
        if (orphan) process.kill(orphan.pid, 'SIGKILL');
      }
    },
    SERVER_START_MS + 30_000,
  );

  it(
    "keeps the operator's own number of allocator arenas",
    async () => {
      const port = await freePort();
      const npm = spawn('npm', ['start'], { cwd: ROOT, env: { ...env, PORT: String(port), MALLOC_ARENA_MAX: '4' } });
      npm.stderr.resume();
      try {
        await waitForLine(npm, /"msg":"listening"/, SERVER_START_MS);
        expect(arenasOf(readHolder(dataDir)?.pid)).toBe('4');
      } finally {
        npm.kill('SIGTERM');
        expect(await stoppedWithin(port, path.join(dataDir, LOCK_FILE), STOP_BOUND_MS)).toBe(true);
      }
    },
    SERVER_START_MS + 30_000,
  );
});

it('runs every operator command the same way: npm starts node itself, with no shell between to swallow a signal', () => {
  const { scripts } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const operatorCommands = Object.entries(scripts).filter(([, line]) => line.includes('scripts/run.mjs'));
  expect(operatorCommands.map(([name]) => name).sort()).toEqual(['demo', 'keys', 'mcp', 'start', 'sync', 'webhooks']);
  for (const [name, line] of operatorCommands) {
    // The servers with glibc's arenas as the Dockerfile sets them (scripts/run.mjs says why).
    const arenas = /^MALLOC_ARENA_MAX=\$\{MALLOC_ARENA_MAX:-2\} /.exec(line)?.[0] ?? '';
    expect({ name, arenas: arenas !== '' }).toEqual({ name, arenas: name === 'start' || name === 'demo' });
    expect(line.slice(arenas.length)).toBe(`exec node scripts/run.mjs ${name === 'start' ? 'main' : name}`);
  }
});
