/**
 * Requests per minute (docs/api.md): exactly the key's rate per
 * window, even when the requests all arrive at once; the IP's 60 when no known key is sent; the
 * contract's headers on every answer; shared by every instance through Redis, and per instance,
 * without errors or delays, while Redis is away.
 */
import { Writable } from 'node:stream';
import pino from 'pino';
import type Redis from 'ioredis';
import CircuitBreaker from 'opossum';
import { breakerOptions, REDIS_DEADLINE_MS } from '../../../server/access/rate-limit';
import { rate, startTestApp, type TestApp } from '../../helpers/app';
import {
  createKey,
  headerNumber,
  PrivateRedis,
  redisClient,
  secondInstanceDatabase,
  send,
  tally,
  uniqueKeyIds,
  unknownKey,
  until,
  type Answer,
} from './support';

const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const RATE_LIMITED = { success: false, error: 'RATE_LIMITED', message: expect.any(String) };
const PATH = '/exchange-rate/latest';

/** The contract's three headers, with the reset in whole seconds from now: never an epoch. */
function expectRateHeaders(answer: Answer, limit: number): void {
  expect(headerNumber(answer, 'X-RateLimit-Limit')).toBe(limit);
  expect(headerNumber(answer, 'X-RateLimit-Remaining')).toBeLessThanOrEqual(limit);
  const reset = headerNumber(answer, 'X-RateLimit-Reset');
  expect(reset).toBeGreaterThanOrEqual(1);
  expect(reset).toBeLessThanOrEqual(60);
}

function expectRateLimited(answer: Answer, limit: number): void {
  expect(answer.status).toBe(429);
  expect(answer.body).toEqual(RATE_LIMITED);
  expectRateHeaders(answer, limit);
  expect(headerNumber(answer, 'X-RateLimit-Remaining')).toBe(0);
  const retryAfter = headerNumber(answer, 'Retry-After');
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
}

const withKey = (app: TestApp, key: string, path = PATH) => send(`${app.api}${path}`, { headers: { 'x-api-key': key } });

/** `count` requests one after the other, taking turns over `apps`. */
async function inTurns(apps: readonly TestApp[], key: string, count: number): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (let i = 0; i < count; i += 1) answers.push(await withKey(apps[i % apps.length] as TestApp, key));
  return answers;
}

/** `count` requests all at once, spread over `apps`. */
function atOnce(apps: readonly TestApp[], key: string, count: number): Promise<Answer[]> {
  return Promise.all(Array.from({ length: count }, (_, i) => withKey(apps[i % apps.length] as TestApp, key)));
}

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ clock: () => new Date('2025-01-16T05:30:00Z') });
  await t.seed([rate('2025-01-15', 506.47, 512.82)]);
});
afterAll(() => t.close());

