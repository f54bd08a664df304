/**
 * The SDK's transport against local stub servers: what is retried and how long the client waits,
 * network errors, timeouts (also mid-body and with a fetch that ignores the signal), answers that
 * are not the API's envelope, the headers it reads, and the requests it sends.
 */
import { costaRicaDay, DEFAULT_BASE_URL, ExchangeRateClient, type FetchLike } from '../../sdk/src';
import { closedPort, failure, fakeSleep, ok, RECORD, rejection, stubsOfEachTest } from './stub';

const stub = stubsOfEachTest();

describe('retries', () => {
  // The real wait of a Retry-After, and the ceiling on it: retry-ceiling.test.ts.

  it('gives up on RATE_LIMITED when the retries are spent, with retryAfter set', async () => {
    const s = await stub([failure(429, 'RATE_LIMITED', 'Too many requests', { 'Retry-After': '7' })]);
    const { sleep, waits } = fakeSleep();
    const error = await rejection(new ExchangeRateClient({ apiKey: 'k', baseUrl: s.api, retries: 2, sleep }).getLatest());
    expect(error).toMatchObject({ status: 429, code: 'RATE_LIMITED', retryAfter: 7, message: 'Too many requests' });
    expect(waits).toEqual([7000, 7000]);
    expect(s.requests).toHaveLength(3);
  });

  it('never retries QUOTA_EXCEEDED', async () => {
    const s = await stub([failure(429, 'QUOTA_EXCEEDED', 'Monthly quota used up', { 'Retry-After': '1' }), ok(RECORD)]);
    const { sleep, waits } = fakeSleep();
    const error = await rejection(new ExchangeRateClient({ apiKey: 'k', baseUrl: s.api, retries: 3, sleep }).getLatest());
    expect(error).toMatchObject({ status: 429, code: 'QUOTA_EXCEEDED', retryAfter: 1 });
    expect(waits).toEqual([]);
    expect(s.requests).toHaveLength(1);
  });

  it.each([
    [400, 'BAD_REQUEST'],
    [401, 'UNAUTHORIZED'],
    [404, 'NOT_FOUND'],
    [405, 'METHOD_NOT_ALLOWED'],
    [500, 'INTERNAL_ERROR'],
  ])('never retries %i %s', async (status, code) => {
    const s = await stub([failure(status, code, `a ${code}`), ok(RECORD)]);
    const { sleep, waits } = fakeSleep();
    const error = await rejection(new ExchangeRateClient({ apiKey: 'k', baseUrl: s.api, retries: 3, sleep }).getLatest());
    expect(error).toMatchObject({ status, code, message: `a ${code}`, retryAfter: null });
    expect(waits).toEqual([]);
    expect(s.requests).toHaveLength(1);
  });

  it('retries 503 and gateway errors with exponential backoff', async () => {
    const s = await stub([failure(503, 'SERVICE_UNAVAILABLE', 'Database unreachable'), { status: 502, text: '<html>Bad Gateway</html>' }, ok(RECORD)]);
    const { sleep, waits } = fakeSleep();
    const client = new ExchangeRateClient({ apiKey: 'k', baseUrl: s.api, retries: 2, retryDelayMs: 100, sleep });
    expect(await client.getLatest()).toEqual(RECORD);
    expect(waits).toEqual([100, 200]);
  });

  it('honours Retry-After as an HTTP date, which a proxy in front of the API may send', async () => {
    const inThreeSeconds = new Date(Date.now() + 3000).toUTCString();
    const s = await stub([{ status: 503, text: '<html>Maintenance</html>', headers: { 'Retry-After': inThreeSeconds } }, ok(RECORD)]);
    const { sleep, waits } = fakeSleep();
    const client = new ExchangeRateClient({ apiKey: 'k', baseUrl: s.api, retries: 1, retryDelayMs: 10, sleep });
    expect(await client.getLatest()).toEqual(RECORD);
    // The date has whole seconds, so between 2 and 3 s remain when the answer is read.
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThanOrEqual(2000);
    expect(waits[0]).toBeLessThanOrEqual(3000);
  });

  it('reports the last failure when retries run out: an HTML 502 is an HTTP_ERROR', async () => {
    const s = await stub([{ status: 502, text: '<html>Bad Gateway</html>' }]);
    const { sleep, waits } = fakeSleep();
    const error = await rejection(new ExchangeRateClient({ apiKey: 'k', baseUrl: s.api, retries: 1, retryDelayMs: 10, sleep }).getLatest());
    expect(error).toMatchObject({ status: 502, code: 'HTTP_ERROR' });
    expect(waits).toEqual([10]);
    expect(s.requests).toHaveLength(2);
  });

  it('retries a network error with backoff, then throws NETWORK_ERROR', async () => {
    const port = await closedPort();
    const { sleep, waits } = fakeSleep();
    const attempts: string[] = [];
    const counting: FetchLike = (url, init) => {
      attempts.push(url);
      return fetch(url, init);
    };
    const client = new ExchangeRateClient({ apiKey: 'k', baseUrl: `http://127.0.0.1:${port}/api/v1`, retries: 2, retryDelayMs: 50, fetch: counting, sleep });
    const error = await rejection(client.getLatest());
    expect(error).toMatchObject({ status: null, code: 'NETWORK_ERROR', retryAfter: null });
    expect(error.message).toContain('ECONNREFUSED');
    expect(error.cause).toHaveProperty('message', 'fetch failed');
    expect(attempts).toHaveLength(3);
    expect(waits).toEqual([50, 100]);
    expect(client.lastRateLimit).toBeNull();
  });

  it('recovers when the network comes back between attempts', async () => {
    let calls = 0;
    const flaky: FetchLike = async (url, init) => {
      calls += 1;
      if (calls === 1) throw new TypeError('fetch failed');
      return fetch(url, init);
    };
    const s = await stub([ok(RECORD)]);
    const client = new ExchangeRateClient({ apiKey: 'k', baseUrl: s.api, retryDelayMs: 1, fetch: flaky });
    expect(await client.getLatest()).toEqual(RECORD);
    expect(calls).toBe(2);
  });

  it('retries: 0 makes one attempt only', async () => {
    const s = await stub([failure(429, 'RATE_LIMITED', 'Too many requests', { 'Retry-After': '1' })]);
    const { sleep, waits } = fakeSleep();
    await rejection(new ExchangeRateClient({ apiKey: 'k', baseUrl: s.api, retries: 0, sleep }).getLatest());
    expect(waits).toEqual([]);
    expect(s.requests).toHaveLength(1);
  });
});

