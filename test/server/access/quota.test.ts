/**
 * The monthly quota : counted in the database, so it
 * is exact however many instances serve a key at once and survives a restart; only served
 * requests count (a 304 answered from the client's own copy is free, and refusals are not); it starts again at 00:00 UTC on the first day
 * of each month. `/usage` reports it and is never counted.
 */
import { rate, startTestApp, type TestApp } from '../../helpers/app';
import { createApiKeysStore } from '../../../server/store/api-keys';
import { createUsageStore } from '../../../server/store/usage';
import { createKey, headerNumber, secondInstanceDatabase, send, tally, unknownKey, until, type Answer } from './support';

const PATH = '/exchange-rate/latest';
const QUOTA_EXCEEDED = { success: false, error: 'QUOTA_EXCEEDED', message: expect.any(String) };

/** The instant the test's clock shows; moved by the month-rollover test. */
let now = new Date('2025-01-16T05:30:00Z');
const clock = () => now;

const withKey = (app: TestApp, key: string, path = PATH, headers: Record<string, string> = {}) =>
  send(`${app.api}${path}`, { headers: { 'x-api-key': key, ...headers } });

function expectQuotaHeaders(answer: Answer, limit: number, remaining: number, reset: string): void {
  expect({
    limit: answer.headers.get('x-quota-limit'),
    remaining: answer.headers.get('x-quota-remaining'),
    reset: answer.headers.get('x-quota-reset'),
  }).toEqual({
    limit: String(limit),
    remaining: String(remaining),
    reset,
  });
}

let t: TestApp;
let other: TestApp;
let second: ReturnType<typeof secondInstanceDatabase>;
beforeAll(async () => {
  t = await startTestApp({ clock });
  await t.seed([rate('2025-01-15', 506.47, 512.82)]);
  // A second instance: its own pool on PostgreSQL, its own caches and limiter in any case.
  second = secondInstanceDatabase(t.database);
  other = await startTestApp({ database: second, clock });
});
afterAll(async () => {
  await other.close();
  await second.close();
  await t.close();
});

const used = (keyId: number, month = '2025-01-01') => createUsageStore(t.database.db).used(keyId, month);

it('serves exactly the quota when three times as many requests arrive at once at two instances', async () => {
  const Q = 20;
  const { key, record } = await createKey(t.database.db, { monthlyQuota: Q, ratePerMinute: 1000 });
  const answers = await Promise.all(Array.from({ length: 3 * Q }, (_, i) => withKey(i % 2 ? other : t, key)));
  expect(tally(answers)).toEqual({ 200: Q, 429: 2 * Q });
  // The running count in the headers stays within the quota and reaches its end. (Instances
  // reserve units in leases, so two answers served at the same moment may show the same count.)
  const remaining = answers.filter((a) => a.status === 200).map((a) => headerNumber(a, 'X-Quota-Remaining'));
  expect(remaining.every((r) => r >= 0 && r < Q)).toBe(true);
  expect(Math.min(...remaining)).toBe(0);
  // 15 days and 18.5 hours from the clock to 2025-02-01T00:00Z.
  const untilReset = String((Date.parse('2025-02-01T00:00:00Z') - now.getTime()) / 1000);
  for (const refused of answers.filter((a) => a.status === 429)) {
    expect(refused.body).toEqual(QUOTA_EXCEEDED);
    expect(refused.headers.get('retry-after')).toBe(untilReset);
    expectQuotaHeaders(refused, Q, 0, '2025-02-01T00:00:00.000Z');
  }
  expect(await used(record.id)).toBe(Q);
});

it('keeps the count across a restart: a new instance on the same database sees it', async () => {
  const { key, record } = await createKey(t.database.db, { monthlyQuota: 10, ratePerMinute: 1000 });
  for (let i = 0; i < 3; i += 1) expect((await withKey(other, key)).status).toBe(200);
  const restarted = await startTestApp({ database: t.database, clock });
  try {
    // The other instance writes what it served at most every RECORD_EVERY_MS.
    await until(
      'the other instance has written its 3 requests',
      async () => ((await withKey(restarted, key, '/usage')).body?.data as { used?: number })?.used === 3,
    );
    const usage = await withKey(restarted, key, '/usage');
    expect(usage.status).toBe(200);
    expect(usage.body).toEqual({
      success: true,
      data: { plan: 'custom', monthlyQuota: 10, used: 3, remaining: 7, resetsAt: '2025-02-01T00:00:00.000Z', ratePerMinute: 1000 },
    });
    expectQuotaHeaders(await withKey(restarted, key), 10, 6, '2025-02-01T00:00:00.000Z');
    expect(await used(record.id)).toBe(4);
  } finally {
    await restarted.close();
  }
});