describe('in one instance', () => {
  it("allows exactly the key's rate per window, then answers 429 with Retry-After", async () => {
    const { key } = await createKey(t.database.db, { ratePerMinute: 5 });
    const served = await inTurns([t], key, 5);
    served.forEach((answer, i) => {
      expect(answer.status).toBe(200);
      expectRateHeaders(answer, 5);
      expect(headerNumber(answer, 'X-RateLimit-Remaining')).toBe(4 - i);
    });
    for (const refused of await inTurns([t], key, 2)) expectRateLimited(refused, 5);
    // Another key is a client of its own.
    expect((await t.get(PATH)).status).toBe(200);
  });

  it('lets exactly 50 of 200 simultaneous requests through for a key of 50 per minute', async () => {
    const { key } = await createKey(t.database.db, { ratePerMinute: 50 });
    const answers = await atOnce([t], key, 200);
    expect(tally(answers)).toEqual({ 200: 50, 429: 150 });
    for (const answer of answers) {
      if (answer.status === 429) expectRateLimited(answer, 50);
      else expectRateHeaders(answer, 50);
    }
  });

  it('limits callers without a known key by IP, at 60, whatever they call', async () => {
    const fresh = await startTestApp({ database: t.database });
    try {
      const answers: Answer[] = [];
      for (let i = 0; i < 60; i += 1) {
        const path = ['/openapi.json', PATH, '/exchange-rate/history?days=0'][i % 3] as string;
        // No key, an unknown key, a malformed one: all the same client, the address.
        const headers: Record<string, string> = i % 4 === 0 ? {} : { 'x-api-key': i % 4 === 1 ? unknownKey() : 'nonsense' };
        answers.push(await send(`${fresh.api}${path}`, { headers }));
      }
      expect(answers.every((a) => a.status === 200 || a.status === 401)).toBe(true);
      answers.forEach((answer, i) => {
        expectRateHeaders(answer, 60);
        expect(headerNumber(answer, 'X-RateLimit-Remaining')).toBe(59 - i);
      });
      expectRateLimited(await send(`${fresh.api}/openapi.json`), 60);
      // A forwarded-for header is not believed without a trusted proxy in front.
      expectRateLimited(await send(`${fresh.api}/openapi.json`, { headers: { 'X-Forwarded-For': '198.51.100.7' } }), 60);
      // A known key is its own client, even from the same address.
      expect((await fresh.get(PATH)).status).toBe(200);
    } finally {
      await fresh.close();
    }
  });

  it('never counts or refuses /usage, which still says where the key stands', async () => {
    const { key } = await createKey(t.database.db, { ratePerMinute: 2 });
    for (let i = 0; i < 4; i += 1) {
      const usage = await withKey(t, key, '/usage');
      expect(usage.status).toBe(200);
      expectRateHeaders(usage, 2);
      expect(headerNumber(usage, 'X-RateLimit-Remaining')).toBe(2);
    }
    expect((await withKey(t, key)).status).toBe(200);
    const usage = await withKey(t, key, '/usage');
    expect([usage.status, headerNumber(usage, 'X-RateLimit-Remaining')]).toEqual([200, 1]);
    expect((await withKey(t, key)).status).toBe(200);
    expectRateLimited(await withKey(t, key), 2);
    expect((await withKey(t, key, '/usage')).status).toBe(200);
  });

  it('never refuses /health, which load balancers and monitors poll from one address', async () => {
    const fresh = await startTestApp({ database: t.database });
    try {
      for (let i = 0; i < 70; i += 1) expect((await send(`${fresh.api}/health`)).status).toBe(200);
      expectRateHeaders(await send(`${fresh.api}/health`), 60);
    } finally {
      await fresh.close();
    }
  });

  it('tells addresses apart behind a trusted proxy', async () => {
    const proxied = await startTestApp({ database: t.database, trustProxy: true });
    try {
      const from = (ip: string) => send(`${proxied.api}/openapi.json`, { headers: { 'X-Forwarded-For': ip } });
      for (let i = 0; i < 60; i += 1) expect((await from('203.0.113.1')).status).toBe(200);
      expectRateLimited(await from('203.0.113.1'), 60);
      expect((await from('203.0.113.2')).status).toBe(200);
    } finally {
      await proxied.close();
    }
  });
  it.each([1, 2])('with %i trusted proxies, a client cannot choose its address by writing to the left of X-Forwarded-For', async (hops) => {
    const proxied = await startTestApp({ database: t.database, trustProxy: hops });
    try {
      // What the trusted proxies append: the client's address, and for two, the outer proxy's.
      const appended = (client: string) => (hops === 1 ? client : `${client}, 10.0.0.2`);
      const spoofed = (i: number) => send(`${proxied.api}/openapi.json`, { headers: { 'X-Forwarded-For': `10.66.0.${i}, ${appended('203.0.113.7')}` } });
      const statuses: number[] = [];
      for (let i = 0; i < 70; i += 1) statuses.push((await spoofed(i)).status);
      expect(statuses.filter((status) => status === 200)).toHaveLength(60);
      expect(statuses.slice(60)).toEqual(Array(10).fill(429));
      // Another client behind the same proxies still has its own limit.
      expect((await send(`${proxied.api}/openapi.json`, { headers: { 'X-Forwarded-For': appended('203.0.113.8') } })).status).toBe(200);
    } finally {
      await proxied.close();
    }
  });
});

