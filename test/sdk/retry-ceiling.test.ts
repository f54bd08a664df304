/**
 * The ceiling on retry waits (`maxRetryWaitMs`, default 10 s) against a local stub server: a
 * Retry-After over it ends the call at once with the answer's error and its retryAfter, one
 * within it is waited out; backoff delays stop growing at it.
 */
import { ExchangeRateClient } from '../../sdk/src';
import { closedPort, failure, fakeSleep, ok, RECORD, rejection, stubsOfEachTest } from './stub';

const stub = stubsOfEachTest();

const rateLimited = (seconds: number) => failure(429, 'RATE_LIMITED', 'Too many requests', { 'Retry-After': String(seconds) });

describe('the default ceiling of 10 s', () => {
  it('a 429 with Retry-After 60 rejects at once, with retryAfter 60 on the error', async () => {
    const s = await stub([rateLimited(60), ok(RECORD)]);
    // The real timer: nothing may be waited.
    const client = new ExchangeRateClient({ apiKey: 'k', baseUrl: s.api });
    expect(client.maxRetryWaitMs).toBe(10_000);
    const started = Date.now();
    const error = await rejection(client.getLatest());
    expect(Date.now() - started).toBeLessThan(1000);
    expect(error).toMatchObject({ status: 429, code: 'RATE_LIMITED', retryAfter: 60, message: 'Too many requests' });
    expect(s.requests).toHaveLength(1);
  });

  it('a 429 with Retry-After 1 is waited out (a real second) and retried', async () => {
    const s = await stub([rateLimited(1), ok(RECORD)]);
    const client = new ExchangeRateClient({ apiKey: 'k', baseUrl: s.api });
    const started = Date.now();
    expect(await client.getLatest()).toEqual(RECORD);
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(950);
    expect(elapsed).toBeLessThan(5000);
    expect(s.requests).toHaveLength(2);
  });

  it('a Retry-After equal to the ceiling is waited, one second more is not', async () => {
    const s = await stub([rateLimited(10), rateLimited(11), ok(RECORD)]);
    const { sleep, waits } = fakeSleep();
    const client = new ExchangeRateClient({ apiKey: 'k', baseUrl: s.api, retries: 5, sleep });
    const error = await rejection(client.getLatest());
    expect(error).toMatchObject({ code: 'RATE_LIMITED', retryAfter: 11 });
    expect(waits).toEqual([10_000]);
    expect(s.requests).toHaveLength(2);
  });

  it('a 503 asking for longer than the ceiling rejects at once too', async () => {
    const s = await stub([failure(503, 'SERVICE_UNAVAILABLE', 'Database unreachable', { 'Retry-After': '30' }), ok(RECORD)]);
    const { sleep, waits } = fakeSleep();
    const error = await rejection(new ExchangeRateClient({ apiKey: 'k', baseUrl: s.api, sleep }).getLatest());
    expect(error).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE', retryAfter: 30 });
    expect(waits).toEqual([]);
    expect(s.requests).toHaveLength(1);
  });
});

describe('a ceiling of its own, per client', () => {
  it('maxRetryWaitMs 60000 waits out a Retry-After of 60 s', async () => {
    const s = await stub([rateLimited(60), ok(RECORD)]);
    const { sleep, waits } = fakeSleep();
    const patient = new ExchangeRateClient({ apiKey: 'k', baseUrl: s.api, maxRetryWaitMs: 60_000, sleep });
    expect(await patient.getLatest()).toEqual(RECORD);
    expect(waits).toEqual([60_000]);
    // Another client keeps the default.
    const { sleep: otherSleep, waits: otherWaits } = fakeSleep();
    const s2 = await stub([rateLimited(60), ok(RECORD)]);
    expect(await rejection(new ExchangeRateClient({ apiKey: 'k', baseUrl: s2.api, sleep: otherSleep }).getLatest())).toMatchObject({ retryAfter: 60 });
    expect(otherWaits).toEqual([]);
  });

  it('a lower ceiling refuses a shorter Retry-After', async () => {
    const s = await stub([rateLimited(3), ok(RECORD)]);
    const { sleep, waits } = fakeSleep();
    const hurried = new ExchangeRateClient({ apiKey: 'k', baseUrl: s.api, maxRetryWaitMs: 2_000, sleep });
    expect(await rejection(hurried.getLatest())).toMatchObject({ code: 'RATE_LIMITED', retryAfter: 3 });
    expect(waits).toEqual([]);
  });

  it('Infinity waits whatever the server asks', async () => {
    const s = await stub([rateLimited(3600), ok(RECORD)]);
    const { sleep, waits } = fakeSleep();
    const client = new ExchangeRateClient({ apiKey: 'k', baseUrl: s.api, maxRetryWaitMs: Number.POSITIVE_INFINITY, sleep });
    expect(await client.getLatest()).toEqual(RECORD);
    expect(waits).toEqual([3_600_000]);
  });

  it('backoff delays stop growing at the ceiling instead of failing', async () => {
    const port = await closedPort();
    const { sleep, waits } = fakeSleep();
    const client = new ExchangeRateClient({
      apiKey: 'k',
      baseUrl: `http://127.0.0.1:${port}/api/v1`,
      retries: 4,
      retryDelayMs: 1000,
      maxRetryWaitMs: 2500,
      sleep,
    });
    expect(await rejection(client.getLatest())).toMatchObject({ code: 'NETWORK_ERROR' });
    expect(waits).toEqual([1000, 2000, 2500, 2500]);
  });

  it('is checked like the other options', () => {
    expect(() => new ExchangeRateClient({ apiKey: 'k', maxRetryWaitMs: -1 })).toThrow(
      'ExchangeRateClient: "maxRetryWaitMs" must be a non-negative number (got -1)',
    );
    expect(() => new ExchangeRateClient({ apiKey: 'k', maxRetryWaitMs: Number.NaN })).toThrow(/"maxRetryWaitMs"/);
    // Infinity is the way to say "no ceiling" here, but not a timeout or a backoff.
    expect(() => new ExchangeRateClient({ apiKey: 'k', retryDelayMs: Number.POSITIVE_INFINITY })).toThrow(/"retryDelayMs"/);
    expect(new ExchangeRateClient({ apiKey: 'k', maxRetryWaitMs: 0 }).maxRetryWaitMs).toBe(0);
  });
});