describe('timeouts', () => {
  it('a server that never answers: TIMEOUT within timeoutMs', async () => {
    const s = await stub([{ hang: true }]);
    const client = new ExchangeRateClient({ apiKey: 'k', baseUrl: s.api, timeoutMs: 300, retries: 0 });
    const started = Date.now();
    const error = await rejection(client.getLatest());
    const elapsed = Date.now() - started;
    expect(error).toMatchObject({ code: 'TIMEOUT', status: null });
    expect(error.message).toContain('300 ms');
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(elapsed).toBeLessThan(1500);
  });

  it('a timeout is retried like a network error', async () => {
    const s = await stub([{ hang: true }, ok(RECORD)]);
    const { sleep, waits } = fakeSleep();
    const client = new ExchangeRateClient({ apiKey: 'k', baseUrl: s.api, timeoutMs: 200, retries: 2, retryDelayMs: 25, sleep });
    expect(await client.getLatest()).toEqual(RECORD);
    expect(waits).toEqual([25]);
    expect(s.requests).toHaveLength(2);
  });

  it('a body that stops half way: TIMEOUT too', async () => {
    const s = await stub([{ stallBody: true }]);
    const client = new ExchangeRateClient({ apiKey: 'k', baseUrl: s.api, timeoutMs: 300, retries: 0 });
    const started = Date.now();
    expect(await rejection(client.getLatest())).toMatchObject({ code: 'TIMEOUT', status: null });
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('a custom fetch that ignores the abort signal still times out, and the signal is aborted', async () => {
    let signal: AbortSignal | undefined;
    const deaf: FetchLike = (_url, init) => {
      signal = init.signal as AbortSignal;
      return new Promise(() => undefined);
    };
    const client = new ExchangeRateClient({ apiKey: 'k', baseUrl: 'http://127.0.0.1:9/api/v1', timeoutMs: 100, retries: 0, fetch: deaf });
    expect(await rejection(client.getLatest())).toMatchObject({ code: 'TIMEOUT' });
    expect(signal?.aborted).toBe(true);
  });
});

describe('answers', () => {
  it('a 200 that is not the envelope is an INVALID_RESPONSE', async () => {
    const s = await stub([{ status: 200, text: '<html>captive portal</html>' }]);
    const error = await rejection(new ExchangeRateClient({ apiKey: 'k', baseUrl: s.api }).getLatest());
    expect(error).toMatchObject({ status: 200, code: 'INVALID_RESPONSE' });
  });

  it('an error status without an envelope takes the code of its status', async () => {
    const s = await stub([{ status: 404, text: 'Not Found' }]);
    expect(await rejection(new ExchangeRateClient({ apiKey: 'k', baseUrl: s.api }).getLatest())).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it('reads the rate-limit and quota headers, null when absent, and X-Request-Id', async () => {
    const s = await stub([
      ok(RECORD, {
        'X-RateLimit-Limit': '60',
        'X-RateLimit-Remaining': '59',
        'X-RateLimit-Reset': '42',
        'X-Quota-Limit': '5000',
        'X-Quota-Remaining': '4999',
        'X-Quota-Reset': '2025-02-01T00:00:00.000Z',
      }),
      failure(400, 'BAD_REQUEST', 'Parameter "days" must be an integer from 1 to 365', { 'X-RateLimit-Limit': '60', 'X-Request-Id': 'req-123' }),
    ]);
    const client = new ExchangeRateClient({ apiKey: 'k', baseUrl: s.api });
    await client.getLatest();
    expect(client.lastRateLimit).toEqual({
      limit: 60,
      remaining: 59,
      reset: 42,
      quotaLimit: 5000,
      quotaRemaining: 4999,
      quotaReset: '2025-02-01T00:00:00.000Z',
    });
    const error = await rejection(client.getHistory({ days: 0 }));
    expect(error.requestId).toBe('req-123');
    expect(client.lastRateLimit).toEqual({ limit: 60, remaining: null, reset: null, quotaLimit: null, quotaRemaining: null, quotaReset: null });
  });
});

describe('requests', () => {
  it('sends x-api-key (none when the key is empty), no undefined parameters, and trims the base URL', async () => {
    const s = await stub([ok(RECORD)]);
    const client = new ExchangeRateClient({ apiKey: 'my-key', baseUrl: `${s.api}//` });
    await client.getLatest();
    await client.getHistory();
    await client.getChart({ points: 50 });
    await client.convert({ amount: '1e3', from: 'CRC' });
    await client.getInsights({ days: 7, locale: 'en' });
    await client.getAnalytics({ from: '2025-01-01', to: '2025-01-31' });
    await client.getStats({ from: '2025-01-01', to: '2025-01-31' });
    await client.getBestRate({ operation: 'buy', type: 'cooperative' });
    await client.getUsage();
    await client.health();
    await new ExchangeRateClient({ apiKey: '', baseUrl: s.api }).health();
    expect(s.requests.map((r) => r.url)).toEqual([
      '/api/v1/exchange-rate/latest',
      '/api/v1/exchange-rate/history',
      '/api/v1/exchange-rate/chart?points=50',
      '/api/v1/convert?amount=1e3&from=CRC',
      '/api/v1/insights?days=7&locale=en',
      '/api/v1/exchange-rate/analytics?from=2025-01-01&to=2025-01-31',
      '/api/v1/exchange-rate/stats?from=2025-01-01&to=2025-01-31',
      '/api/v1/banking/best?operation=buy&type=cooperative',
      '/api/v1/usage',
      '/api/v1/health',
      '/api/v1/health',
    ]);
    expect(s.requests.slice(0, -1).every((r) => r.headers['x-api-key'] === 'my-key')).toBe(true);
    expect(s.requests.at(-1)?.headers['x-api-key']).toBeUndefined();
    expect(s.requests[0]?.headers.accept).toBe('application/json');
  });

  it("sends only the route's own parameters, in the server's order", async () => {
    const s = await stub([ok(RECORD)]);
    const client = new ExchangeRateClient({ apiKey: 'k', baseUrl: s.api });
    // As a JavaScript caller could: a parameter of another route and a typo are left out.
    await client.getHistory({ days: 7, points: 5, dayz: 3 } as never);
    await client.convert({ date: '2025-01-15', rate: 'buy', amount: 2 });
    expect(s.requests.map((r) => r.url)).toEqual(['/api/v1/exchange-rate/history?days=7', '/api/v1/convert?amount=2&rate=buy&date=2025-01-15']);
  });

  it('formats Date parameters as the calendar day in Costa Rica, never the UTC day', async () => {
    const s = await stub([ok(RECORD)]);
    const client = new ExchangeRateClient({ apiKey: 'k', baseUrl: s.api });
    // Costa Rica is UTC−6 all year: 05:59:59Z is still the day before there.
    await client.getByDate(new Date('2025-01-16T05:59:59Z'));
    await client.getByDate(new Date('2025-01-16T06:00:00Z'));
    await client.getRange({ from: new Date('2024-12-31T23:00:00-06:00'), to: new Date('2025-01-01T00:30:00Z') });
    await client.convert({ amount: 1, date: new Date('2025-07-01T02:00:00Z') });
    await client.getBankingRates({ date: new Date('2025-03-01T04:00:00Z') });
    await client.getAnalytics({ from: new Date('2025-01-01T00:00:00-06:00'), to: new Date('2025-01-31T23:59:59-06:00') });
    expect(s.requests.map((r) => decodeURIComponent(r.url))).toEqual([
      '/api/v1/exchange-rate?date=2025-01-15',
      '/api/v1/exchange-rate?date=2025-01-16',
      '/api/v1/exchange-rate/range?from=2024-12-31&to=2024-12-31',
      '/api/v1/convert?amount=1&date=2025-06-30',
      '/api/v1/banking/rates?date=2025-02-28',
      '/api/v1/exchange-rate/analytics?from=2025-01-01&to=2025-01-31',
    ]);
  });

  it('costaRicaDay does not depend on the process time zone', () => {
    expect(costaRicaDay(new Date('2025-01-16T03:00:00Z'))).toBe('2025-01-15');
    expect(costaRicaDay(new Date('2024-02-29T12:00:00Z'))).toBe('2024-02-29');
    expect(costaRicaDay(new Date('2025-01-01T05:00:00Z'))).toBe('2024-12-31');
  });

  it('has a public default base URL and checks its options', () => {
    expect(new ExchangeRateClient({ apiKey: 'k' }).baseUrl).toBe(DEFAULT_BASE_URL);
    expect(DEFAULT_BASE_URL).toMatch(/^https:\/\/.+\/api\/v1$/);
    expect(() => new ExchangeRateClient({} as never)).toThrow(TypeError);
    expect(() => new ExchangeRateClient({ apiKey: 'k', timeoutMs: -1 })).toThrow(/timeoutMs/);
    expect(() => new ExchangeRateClient({ apiKey: 'k', retries: Number.NaN })).toThrow(/retries/);
    const client = new ExchangeRateClient({ apiKey: 'secret-key' });
    expect(JSON.stringify(client)).not.toContain('secret-key');
  });
});