describe('shared through Redis by two instances', () => {
  let clients: Redis[];
  let apps: TestApp[];
  let second: ReturnType<typeof secondInstanceDatabase>;
  beforeAll(async () => {
    // The limiter names a key by its id, and other test databases have the same small ids.
    await uniqueKeyIds(t.database.db);
    second = secondInstanceDatabase(t.database);
    clients = [redisClient(REDIS_URL), redisClient(REDIS_URL)];
    await until('both Redis clients are ready', () => clients.every((c) => c.status === 'ready'));
    apps = [await startTestApp({ database: t.database, redis: clients[0] }), await startTestApp({ database: second, redis: clients[1] })];
  });
  afterAll(async () => {
    for (const app of apps ?? []) await app.close();
    for (const client of clients ?? []) client.disconnect();
    await second?.close();
  });

  it('counts down one limit over both instances', async () => {
    const { key } = await createKey(t.database.db, { ratePerMinute: 4 });
    const answers = await inTurns(apps, key, 6);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 429, 429]);
    expect(answers.slice(0, 4).map((a) => headerNumber(a, 'X-RateLimit-Remaining'))).toEqual([3, 2, 1, 0]);
    for (const a of answers.slice(0, 4)) expectRateHeaders(a, 4);
    for (const a of answers.slice(4)) expectRateLimited(a, 4);
  });

  // The burst keeps this process's event loop busy far past the limiter's deadline for Redis: a
  // Redis that answered meanwhile is still the count, never each instance's memory.
  it.each([
    ['both instances', 2],
    ['one instance', 1],
  ])('serves exactly 60 of 200 simultaneous requests of a key of 60 a minute on %s, round after round', async (_, instances) => {
    for (let round = 0; round < 3; round += 1) {
      const { key } = await createKey(t.database.db, { ratePerMinute: 60 });
      const answers = await atOnce(apps.slice(0, instances), key, 200);
      expect([round, tally(answers)]).toEqual([round, { 200: 60, 429: 140 }]);
      for (const answer of answers) if (answer.status === 429) expectRateLimited(answer, 60);
    }
  });
});

