import { createHaciendaSource, createThrottle, parseHacienda } from '../../../server/sources/hacienda';
import { startFakeUpstream, type FakeUpstream } from '../../../server/demo/bccr-upstream';
import { fastPolicy, upstreamError } from './helpers';

describe('parseHacienda', () => {
  it('reads compra and venta under the date as written', () => {
    const body = '{"venta":{"fecha":"2019-10-24T00:00:00-06:00","valor":586},"compra":{"fecha":"2019-10-24T00:00:00-06:00","valor":579.2}}';
    expect(parseHacienda(body)).toEqual({ date: '2019-10-24', buy: 579.2, sell: 586 });
  });

  it('does not shift the day through UTC', () => {
    const late = '{"venta":{"fecha":"2026-11-20T23:30:00-06:00","valor":506.1},"compra":{"fecha":"2026-11-20T23:30:00-06:00","valor":500}}';
    expect(parseHacienda(late).date).toBe('2026-11-20');
    const early = '{"venta":{"fecha":"2026-11-21T00:00:00+02:00","valor":506.1},"compra":{"fecha":"2026-11-21T00:00:00+02:00","valor":500}}';
    expect(parseHacienda(early).date).toBe('2026-11-21');
  });

  it('accepts a plain date and string values, and a zero as no value', () => {
    const body = '{"venta":{"fecha":"2026-11-20","valor":"506.10"},"compra":{"fecha":"2026-11-20","valor":0}}';
    expect(parseHacienda(body)).toEqual({ date: '2026-11-20', buy: null, sell: 506.1 });
  });

  it('treats the 200 {"code":503} body as a retryable error', () => {
    expect(() => parseHacienda('{"code":503,"status":"Service unavailable"}')).toThrow(
      expect.objectContaining({ source: 'hacienda', retryable: true, status: 503, message: expect.stringMatching(/Service unavailable/) }),
    );
    expect(() => parseHacienda('{"code":404,"status":"Not found"}')).toThrow(expect.objectContaining({ retryable: false, status: 404 }));
  });

  it.each([
    ['HTML', '<html>Bloqueado</html>', /HTML/],
    ['truncated JSON', '{"venta":{"fecha":"2026-11-20","val', /not valid JSON/],
    ['an empty object', '{}', /no compra object/],
    ['a bad fecha', '{"venta":{"fecha":"20/11/2026","valor":1},"compra":{"fecha":"20/11/2026","valor":1}}', /bad compra.fecha/],
    ['a bad valor', '{"venta":{"fecha":"2026-11-20","valor":"x"},"compra":{"fecha":"2026-11-20","valor":1}}', /bad venta.valor/],
    ['dates that disagree', '{"venta":{"fecha":"2026-11-21","valor":1},"compra":{"fecha":"2026-11-20","valor":1}}', /compra is dated/],
  ])('refuses %s', (_name, body, message) => {
    expect(() => parseHacienda(body)).toThrow(expect.objectContaining({ kind: 'parse', retryable: false, message: expect.stringMatching(message) }));
  });
});

describe('createThrottle', () => {
  it('spaces calls by the interval, queueing concurrent ones', async () => {
    let clock = 1_000_000;
    const waits: number[] = [];
    const throttle = createThrottle(
      1000,
      async (ms) => void waits.push(ms),
      () => clock,
    );
    await Promise.all([throttle(), throttle(), throttle()]);
    clock += 5000;
    await throttle();
    expect(waits).toEqual([1000, 2000]);
  });
});

