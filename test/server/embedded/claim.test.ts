/**
 * The data folder is claimed before PGlite opens it, atomically: of several processes starting at
 * once exactly one gets it, a claim whose process is gone is taken over, and a refused process
 * has not touched the database files.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createDatabase, DataDirInUseError } from '../../../server/store/database';
import { claimDataDir, LOCK_FILE, readHolder } from '../../../server/store/embedded/claim';
import { migratedTemplate } from '../../helpers/database';

const ROOT = path.resolve(__dirname, '../../..');
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crc-claim-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The pid of a process that has ended (and so cannot hold anything). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

const lockFile = () => path.join(dir, LOCK_FILE);

it('is held until released, and refused meanwhile, in this process too', () => {
  const claim = claimDataDir(dir, true);
  expect(JSON.parse(fs.readFileSync(lockFile(), 'utf8'))).toEqual({ pid: process.pid, serves: true });
  expect(readHolder(dir)).toEqual({ pid: process.pid, serves: true });
  expect(() => claimDataDir(dir, false)).toThrow(DataDirInUseError);
  claim.release();
  expect(fs.existsSync(lockFile())).toBe(false);
  claimDataDir(dir, false).release();
  // Nothing left over from the atomic creation.
  expect(fs.readdirSync(dir)).toEqual([]);
});

it('tells a second server that another server holds the folder, and a command that the server does not answer', () => {
  fs.writeFileSync(lockFile(), JSON.stringify({ pid: process.ppid, serves: true }));
  expect(() => claimDataDir(dir, true)).toThrow(
    `Another crc-rates server (process ${process.ppid}) is using DATA_DIR ${dir}; stop it first, or set DATABASE_URL to a PostgreSQL server to run several servers.`,
  );
  // A command is refused only once the server's socket has not answered (server/store/embedded/open.ts).
  expect(() => claimDataDir(dir, false)).toThrow(`belongs to the server running as process ${process.ppid}, which is not answering on its socket`);
});

it('takes over a claim whose process has ended, or that a previous process with this pid left', () => {
  fs.writeFileSync(lockFile(), JSON.stringify({ pid: deadPid(), serves: true }));
  expect(readHolder(dir)).toBeNull();
  const first = claimDataDir(dir, false);
  first.release();

  // Containers give a restarted server the same pid: a lock naming it is the crashed one's.
  fs.writeFileSync(lockFile(), JSON.stringify({ pid: process.pid, serves: true }));
  const second = claimDataDir(dir, true);
  expect(readHolder(dir)).toEqual({ pid: process.pid, serves: true });
  second.release();
  expect(fs.readdirSync(dir)).toEqual([]);
});

it('refuses a folder held by a live process before PGlite creates a single file', async () => {
  // This test process's parent is alive and is not this process.
  fs.writeFileSync(lockFile(), JSON.stringify({ pid: process.ppid, serves: false }));
  expect(() => createDatabase({ databaseUrl: null, dataDir: dir })).toThrow(DataDirInUseError);
  expect(fs.readdirSync(dir)).toEqual([LOCK_FILE]);
});

it('is given back by a database destroyed before its first query', async () => {
  // From the migrated copy: initdb in an empty folder is seconds of CPU, and not the point here.
  const unused = createDatabase({ databaseUrl: null, dataDir: dir, initialData: await migratedTemplate() });
  await unused.destroy();
  expect(fs.existsSync(lockFile())).toBe(false);
  const next = createDatabase({ databaseUrl: null, dataDir: dir });
  try {
    expect((await next.raw<{ rows: Array<{ one: number }> }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  } finally {
    await next.destroy();
  }
  // Two embedded databases opened one after the other, on a machine that may be busy.
}, 90_000);

it('goes to exactly one of several processes claiming at once, also over a stale claim', async () => {
  fs.writeFileSync(lockFile(), JSON.stringify({ pid: deadPid(), serves: false }));
  const script = `
    const { claimDataDir } = require(${JSON.stringify(path.join(ROOT, 'server/store/embedded/claim.ts'))});
    let won = false;
    try { claimDataDir(process.argv[1], false); won = true; } catch (error) { if (error.name !== 'DataDirInUseError') throw error; }
    process.stdout.write(won ? 'won' : 'lost');
    // Holds on until every process has tried (the test then closes stdin): a winner that left
    // sooner would leave a stale claim for a late starter to take over, rightly.
    process.stdin.resume().on('end', () => process.exit(0));
  `;
  const children = Array.from({ length: 6 }, () => spawn(TSX, ['-e', script, dir], { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] }));
  const exited = children.map((child) => new Promise((resolve) => child.on('close', resolve)));
  const outcomes = await Promise.all(
    children.map(
      (child) =>
        new Promise<string>((resolve, reject) => {
          let out = '';
          child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
            out += chunk;
            if (out === 'won' || out === 'lost') resolve(out);
          });
          child.on('error', reject);
          child.on('close', () => resolve(out));
        }),
    ),
  );
  for (const child of children) child.stdin.end();
  await Promise.all(exited);
  expect(outcomes.filter((o) => o === 'won')).toHaveLength(1);
  expect(outcomes.filter((o) => o === 'lost')).toHaveLength(5);
}, 30_000);
