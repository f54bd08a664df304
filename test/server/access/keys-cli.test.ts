/**
 * `npm run keys` as an operator runs it: a child process on the service's database, a private
 * PostgreSQL database when DATABASE_URL is set, otherwise the embedded one under a temporary
 * DATA_DIR. Here the app is opened in-process (it does not share its database on a socket, as the
 * server does), so the commands run while no app has it open, and the app opens it in between.
 */
import fs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { rate, startTestApp } from '../../helpers/app';
import { runCli, type CliResult } from '../../helpers/cli';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import { hasControls } from '../../../server/domain/plain-text';
import { createAccessRequestsStore } from '../../../server/store/access-requests';
import { createDatabase } from '../../../server/store/database';
import { headerNumber, send } from './support';

/** The embedded database takes a few seconds to create on a slow machine. */
const SLOW = 90_000;

interface CreatedKey {
  id: number;
  name: string;
  plan: string;
  key: string;
  monthlyQuota: number;
  ratePerMinute: number;
}

interface ListedKey {
  id: number;
  name: string;
  plan: string;
  prefix: string;
  monthlyQuota: number;
  ratePerMinute: number;
  usedThisMonth: number;
  createdAt: string;
  revokedAt: string | null;
}

let dataDir: string;
let postgres: TestDatabase | null = null;
let env: NodeJS.ProcessEnv;

const keys = (...args: string[]): Promise<CliResult> => runCli('keys', args, env);

