import { backoffDelayMs, fetchUpstream, parseRetryAfter } from '../../../server/sources/http';
import { UpstreamError } from '../../../server/sources/types';
import { startFakeUpstream, type FakeUpstream } from '../../../server/demo/bccr-upstream';
import { waitFor } from '../../helpers/sync';
import { fastPolicy, upstreamError } from './helpers';

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-11-21T12:00:00Z');
  it('reads delay-seconds and HTTP-dates', () => {
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Sat, 21 Nov 2026 12:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Sat, 21 Nov 2026 11:00:00 GMT', now)).toBe(0);
  });
  it('ignores a missing or unreadable header', () => {
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-1', now)).toBeUndefined();
  });
});

describe('backoffDelayMs', () => {
  it('doubles the ceiling each attempt and caps it', () => {
    expect([0, 1, 2, 3, 4].map((a) => backoffDelayMs(a, 100, 1000, () => 0.999))).toEqual([99, 199, 399, 799, 999]);
    expect(backoffDelayMs(10, 100, 1000, () => 0.5)).toBe(500);
    expect(backoffDelayMs(3, 100, 1000, () => 0)).toBe(0);
  });
});

describe('fetchUpstream', () => {
  let fake: FakeUpstream;
  let url: string;
  beforeAll(async () => {
    fake = await startFakeUpstream({ today: '2026-11-20' });
    url = `${fake.haciendaUrl}/indicadores/tc/dolar`;
  });
  afterAll(() => fake.close());
  beforeEach(() => {
    fake.requests.length = 0;
    for (const route of ['sdde', 'site', 'siteToken', 'hacienda'] as const) fake.setFault(route, null);
  });

  it('returns status, text and headers, and sends the headers it is given', async () => {
    const { policy, delays } = fastPolicy();
    const res = await fetchUpstream(url, { ...policy, source: 'hacienda', headers: { 'X-Probe': 'yes' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/json/);
    expect(JSON.parse(res.text)).toHaveProperty('venta');
    expect(fake.requests[0]!.headers['x-probe']).toBe('yes');
    expect(delays).toEqual([]);
  });

  it('retries a 500 with growing backoff and gives up after the limit', async () => {
    fake.setFault('hacienda', '500');
    const { policy, delays } = fastPolicy({ retries: 3 });
    const err = await upstreamError(fetchUpstream(url, { ...policy, source: 'hacienda' }));
    expect(err).toMatchObject({ source: 'hacienda', kind: 'http', status: 500, retryable: true });
    expect(err.message).toMatch(/gave up after 4 attempts/);
    expect(fake.requests).toHaveLength(4);
    expect(delays).toEqual([5, 10, 20]); // random 0.5 × 10·2^n
  });

  it('recovers when the 429s stop before the limit', async () => {
    fake.setFault('hacienda', { kind: '429', times: 2 });
    const { policy, delays } = fastPolicy({ retries: 3 });
    await expect(fetchUpstream(url, { ...policy, source: 'hacienda' })).resolves.toMatchObject({ status: 200 });
    expect(fake.requests).toHaveLength(3);
    expect(delays).toHaveLength(2);
  });

  it('honours Retry-After in seconds, capped by maxDelayMs', async () => {
    fake.setFault('hacienda', { kind: '429', retryAfter: '1' });
    const { policy, delays } = fastPolicy({ retries: 1 });
    const err = await upstreamError(fetchUpstream(url, { ...policy, source: 'hacienda' }));
    expect(err).toMatchObject({ status: 429, retryable: true, retryAfterMs: 1000 });
    expect(delays).toEqual([1000]);

    fake.setFault('hacienda', { kind: '429', retryAfter: '120' });
    const capped = fastPolicy({ retries: 1 });
    await upstreamError(fetchUpstream(url, { ...capped.policy, source: 'hacienda' }));
    expect(capped.delays).toEqual([1500]);
  });

  it('honours Retry-After given as an HTTP-date', async () => {
    fake.setFault('hacienda', { kind: '429', retryAfter: new Date(Date.now() + 60_000).toUTCString() });
    const { policy, delays } = fastPolicy({ retries: 1 });
    const err = await upstreamError(fetchUpstream(url, { ...policy, source: 'hacienda' }));
    expect(err.retryAfterMs).toBeGreaterThan(55_000);
    expect(delays).toEqual([1500]);
  });

  it('really waits with the default sleep', async () => {
    fake.setFault('hacienda', { kind: '429', retryAfter: '0', times: 1 });
    await expect(fetchUpstream(url, { source: 'hacienda', timeoutMs: 1000, retries: 1, baseDelayMs: 1 })).resolves.toMatchObject({ status: 200 });
  });

  it.each([
    ['400', 400, /HTTP 400.*CodigoError.*revise el formato/],
    ['401', 401, /HTTP 401/],
  ] as const)('does not retry a %s', async (fault, status, message) => {
    fake.setFault('hacienda', fault);
    const { policy, delays } = fastPolicy();
    const err = await upstreamError(fetchUpstream(url, { ...policy, source: 'hacienda' }));
    expect(err).toMatchObject({ status, retryable: false, kind: 'http' });
    expect(err.message).toMatch(message);
    expect(fake.requests).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it('times out on an upstream that never answers, on every attempt', async () => {
    fake.setFault('hacienda', 'hang');
    const { policy } = fastPolicy({ retries: 1, timeoutMs: 150 });
    const started = Date.now();
    const err = await upstreamError(fetchUpstream(url, { ...policy, source: 'hacienda' }));
    expect(err).toMatchObject({ kind: 'timeout', retryable: true });
    expect(err.message).toMatch(/within 150 ms/);
    expect(fake.requests).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('reports a refused connection as a retryable network error', async () => {
    const closed = await startFakeUpstream();
    await closed.close();
    const { policy, delays } = fastPolicy({ retries: 1 });
    const err = await upstreamError(fetchUpstream(`${closed.url}/x`, { ...policy, source: 'hacienda' }));
    expect(err).toMatchObject({ kind: 'network', retryable: true });
    expect(err.message).toMatch(/ECONNREFUSED/);
    expect(delays).toHaveLength(1);
  });

  it('retries when checkBody finds a retryable error inside a 200', async () => {
    fake.setFault('hacienda', { kind: 'code503', times: 1 });
    const { policy } = fastPolicy();
    const checkBody = (text: string) => {
      if (text.includes('"code":503')) throw new UpstreamError('hacienda: 503 in a 200', { source: 'hacienda', kind: 'parse', retryable: true });
    };
    await expect(fetchUpstream(url, { ...policy, source: 'hacienda', checkBody })).resolves.toMatchObject({ status: 200 });
    expect(fake.requests).toHaveLength(2);
  });

  it('stops at once when the caller aborts', async () => {
    fake.setFault('hacienda', 'hang');
    const controller = new AbortController();
    const { policy } = fastPolicy({ retries: 3, timeoutMs: 5000 });
    const failed = upstreamError(fetchUpstream(url, { ...policy, source: 'hacienda', signal: controller.signal }));
    // Aborted while the request hangs upstream (however long it took to get there), not before it left.
    await waitFor(async () => (fake.requests.length > 0 ? true : undefined), 'the request to reach the upstream');
    controller.abort();
    const err = await failed;
    expect(err).toMatchObject({ kind: 'aborted', retryable: false });
    expect(fake.requests).toHaveLength(1);
  });
});