describe('when Redis goes away and comes back', () => {
  const N = 5;
  const logged: string[] = [];
  let redis: PrivateRedis;
  let clients: Redis[];
  let apps: TestApp[];
  let second: ReturnType<typeof secondInstanceDatabase>;
  beforeAll(async () => {
    redis = await PrivateRedis.start();
    second = secondInstanceDatabase(t.database);
    clients = [redisClient(redis.url), redisClient(redis.url)];
    await until('both Redis clients are ready', () => clients.every((c) => c.status === 'ready'));
    const logger = pino(
      { level: 'warn' },
      new Writable({
        write(chunk: Buffer, _encoding, callback) {
          logged.push(chunk.toString());
          callback();
        },
      }),
    );
    apps = [await startTestApp({ database: t.database, redis: clients[0], logger }), await startTestApp({ database: second, redis: clients[1], logger })];
  });
  afterAll(async () => {
    for (const app of apps ?? []) await app.close();
    for (const client of clients ?? []) client.disconnect();
    await second?.close();
    await redis?.kill();
  });

  it('shares the limit while Redis is up', async () => {
    const { key } = await createKey(t.database.db, { ratePerMinute: N });
    expect(tally(await inTurns(apps, key, 2 * N + 2))).toEqual({ 200: N, 429: N + 2 });
  });

  it('answers within a few deadlines, limiting each instance on its own, while Redis hangs', async () => {
    const { key } = await createKey(t.database.db, { ratePerMinute: N });
    // "Within a few deadlines" on this machine now: the same requests while Redis answers set the
    // scale of everything but the wait (a machine running other suites beside this one makes every
    // answer slower, Redis or not).
    const { key: reference } = await createKey(t.database.db, { ratePerMinute: N });
    const healthy = Math.max(...(await Promise.all(apps.map((app) => inTurns([app], reference, N + 1)))).flat().map((answer) => answer.ms));
    const promptly = REDIS_DEADLINE_MS + Math.max(400, 4 * healthy);
    redis.freeze();
    // The connection stays up and says nothing: the first requests wait for the silence to show.
    const perInstance = await Promise.all(apps.map((app) => inTurns([app], key, N + 1)));
    for (const answers of perInstance) {
      expect(answers.map((a) => a.status)).toEqual([...Array<number>(N).fill(200), 429]);
      for (const answer of answers) expect(answer.ms).toBeLessThan(promptly);
    }
    expect(clients.every((c) => c.status === 'ready')).toBe(true);
    expect(logged.join('')).toContain('Redis unavailable, limiting per instance');
  });

  it('keeps answering at once, limiting each instance on its own, while Redis is down', async () => {
    const { key } = await createKey(t.database.db, { ratePerMinute: N });
    // "At once" on this machine now: the same burst while Redis is up sets the scale (a machine
    // running other suites beside this one makes every answer slower, Redis or not).
    const { key: reference } = await createKey(t.database.db, { ratePerMinute: N });
    const healthy = Math.max(...(await atOnce(apps, reference, 4 * N)).map((answer) => answer.ms));
    const promptly = Math.max(500, 4 * healthy);
    await redis.kill();
    // Straight after the crash, before the clients have noticed, and for a while after.
    const answers = await atOnce(apps, key, 4 * N);
    for (let i = 0; i < 2 * N; i += 1) answers.push(await withKey(apps[i % 2] as TestApp, key));
    for (const answer of answers) {
      expect([answer.status, answer.ms < promptly]).toEqual([expect.any(Number), true]);
      expect(answer.status).toBeLessThan(500);
    }
    // Each instance allows the rate in its own memory: N each, 2N in all.
    expect(tally(answers)).toEqual({ 200: 2 * N, 429: 4 * N });
    for (const answer of answers) if (answer.status === 429) expectRateLimited(answer, N);
    // Keys without traffic before the outage are limited the same way.
    const { key: later } = await createKey(t.database.db, { ratePerMinute: N });
    expect(tally(await inTurns([apps[0] as TestApp], later, N + 1))).toEqual({ 200: N, 429: 1 });
    // Nothing failed on the way: at most a warning that the limit went per instance.
    expect(logged.filter((line) => !line.includes('Redis unavailable'))).toEqual([]);
  });

  it('shares the limit again once Redis is back', async () => {
    await redis.start();
    await until('both clients have reconnected', () => clients.every((c) => c.status === 'ready'));
    const { key } = await createKey(t.database.db, { ratePerMinute: N });
    expect(tally(await inTurns(apps, key, 2 * N + 2))).toEqual({ 200: N, 429: N + 2 });
    const { key: burst } = await createKey(t.database.db, { ratePerMinute: N });
    expect(tally(await atOnce(apps, burst, 4 * N))).toEqual({ 200: N, 429: 3 * N });
  });
});

describe("the limiter's circuit breaker options", () => {
  it('are a fresh object for each breaker: what opossum writes into one reaches no other', () => {
    const first = breakerOptions();
    const breaker = new CircuitBreaker(async () => 'ok', first);
    // opossum wrote its defaults into the object it was given.
    expect(first.errorFilter).toEqual(expect.any(Function));
    expect(breakerOptions()).not.toHaveProperty('errorFilter');
    expect(breakerOptions()).toMatchObject({ timeout: false, rollingPercentilesEnabled: false, enableSnapshots: false });
    breaker.shutdown();
  });
});