/** Parses the one JSON document a `--json` command prints, failing with its stderr if it did not. */
function json<T>(result: CliResult): T {
  if (result.code !== 0) throw new Error(`exit ${String(result.code)}: ${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'crc-keys-cli-'));
  if (process.env.DATABASE_URL) postgres = await createTestDatabase();
  const { DATABASE_URL: _db, REDIS_URL: _redis, ...inherited } = process.env;
  env = { ...inherited, ...(postgres?.url ? { DATABASE_URL: postgres.url } : {}), DATA_DIR: dataDir };
});
afterAll(async () => {
  await postgres?.drop();
  await rm(dataDir, { recursive: true, force: true });
});

it(
  'refuses bad arguments with exit code 2 and a message, before touching the database',
  async () => {
    const cases: Array<[string[], string]> = [
      [[], 'usage:'],
      [['create', '--plan', 'pro'], '--name is required'],
      [['create', '--name', 'X', '--plan', 'gold'], '--plan must be one of pro, custom'],
      [['create', '--name', 'X', '--plan', 'custom', '--quota', '0'], '--quota must be a whole number from 1 to 2147483647'],
      [['create', '--name', 'X', '--plan', 'custom', '--rate', '2147483648'], '--rate must be a whole number from 1 to 2147483647'],
      [['create', '--name', 'X', '--plan', 'pro', '--rate', '10'], '--quota and --rate go with --plan custom'],
      [['revoke', 'abc'], 'a key id is a whole number from 1 to 2147483647'],
      [['revoke', '99999999999999999999999'], 'a key id is a whole number from 1 to 2147483647'],
      [['revoke', '1', '2'], 'revoke takes one key id'],
    ];
    const results = await Promise.all(cases.map(([args]) => keys(...args)));
    results.forEach((result, i) => {
      const [args, message] = cases[i] as [string[], string];
      expect({ args, code: result.code, stdout: result.stdout }).toEqual({ args, code: 2, stdout: '' });
      expect(result.stderr).toContain(message);
      expect(result.stderr).not.toMatch(/\n\s+at /); // a message, not a stack trace
    });
    // Nothing was created: the embedded database is not even there yet.
    if (!postgres) expect(fs.readdirSync(dataDir)).toEqual([]);
  },
  SLOW,
);

describe('one key after another', () => {
  let pro: CreatedKey;
  let custom: CreatedKey;

  it(
    'creates a Pro key and prints it once, as one JSON object',
    async () => {
      pro = json<CreatedKey>(await keys('create', '--name', 'Sheets of Ana', '--plan', 'pro', '--json'));
      expect(Object.keys(pro)).toEqual(['id', 'name', 'plan', 'key', 'monthlyQuota', 'ratePerMinute']);
      expect(pro).toEqual({
        id: expect.any(Number),
        name: 'Sheets of Ana',
        plan: 'pro',
        key: expect.stringMatching(/^crc_live_[A-Za-z0-9_-]{43}$/),
        monthlyQuota: 5000,
        ratePerMinute: 60,
      });
    },
    SLOW,
  );

  it(
    'creates a Custom key with its own limits',
    async () => {
      custom = json<CreatedKey>(await keys('create', '--name', 'Finca Sol', '--plan', 'custom', '--quota', '7', '--rate', '3', '--json'));
      expect(custom).toEqual({
        id: expect.any(Number),
        name: 'Finca Sol',
        plan: 'custom',
        key: expect.stringMatching(/^crc_live_[A-Za-z0-9_-]{43}$/),
        monthlyQuota: 7,
        ratePerMinute: 3,
      });
      expect(custom.key).not.toBe(pro.key);
    },
    SLOW,
  );

  it(
    'revokes a key by id, and says so when there is no such active key',
    async () => {
      const revoked = await keys('revoke', String(pro.id));
      expect(revoked).toEqual({ code: 0, stdout: `Revoked key ${pro.id}.\n`, stderr: '' });
      const again = await keys('revoke', String(pro.id));
      expect(again).toEqual({ code: 1, stdout: `No active key with id ${pro.id}.\n`, stderr: '' });
    },
    SLOW,
  );

  it(
    'is what an app on the same database honours; requests sent to the site are kept',
    async () => {
      const embedded = postgres ? null : createDatabase({ databaseUrl: null, dataDir });
      const database: TestDatabase = postgres ?? { db: embedded as NonNullable<typeof embedded>, url: null, drop: async () => undefined };
      const t = await startTestApp({ database });
      try {
        await t.seed([rate('2025-01-15', 506.47, 512.82)]);
        const refused = await t.get('/exchange-rate/latest', { 'x-api-key': pro.key });
        expect(refused.status).toBe(401);
        expect(refused.body.message).toMatch(/revoked/i);
        for (let i = 0; i < 2; i += 1) {
          const served = await send(`${t.api}/exchange-rate/latest`, { headers: { 'x-api-key': custom.key } });
          expect(served.status).toBe(200);
          expect([headerNumber(served, 'X-RateLimit-Limit'), headerNumber(served, 'X-Quota-Limit'), headerNumber(served, 'X-Quota-Remaining')]).toEqual([
            3,
            7,
            6 - i,
          ]);
        }
        const posted = await send(`${t.url}/request-access`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'Luis', email: 'luis@example.org', company: 'Cafetal', plan: 'custom', message: '10k a month' }),
        });
        expect(posted.status).toBe(201);
        expect(
          (await send(`${t.url}/request-access`, { method: 'POST', body: new URLSearchParams({ name: 'Eva', email: 'eva@example.com', plan: 'pro' }) })).status,
        ).toBe(201);
      } finally {
        await t.close();
        // Closing the database gives the folder back to the commands that follow.
        await embedded?.destroy();
      }
    },
    SLOW,
  );

  it(
    'lists keys with their limits, this month’s usage and revocation, never the key itself',
    async () => {
      const result = await keys('list', '--json');
      const listed = json<ListedKey[]>(result);
      expect(listed.find((k) => k.id === pro.id)).toEqual({
        id: pro.id,
        name: 'Sheets of Ana',
        plan: 'pro',
        prefix: pro.key.slice(0, 'crc_live_'.length + 4),
        monthlyQuota: 5000,
        ratePerMinute: 60,
        usedThisMonth: 0,
        createdAt: expect.any(String),
        revokedAt: expect.any(String),
      });
      expect(listed.find((k) => k.id === custom.id)).toMatchObject({
        name: 'Finca Sol',
        plan: 'custom',
        monthlyQuota: 7,
        ratePerMinute: 3,
        usedThisMonth: 2,
        revokedAt: null,
      });
      expect(result.stdout).not.toContain(pro.key.slice(0, 'crc_live_'.length + 5));
      expect(result.stdout).not.toContain(custom.key.slice(0, 'crc_live_'.length + 5));
    },
    SLOW,
  );

  it(
    'lists the access requests received from the site',
    async () => {
      const requests = json<Array<Record<string, unknown>>>(await keys('requests', '--json'));
      expect(requests).toEqual([
        {
          id: expect.any(Number),
          name: 'Luis',
          email: 'luis@example.org',
          company: 'Cafetal',
          plan: 'custom',
          message: '10k a month',
          createdAt: expect.any(String),
        },
        { id: expect.any(Number), name: 'Eva', email: 'eva@example.com', company: null, plan: 'pro', message: null, createdAt: expect.any(String) },
      ]);
    },
    SLOW,
  );

  it(
    'prints stored text with its control characters made visible: no escape reaches the terminal, no line break forges a row',
    async () => {
      // As a row stored before the form took control characters out would hold them.
      const hostile = {
        name: '\u001b[2J\u001b[31mMallory\u001b]0;pwned\u0007',
        email: 'm@example.com',
        company: null,
        plan: 'pro',
        message: 'hi\r\n9  Forged  row',
      };
      const embedded = postgres ? null : createDatabase({ databaseUrl: null, dataDir });
      await createAccessRequestsStore(postgres?.db ?? (embedded as NonNullable<typeof embedded>)).add(hostile);
      await embedded?.destroy();

      const printed = await keys('requests');
      expect(printed.code).toBe(0);
      // No control character but the line ends.
      expect(hasControls(printed.stdout.replaceAll('\n', ''))).toBe(false);
      // The header, Luis, Eva and Mallory: one line each.
      expect(printed.stdout.trimEnd().split('\n')).toHaveLength(4);
      expect(printed.stdout).toContain('\\e[2J\\e[31mMallory\\e]0;pwned\\x07');
      expect(printed.stdout).toContain('hi\\r\\n9  Forged  row');
      // The JSON form is already safe (JSON escapes them) and keeps the text as stored.
      expect(json<Array<{ name: string }>>(await keys('requests', '--json')).at(-1)?.name).toBe(hostile.name);
    },
    SLOW,
  );
});