describe('createHaciendaSource against the fake upstream', () => {
  let fake: FakeUpstream;
  beforeAll(async () => {
    fake = await startFakeUpstream({ today: '2026-11-20' });
  });
  afterAll(() => fake.close());
  beforeEach(() => {
    fake.requests.length = 0;
    fake.setFault('hacienda', null);
  });
  const source = (extra: { retries?: number; timeoutMs?: number } = {}, minIntervalMs = 0) => {
    const { policy, delays } = fastPolicy(extra);
    return { src: createHaciendaSource({ ...policy, baseUrl: fake.haciendaUrl, minIntervalMs }), delays };
  };

  it('returns today when it is inside the span, else nothing', async () => {
    const { src } = source();
    expect(src).toMatchObject({ name: 'hacienda', provider: 'Hacienda' });
    await expect(src.fetchRange('2026-11-01', '2026-11-30')).resolves.toEqual([{ date: '2026-11-20', ...fake.rateFor('2026-11-20') }]);
    await expect(src.fetchRange('2026-11-20', '2026-11-20')).resolves.toHaveLength(1);
    await expect(src.fetchRange('1983-01-01', '2026-11-19')).resolves.toEqual([]);
    expect(fake.requests[0]!.path).toBe('/indicadores/tc/dolar');
  });

  it('reads today from an answer dated in the older …T00:00:00-06:00 form as well', async () => {
    const older = await startFakeUpstream({ today: '2026-11-20', haciendaDates: 'offset' });
    try {
      const src = createHaciendaSource({ ...fastPolicy().policy, baseUrl: older.haciendaUrl, minIntervalMs: 0 });
      await expect(src.fetchRange('2026-11-20', '2026-11-20')).resolves.toEqual([{ date: '2026-11-20', ...older.rateFor('2026-11-20') }]);
    } finally {
      await older.close();
    }
  });

  it('retries the 200 {"code":503} body and recovers', async () => {
    fake.setFault('hacienda', { kind: 'code503', times: 2 });
    const { src, delays } = source({ retries: 3 });
    await expect(src.fetchRange('2026-11-20', '2026-11-20')).resolves.toHaveLength(1);
    expect(fake.requests).toHaveLength(3);
    expect(delays).toHaveLength(2);
  });

  it('gives up on {"code":503} after the limit, still retryable', async () => {
    fake.setFault('hacienda', 'code503');
    const err = await upstreamError(source({ retries: 1 }).src.fetchRange('2026-11-20', '2026-11-20'));
    expect(err).toMatchObject({ retryable: true, status: 503 });
    expect(fake.requests).toHaveLength(2);
  });

  it.each([
    ['html', /HTML/],
    ['truncated', /not valid JSON/],
    ['empty', /no compra object/],
  ] as const)('fails on a %s answer without retrying', async (fault, message) => {
    fake.setFault('hacienda', fault);
    const err = await upstreamError(source().src.fetchRange('2026-11-20', '2026-11-20'));
    expect(err).toMatchObject({ kind: 'parse', retryable: false });
    expect(err.message).toMatch(message);
    expect(fake.requests).toHaveLength(1);
  });

  it('retries a 429 and a 500, and times out on a hang', async () => {
    fake.setFault('hacienda', '429');
    expect(await upstreamError(source({ retries: 1 }).src.fetchRange('2026-11-20', '2026-11-20'))).toMatchObject({ status: 429, retryable: true });
    fake.setFault('hacienda', '500');
    expect(await upstreamError(source({ retries: 1 }).src.fetchRange('2026-11-20', '2026-11-20'))).toMatchObject({ status: 500, retryable: true });
    fake.setFault('hacienda', 'hang');
    expect(await upstreamError(source({ retries: 0, timeoutMs: 100 }).src.fetchRange('2026-11-20', '2026-11-20'))).toMatchObject({ kind: 'timeout' });
    expect(fake.requests).toHaveLength(5);
  });

  it('keeps its own requests apart by the minimum interval, retries included', async () => {
    const { policy } = fastPolicy({ retries: 1 });
    const { sleep: _recorded, ...realTime } = policy; // the throttle must really wait here
    const src = createHaciendaSource({ ...realTime, baseUrl: fake.haciendaUrl, minIntervalMs: 120 });
    fake.setFault('hacienda', { kind: '500', times: 1 });
    const started = Date.now();
    await Promise.all([src.fetchRange('2026-11-20', '2026-11-20'), src.fetchRange('2026-11-20', '2026-11-20')]);
    expect(fake.requests).toHaveLength(3);
    expect(Date.now() - started).toBeGreaterThanOrEqual(230);
  });
});
