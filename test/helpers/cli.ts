/**
 * Running the operator commands as a user does: a child process per command, against the fake
 * upstream and a database of the test's own (a private PostgreSQL database when DATABASE_URL is
 * set, otherwise the embedded one in a temporary folder).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createDatabase, type Database } from '../../server/store/database';
import { startFakeUpstream, type FakeUpstream } from '../../server/demo/bccr-upstream';
import { commandLine } from './commands';
import { createTestDatabase, migratedTemplate, type TestDatabase } from './database';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the command with `args` (asynchronously: the fake lives in this process). */
export function runCli(command: 'sync' | 'keys' | 'webhooks', args: readonly string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const [executable, ...commandArgs] = commandLine(command, args);
    const child = spawn(executable, commandArgs, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export interface CliFixture {
  fake: FakeUpstream;
  env: NodeJS.ProcessEnv;
  dataDir: string;
  /** The private PostgreSQL database, or null on the embedded one. */
  postgres: TestDatabase | null;
  /** Reads what the commands stored, while no child has the embedded database open. */
  withStoredData<T>(read: (db: Database) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * The data folder holds the migrated copy before the first command, which would otherwise spend
 * seconds in initdb and the migrations: a fresh folder's first start is tested where it is the
 * point (main.test.ts, file-modes.test.ts).
 */
async function fillFromTemplate(dataDir: string): Promise<void> {
  const db = createDatabase({ databaseUrl: null, dataDir, initialData: await migratedTemplate() });
  await db.destroy();
}

/** `empty`: the data folder starts empty, for tests that check a command leaves it alone. */
export async function createCliFixture(name: string, { empty = false } = {}): Promise<CliFixture> {
  const fake = await startFakeUpstream();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `crc-${name}-`));
  const postgres = process.env.DATABASE_URL ? await createTestDatabase() : null;
  if (!postgres && !empty) await fillFromTemplate(dataDir);
  const { DATABASE_URL: _db, REDIS_URL: _redis, BCCR_TOKEN: _token, ...inherited } = process.env;
  const env: NodeJS.ProcessEnv = {
    ...inherited,
    ...(postgres?.url ? { DATABASE_URL: postgres.url } : {}),
    DATA_DIR: dataDir,
    BCCR_API_URL: fake.sddeUrl,
    BCCR_SITE_API_URL: fake.siteUrl,
    HACIENDA_URL: fake.haciendaUrl,
    LOG_LEVEL: 'warn',
  };
  return {
    fake,
    env,
    dataDir,
    postgres,
    async withStoredData(read) {
      if (postgres) return read(postgres.db);
      const db = createDatabase({ databaseUrl: null, dataDir });
      try {
        return await read(db);
      } finally {
        await db.destroy();
      }
    },
    async close() {
      await fake.close();
      await postgres?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
