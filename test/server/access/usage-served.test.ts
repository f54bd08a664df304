/**
 * `/usage` counts the requests served, not the quota instances hold in reserve: with two
 * instances on one PostgreSQL database, each holding a lease, `used` is what was served (never
 * more than one request per instance above it), whichever instance is asked.
 */
import { rate, startTestApp, type TestApp } from '../../helpers/app';
import { createPostgresTestDatabase, type PostgresTestDatabase } from '../../helpers/postgres';
import { createKey, send, tally, until } from './support';

interface Usage {
  used: number;
  remaining: number;
  monthlyQuota: number;
}

let database: PostgresTestDatabase;
let apps: TestApp[];

beforeAll(async () => {
  database = await createPostgresTestDatabase();
  apps = [await startTestApp({ database }), await startTestApp({ database: { ...database, db: database.connect() } })];
  await apps[0]?.seed([rate('2025-01-15', 506.47, 512.82)]);
}, 30_000);

afterAll(async () => {
  for (const app of apps ?? []) await app.close();
  await database?.drop();
});

const withKey = (app: TestApp, key: string, path: string) => send(`${app.api}${path}`, { headers: { 'x-api-key': key } });

async function usageOn(app: TestApp, key: string): Promise<Usage> {
  const answer = await withKey(app, key, '/usage');
  expect(answer.status).toBe(200);
  return answer.body?.data as Usage;
}

it('says how many requests were served, not what the instances reserved', async () => {
  // Leases of 50 (a hundredth of 5,000): each instance holds units it has not spent.
  const { key } = await createKey(database.db, { monthlyQuota: 5000, ratePerMinute: 1000 });
  const first = apps[0] as TestApp;
  const second = apps[1] as TestApp;
  let served = 0;
  for (let i = 0; i < 20; i += 1) served += (await withKey(first, key, '/exchange-rate/latest')).status === 200 ? 1 : 0;
  // Together and apart: more than one lease on the second instance.
  const burst = await Promise.all(Array.from({ length: 40 }, () => withKey(second, key, '/exchange-rate/latest')));
  served += tally(burst)[200] ?? 0;
  for (let i = 0; i < 31; i += 1) served += (await withKey(second, key, '/exchange-rate/latest')).status === 200 ? 1 : 0;
  expect(served).toBe(91);

  // Each instance records what it served in the background: the count is exact as soon as the
  // last writes land, and never above what was served by more than one request per instance.
  const seen: number[] = [];
  await until(
    'both instances say 91 were served',
    async () => {
      const usages = await Promise.all(apps.map((app) => usageOn(app, key)));
      seen.push(...usages.map((u) => u.used));
      return usages.every((u) => u.used === served && u.remaining === 5000 - served);
    },
    5000,
  );
  expect(Math.max(...seen)).toBeLessThanOrEqual(served + apps.length);
});

it('keeps what was served when an instance stops and gives its lease back', async () => {
  const { key } = await createKey(database.db, { monthlyQuota: 5000, ratePerMinute: 1000 });
  const extra = await startTestApp({ database: { ...database, db: database.connect() } });
  for (let i = 0; i < 7; i += 1) expect((await withKey(extra, key, '/exchange-rate/latest')).status).toBe(200);
  await extra.close();
  expect((await usageOn(apps[0] as TestApp, key)).used).toBe(7);
});
