/**
 * `npm run keys` while `npm start` runs on the embedded database: the server shares its database
 * on a socket in the data folder, and the command connects to it instead of opening the files (a
 * second PGlite on them could corrupt them). Real processes, as an operator runs them.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { commandLine } from '../../helpers/commands';
import { SERVER_START_MS, stopChild, waitForLine } from '../../helpers/process';

const ROOT = path.resolve(__dirname, '../../..');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** `npm run <args>` as an operator types it: scripts/run.mjs compiles the entry, then runs it. */
function run(args: readonly string[], env: NodeJS.ProcessEnv): Promise<Run> {
  return runLine([process.execPath, 'scripts/run.mjs', ...args], env);
}

/** `npm run keys <args>` on the bundle compiled once for the whole test run: the same code without the compile. */
function runKeys(args: readonly string[], env: NodeJS.ProcessEnv): Promise<Run> {
  return runLine(commandLine('keys', args), env);
}

function runLine([executable, ...args]: readonly [string, ...string[]], env: NodeJS.ProcessEnv): Promise<Run> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(executable, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, ms: performance.now() - started }));
  });
}

async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

interface CreatedKey {
  id: number;
  key: string;
}

describe('the embedded database shared by a running server', () => {
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  let server: ChildProcessWithoutNullStreams;
  let base: string;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'crc-shared-'));
    // Upstreams that refuse at once: the background catch-up fails fast and writes nothing.
    const nowhere = `http://127.0.0.1:${await closedPort()}`;
    const { DATABASE_URL: _db, REDIS_URL: _redis, BCCR_TOKEN: _token, ...inherited } = process.env;
    env = {
      ...inherited,
      DATA_DIR: dataDir,
      PORT: '0',
      SYNC_CRON: 'off',
      BCCR_API_URL: nowhere,
      BCCR_SITE_API_URL: nowhere,
      HACIENDA_URL: nowhere,
    };
    server = spawn(process.execPath, ['scripts/run.mjs', 'main'], { cwd: ROOT, env: { ...env, LOG_LEVEL: 'info' } });
    server.stderr.resume();
    const listening = JSON.parse(await waitForLine(server, /"msg":"listening"/, SERVER_START_MS)) as { port: number };
    base = `http://127.0.0.1:${listening.port}/api/v1`;
  }, SERVER_START_MS + 10_000);

  afterAll(async () => {
    await stopChild(server, 'SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs `keys create` 20 times while the server keeps answering, and the keys work on it at once', async () => {
    const health: number[] = [];
    let polling = true;
    const poller = (async () => {
      while (polling) {
        health.push((await fetch(`${base}/health`)).status);
        // Once a second: an address without a key may make 60 requests a minute, the rest of this file included.
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    })();

    const created: CreatedKey[] = [];
    try {
      for (let i = 0; i < 20; i++) {
        const result = await runKeys(['create', '--name', `t${i}`, '--plan', 'pro', '--json'], env);
        expect({ i, code: result.code, stderr: result.stderr }).toEqual({ i, code: 0, stderr: '' });
        created.push(JSON.parse(result.stdout) as CreatedKey);
      }
      // A few at once, as typed (each compiles into a folder of its own): each waits for the
      // others' statements, none sees another's half-done work.
      const together = await Promise.all([0, 1, 2, 3].map((i) => run(['keys', 'create', '--name', `together${i}`, '--plan', 'pro', '--json'], env)));
      for (const result of together) {
        expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
        created.push(JSON.parse(result.stdout) as CreatedKey);
      }
    } finally {
      polling = false;
      await poller;
    }
    expect(new Set(created.map((k) => k.id)).size).toBe(24);
    expect(health.length).toBeGreaterThan(5);
    expect(health.filter((status) => status !== 200)).toEqual([]);

    for (const { key } of [created[0], created[23]] as CreatedKey[]) {
      const res = await fetch(`${base}/exchange-rate/latest`, { headers: { 'x-api-key': key } });
      // No rate synced (the upstreams refuse): 404, but past the key check.
      expect([200, 404]).toContain(res.status);
    }

    const listed = await run(['keys', 'list', '--json'], env);
    expect(listed.code).toBe(0);
    expect((JSON.parse(listed.stdout) as unknown[]).length).toBe(24);
    // 25 commands of well under a second each on a quiet machine; a slow one running the whole
    // suite beside this file has taken over a minute. The bound only catches a command that hangs.
  }, 240_000);

  it('a key revoked by the command stops working on the server at once (the NOTIFY crosses the socket)', async () => {
    const made = await run(['keys', 'create', '--name', 'revoked', '--plan', 'pro', '--json'], env);
    const { id, key } = JSON.parse(made.stdout) as CreatedKey;
    const headers = { 'x-api-key': key };
    // Looked up once, so the server's key cache holds it as valid.
    expect([200, 404]).toContain((await fetch(`${base}/exchange-rate/latest`, { headers })).status);
    expect(await run(['keys', 'revoke', String(id)], env)).toMatchObject({ code: 0, stdout: `Revoked key ${id}.\n` });
    const refused = await fetch(`${base}/exchange-rate/latest`, { headers });
    expect(refused.status).toBe(401);
  }, 30_000);

  it('refuses a second server on the same folder at once, with exit code 1 and one line naming the first', async () => {
    const second = await run(['main'], { ...env, LOG_LEVEL: 'warn' });
    expect(second.code).toBe(1);
    expect(second.stdout).toBe('');
    // The first server is healthy (its socket answers the commands): it is in the way, not broken.
    expect(second.stderr).toBe(
      `Another crc-rates server (process ${server.pid}) is using DATA_DIR ${dataDir}; stop it first, or set DATABASE_URL to a PostgreSQL server to run several servers.\n`,
    );
    expect(second.stderr).not.toContain('not answering');
    // No clock here (how fast it starts is the machine's load as much as the code's): a second
    // server that waited on the folder instead of refusing it would run into this test's timeout.
    expect((await fetch(`${base}/health`)).status).toBe(200);
  }, 10_000);

  it('stops on SIGTERM and leaves neither the socket nor the claim behind', async () => {
    expect(await stopChild(server)).toBe(0);
    expect(fs.readdirSync(dataDir).filter((name) => name.startsWith('.s.PGSQL') || name.startsWith('crc-rates.lock'))).toEqual([]);

    // The folder is free again: a command opens it itself.
    const listed = await run(['keys', 'list', '--json'], env);
    expect({ code: listed.code, stderr: listed.stderr }).toEqual({ code: 0, stderr: '' });
    expect((JSON.parse(listed.stdout) as unknown[]).length).toBe(25);
  }, 30_000);
});
