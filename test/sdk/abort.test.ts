/**
 * Cancelling calls with an AbortSignal, per call and per client, against local stub servers: the
 * call rejects promptly with the signal's reason as fetch does (a DOMException named AbortError
 * for a plain abort()), while connecting, while reading the body and while waiting out a
 * Retry-After, and nothing more is sent.
 */
import { ExchangeRateClient, type FetchLike } from '../../sdk/src';
import { failure, ok, RECORD, type Stub, stubsOfEachTest } from './stub';

const stub = stubsOfEachTest();

/** What `promise` rejects with, and how long it took to. */
async function rejectionOf(promise: Promise<unknown>): Promise<{ error: unknown; ms: number }> {
  const started = Date.now();
  const error = await promise.then(
    () => {
      throw new Error('expected the call to be cancelled');
    },
    (e: unknown) => e,
  );
  return { error, ms: Date.now() - started };
}

/** Aborts `controller` after `ms`, with `reason` when given. */
function abortLater(controller: AbortController, ms: number, ...reason: [unknown?]): void {
  setTimeout(() => controller.abort(...reason), ms);
}

/** Resolves once the stub has received `n` requests. */
async function received(s: Stub, n: number): Promise<void> {
  while (s.requests.length < n) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('a signal per call', () => {
  it('aborting a request in flight rejects at once with an AbortError, as fetch does', async () => {
    const s = await stub([{ hang: true }]);
    const client = new ExchangeRateClient({ apiKey: 'k', baseUrl: s.api, timeoutMs: 10_000 });
    const controller = new AbortController();
    const call = rejectionOf(client.getLatest({ signal: controller.signal }));
    await received(s, 1);
    abortLater(controller, 100);
    const { error, ms } = await call;
    expect(error).toBeInstanceOf(DOMException);
    expect(error).toMatchObject({ name: 'AbortError' });
    // The signal's own reason, the very object fetch would reject with.
    expect(error).toBe(controller.signal.reason);
    expect(ms).toBeLessThan(1000);
    expect(s.requests).toHaveLength(1);
  });

  it('rejects with the reason given to abort(), and with TimeoutError for AbortSignal.timeout()', async () => {
    const s = await stub([{ hang: true }]);
    const client = new ExchangeRateClient({ apiKey: 'k', baseUrl: s.api, timeoutMs: 10_000 });
    const controller = new AbortController();
    const reason = new Error('the user left the page');
    abortLater(controller, 50, reason);
    expect((await rejectionOf(client.getHistory({ days: 7 }, { signal: controller.signal }))).error).toBe(reason);
    const timedOut = await rejectionOf(client.convert({ amount: 1 }, { signal: AbortSignal.timeout(100) }));
    expect(timedOut.error).toMatchObject({ name: 'TimeoutError' });
    expect(timedOut.ms).toBeLessThan(1000);
  });

  it('an already aborted signal rejects without sending anything', async () => {
    const s = await stub([ok(RECORD)]);
    const client = new ExchangeRateClient({ apiKey: 'k', baseUrl: s.api });
    const { error } = await rejectionOf(client.getByDate('2025-01-15', { signal: AbortSignal.abort() }));
    expect(error).toMatchObject({ name: 'AbortError' });
    expect(s.requests).toHaveLength(0);
  });

  it('aborting while a Retry-After is waited out rejects at once, and the retry is never sent', async () => {
    const s = await stub([failure(429, 'RATE_LIMITED', 'Too many requests', { 'Retry-After': '5' }), ok(RECORD)]);
    // The real timer: 5 s is within the default ceiling, so the client waits.
    const client = new ExchangeRateClient({ apiKey: 'k', baseUrl: s.api });
    const controller = new AbortController();
    const call = rejectionOf(client.getLatest({ signal: controller.signal }));
    await received(s, 1);
    abortLater(controller, 200);
    const { error, ms } = await call;
    expect(error).toMatchObject({ name: 'AbortError' });
    expect(ms).toBeLessThan(1500);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(s.requests).toHaveLength(1);
  });

  it('a custom sleep that never ends is cut short as well', async () => {
    const s = await stub([failure(503, 'SERVICE_UNAVAILABLE', 'Database unreachable'), ok(RECORD)]);
    const slept: number[] = [];
    const controller = new AbortController();
    const client = new ExchangeRateClient({
      apiKey: 'k',
      baseUrl: s.api,
      sleep: (ms) => {
        slept.push(ms);
        // Aborted once the sleep has begun, however long the 503 took to come (a loaded machine).
        abortLater(controller, 100);
        return new Promise(() => undefined);
      },
    });
    const { error, ms } = await rejectionOf(client.getLatest({ signal: controller.signal }));
    expect(error).toMatchObject({ name: 'AbortError' });
    expect(ms).toBeLessThan(1000);
    expect(slept).toEqual([500]);
  });

  it('aborting while the body is read rejects at once', async () => {
    const s = await stub([{ stallBody: true }]);
    const client = new ExchangeRateClient({ apiKey: 'k', baseUrl: s.api, timeoutMs: 10_000 });
    const controller = new AbortController();
    const call = rejectionOf(client.getLatest({ signal: controller.signal }));
    await received(s, 1);
    abortLater(controller, 200);
    const { error, ms } = await call;
    expect(error).toMatchObject({ name: 'AbortError' });
    expect(ms).toBeLessThan(1000);
  });

  it('a custom fetch that ignores its signal is cancelled too, and the signal it was given aborts with the reason', async () => {
    let given: AbortSignal | undefined;
    const deaf: FetchLike = (_url, init) => {
      given = init.signal as AbortSignal;
      return new Promise(() => undefined);
    };
    const client = new ExchangeRateClient({ apiKey: 'k', baseUrl: 'http://127.0.0.1:9/api/v1', timeoutMs: 10_000, fetch: deaf });
    const controller = new AbortController();
    abortLater(controller, 50);
    const { error, ms } = await rejectionOf(client.getLatest({ signal: controller.signal }));
    expect(error).toBe(controller.signal.reason);
    expect(ms).toBeLessThan(1000);
    expect(given?.aborted).toBe(true);
    expect(given?.reason).toBe(controller.signal.reason);
  });

  it('cancels that call only: the client goes on', async () => {
    const s = await stub([{ hang: true }, ok(RECORD)]);
    const client = new ExchangeRateClient({ apiKey: 'k', baseUrl: s.api, timeoutMs: 10_000 });
    const controller = new AbortController();
    const call = rejectionOf(client.getLatest({ signal: controller.signal }));
    await received(s, 1);
    controller.abort();
    expect((await call).error).toMatchObject({ name: 'AbortError' });
    expect(await client.getLatest()).toEqual(RECORD);
  });

  it('is not an AbortSignal: a TypeError', async () => {
    const client = new ExchangeRateClient({ apiKey: 'k' });
    const { error } = await rejectionOf(client.getLatest({ signal: 'stop' as never }));
    expect(error).toBeInstanceOf(TypeError);
    expect(error).toHaveProperty('message', 'ExchangeRateClient: the "signal" option of a call must be an AbortSignal (got stop)');
  });
});

describe('a signal per client', () => {
  it('cancels every call in flight, and every later call at once', async () => {
    const s = await stub([{ hang: true }]);
    const controller = new AbortController();
    const client = new ExchangeRateClient({ apiKey: 'k', baseUrl: s.api, timeoutMs: 10_000, signal: controller.signal });
    const calls = [rejectionOf(client.getLatest()), rejectionOf(client.getInsights({ days: 7 }))];
    await received(s, 2);
    controller.abort();
    for (const { error, ms } of await Promise.all(calls)) {
      expect(error).toBe(controller.signal.reason);
      expect(ms).toBeLessThan(1000);
    }
    const later = await rejectionOf(client.health());
    expect(later.error).toMatchObject({ name: 'AbortError' });
    expect(s.requests).toHaveLength(2);
  });

  it('cancels a Retry-After wait, and either signal ends a call', async () => {
    const s = await stub([failure(429, 'RATE_LIMITED', 'Too many requests', { 'Retry-After': '5' }), ok(RECORD)]);
    const clientWide = new AbortController();
    const client = new ExchangeRateClient({ apiKey: 'k', baseUrl: s.api, signal: clientWide.signal });
    const perCall = new AbortController();
    const call = rejectionOf(client.getLatest({ signal: perCall.signal }));
    await received(s, 1);
    const reason = new Error('shutting down');
    clientWide.abort(reason);
    const { error, ms } = await call;
    expect(error).toBe(reason);
    expect(ms).toBeLessThan(1500);
    expect(perCall.signal.aborted).toBe(false);
    expect(s.requests).toHaveLength(1);
  });

  it('keeps no listener on the client signal once a call is over', async () => {
    const s = await stub([ok(RECORD)]);
    const controller = new AbortController();
    const added = jest.spyOn(controller.signal, 'addEventListener');
    const removed = jest.spyOn(controller.signal, 'removeEventListener');
    const client = new ExchangeRateClient({ apiKey: 'k', baseUrl: s.api, signal: controller.signal });
    await client.getLatest();
    await client.getLatest();
    await client.getHistory({ days: 3 });
    expect(added).toHaveBeenCalledTimes(3);
    expect(removed.mock.calls.map((c) => c[1])).toEqual(added.mock.calls.map((c) => c[1]));
  });

  it('is not an AbortSignal: a TypeError at construction', () => {
    expect(() => new ExchangeRateClient({ apiKey: 'k', signal: { aborted: 'no' } as never })).toThrow(
      'ExchangeRateClient: the "signal" option must be an AbortSignal (got [object Object])',
    );
  });
});
