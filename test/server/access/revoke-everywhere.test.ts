/**
 * A revoked key stops working on every instance at once, whatever REDIS_URL the `keys` command
 * runs with: servers on PostgreSQL listen there as well as on Redis, and the command announces
 * there always. Without that, servers on Redis missed a revoke made without REDIS_URL and kept
 * serving the key until their cached lookup expired (30 s).
 */
import pino from 'pino';
import type { ChangeFeed } from '../../../server/changes';
import { createTopics } from '../../../server/changes';
import { createRemoteChangeFeed, messageHandler } from '../../../server/changes-remote';
import { rate, startTestApp, type TestApp } from '../../helpers/app';
import { runCli } from '../../helpers/cli';
import { createPostgresTestDatabase, type PostgresTestDatabase } from '../../helpers/postgres';
import { createKey, send, until } from './support';

const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const silent = pino({ level: 'silent' });
/** Far below the key cache's 30 s: only a notice explains a 401 this soon. */
const PROMPTLY_MS = 2000;

let database: PostgresTestDatabase;
let feeds: ChangeFeed[];
let apps: TestApp[];

beforeAll(async () => {
  database = await createPostgresTestDatabase();
  // Each instance with its own pool and its feed built as a server on PostgreSQL with Redis builds it.
  feeds = [
    await createRemoteChangeFeed({ databaseUrl: database.url, redisUrl: REDIS_URL }, silent),
    await createRemoteChangeFeed({ databaseUrl: database.url, redisUrl: REDIS_URL }, silent),
  ];
  apps = [];
  for (const changes of feeds) apps.push(await startTestApp({ database: { ...database, db: database.connect() }, changes }));
  await apps[0]?.seed([rate('2025-01-15', 506.47, 512.82)]);
}, 30_000);

afterAll(async () => {
  for (const app of apps ?? []) await app.close();
  for (const feed of feeds ?? []) await feed.close();
  await database?.drop();
});

/** The `keys` command's environment: this database, and REDIS_URL only when given. */
function commandEnv(redisUrl?: string): NodeJS.ProcessEnv {
  const { REDIS_URL: _redis, DATABASE_URL: _db, ...inherited } = process.env;
  return { ...inherited, DATABASE_URL: database.url, LOG_LEVEL: 'warn', ...(redisUrl ? { REDIS_URL: redisUrl } : {}) };
}

const statusOn = async (app: TestApp, key: string) => (await send(`${app.api}/exchange-rate/latest`, { headers: { 'x-api-key': key } })).status;

it.each([
  ['without REDIS_URL', undefined],
  ['with the servers’ REDIS_URL', REDIS_URL],
])(
  'revoking a key %s makes every instance answer 401 within seconds',
  async (_, redisUrl) => {
    const { key, record } = await createKey(database.db);
    // Both instances have looked the key up and keep it in their cache.
    for (const app of apps) expect(await statusOn(app, key)).toBe(200);

    const revoked = await runCli('keys', ['revoke', String(record.id)], commandEnv(redisUrl));
    expect([revoked.code, revoked.stdout.trim()]).toEqual([0, `Revoked key ${record.id}.`]);

    await until(
      'both instances refuse the revoked key',
      async () => (await Promise.all(apps.map((app) => statusOn(app, key)))).every((s) => s === 401),
      PROMPTLY_MS,
    );
  },
  30_000,
);

it('acts once on a notice that arrives over both PostgreSQL and Redis, never on its own', () => {
  const topics = createTopics();
  let heard = 0;
  topics.on('keys', () => (heard += 1));
  const handle = messageHandler(topics, 'me');
  handle('keys:other:1');
  handle('keys:other:1');
  expect(heard).toBe(1);
  handle('keys:other:2');
  handle('keys:me:3');
  // A sender without serials (an older instance) is heard every time.
  handle('keys:older');
  handle('keys:older');
  expect(heard).toBe(4);
});