it('counts nothing for refused requests: 400, 404, 401 and rate-limited 429', async () => {
  const { key, record } = await createKey(t.database.db, { monthlyQuota: 100, ratePerMinute: 4 });
  const reset = '2025-02-01T00:00:00.000Z';
  const served = await withKey(t, key);
  expect(served.status).toBe(200);
  expectQuotaHeaders(served, 100, 99, reset);

  const badRequest = await withKey(t, key, '/exchange-rate/history?days=0');
  expect(badRequest.status).toBe(400);
  expectQuotaHeaders(badRequest, 100, 99, reset);
  const noData = await withKey(t, key, '/exchange-rate?date=2001-01-01');
  expect(noData.status).toBe(404);
  expectQuotaHeaders(noData, 100, 99, reset);
  // Not a route at all: never reaches the key.
  expect((await withKey(t, key, '/exchange-rate/nowhere')).status).toBe(404);
  // The fourth request of the minute is the last one allowed; the rest are refused before counting.
  const last = await withKey(t, key, '/exchange-rate/history?days=0');
  expect(last.status).toBe(400);
  for (let i = 0; i < 3; i += 1) expect((await withKey(t, key)).body?.error).toBe('RATE_LIMITED');
  expect(await used(record.id)).toBe(1);

  // A key refused as revoked is not charged either.
  await createApiKeysStore(t.database.db).revoke(record.id, new Date());
  expect((await withKey(other, key)).status).toBe(401);
  expect((await withKey(other, unknownKey())).status).toBe(401);
  expect(await used(record.id)).toBe(1);
});

it('does not count a 304: the client answered from its own copy', async () => {
  const { key, record } = await createKey(t.database.db, { monthlyQuota: 100, ratePerMinute: 1000 });
  const first = await withKey(t, key);
  const etag = first.headers.get('etag') ?? '';
  expect(etag).not.toBe('');
  const notModified = await withKey(t, key, PATH, { 'If-None-Match': etag });
  expect(notModified.status).toBe(304);
  expectQuotaHeaders(notModified, 100, 99, '2025-02-01T00:00:00.000Z');
  await t.app.release();
  expect(await used(record.id)).toBe(1);
});

it('reports usage on /usage without counting it, even once the quota is used up', async () => {
  const { key, record } = await createKey(t.database.db, { plan: 'pro' });
  const usage = async () => {
    const answer = await withKey(t, key, '/usage');
    expect(answer.status).toBe(200);
    return answer.body?.data;
  };
  for (let i = 0; i < 3; i += 1) {
    expect(await usage()).toEqual({ plan: 'pro', monthlyQuota: 5000, used: 0, remaining: 5000, resetsAt: '2025-02-01T00:00:00.000Z', ratePerMinute: 60 });
  }
  expect((await withKey(t, key)).status).toBe(200);
  expect(await usage()).toMatchObject({ used: 1, remaining: 4999 });
  // The database also holds this instance's unspent lease until it is handed back.
  expect(await used(record.id)).toBeGreaterThanOrEqual(1);
  await t.app.release();
  expect(await used(record.id)).toBe(1);
  expect(await usage()).toMatchObject({ used: 1, remaining: 4999 });

  const { key: small } = await createKey(t.database.db, { monthlyQuota: 1, ratePerMinute: 1000 });
  expect((await withKey(t, small)).status).toBe(200);
  expect((await withKey(t, small)).status).toBe(429);
  const spent = await withKey(t, small, '/usage');
  expect(spent.status).toBe(200);
  expect(spent.body?.data).toEqual({ plan: 'custom', monthlyQuota: 1, used: 1, remaining: 0, resetsAt: '2025-02-01T00:00:00.000Z', ratePerMinute: 1000 });
  // An authenticated answer that counts nothing still carries the quota headers.
  expectQuotaHeaders(spent, 1, 0, '2025-02-01T00:00:00.000Z');
});

it('starts again at 00:00 UTC on the first day of the month', async () => {
  now = new Date('2026-01-31T23:59:59Z');
  const { key, record } = await createKey(t.database.db, { monthlyQuota: 2, ratePerMinute: 1000 });
  expectQuotaHeaders(await withKey(t, key), 2, 1, '2026-02-01T00:00:00.000Z');
  expectQuotaHeaders(await withKey(other, key), 2, 0, '2026-02-01T00:00:00.000Z');
  const refused = await withKey(t, key);
  expect(refused.status).toBe(429);
  expect(refused.body).toEqual(QUOTA_EXCEEDED);
  expect(refused.headers.get('retry-after')).toBe('1');
  expectQuotaHeaders(refused, 2, 0, '2026-02-01T00:00:00.000Z');
  // What the other instance served reaches this one's /usage once it has written it (RECORD_EVERY_MS at most).
  await until('the other instance has written its request', async () => ((await withKey(t, key, '/usage')).body?.data as { used?: number })?.used === 2);
  expect((await withKey(t, key, '/usage')).body?.data).toMatchObject({ used: 2, remaining: 0, resetsAt: '2026-02-01T00:00:00.000Z' });

  now = new Date('2026-02-01T00:00:00Z');
  const allowed = await withKey(other, key);
  expect(allowed.status).toBe(200);
  expectQuotaHeaders(allowed, 2, 1, '2026-03-01T00:00:00.000Z');
  // Asked of the instance that served it: another one learns of it once that one has written its
  // count, in the background.
  expect((await withKey(other, key, '/usage')).body?.data).toMatchObject({ used: 1, remaining: 1, resetsAt: '2026-03-01T00:00:00.000Z' });
  // January's count is kept as it was.
  expect(await used(record.id, '2026-01-01')).toBe(2);
  expect(await used(record.id, '2026-02-01')).toBe(1);
});
