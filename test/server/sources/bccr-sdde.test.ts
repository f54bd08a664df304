import { createSddeSource, mergeSides, parseSddeSeries, toSddeDate } from '../../../server/sources/bccr-sdde';
import { chunkRange } from '../../../server/sources/chunks';
import { startFakeUpstream, type FakeUpstream } from '../../../server/demo/bccr-upstream';
import { fastPolicy, upstreamError } from './helpers';

describe('parseSddeSeries', () => {
  it('reads values with 8 decimals and fechas with a time', () => {
    const body =
      '{"estado":true,"mensaje":"Consulta exitosa","datos":[{"codigoIndicador":"318","nombreIndicador":"Tipo cambio venta",' +
      '"series":[{"fecha":"2026-09-14T00:00:00","valorDatoPorPeriodo":449.94000000},{"fecha":"2026-09-15","valorDatoPorPeriodo":496.44000000}]}]}';
    expect(parseSddeSeries(body, '318')).toEqual(
      new Map([
        ['2026-09-14', 449.94],
        ['2026-09-15', 496.44],
      ]),
    );
  });

  it('takes numeric strings and skips null values', () => {
    const body =
      '{"estado":true,"datos":[{"codigoIndicador":317,"series":[{"fecha":"2026-09-14","valorDatoPorPeriodo":"443.10000000"},{"fecha":"2026-09-15","valorDatoPorPeriodo":null}]}]}';
    expect(parseSddeSeries(body, '317')).toEqual(new Map([['2026-09-14', 443.1]]));
  });

  it('treats the empty-range message as an empty answer', () => {
    expect(parseSddeSeries('{"estado":true,"mensaje":"No existen datos para las fechas suministradas.","datos":[]}').size).toBe(0);
  });

  it.each([
    ['estado false', '{"estado":false,"mensaje":"Token inválido","datos":null}', /estado false: "Token inválido"/],
    ['a CodigoError body', '{"CodigoError":"400","Mensaje":"Formato de fecha inválido"}', /error "400": "Formato de fecha inválido"/],
    ['an HTML page', '<!DOCTYPE html><html><body>Mantenimiento</body></html>', /HTML/],
    ['truncated JSON', '{"estado":true,"mensaje":"Consulta exitosa","datos":[{"codigoIndicador":"318","series":[{"fecha":"2026-09-1', /not valid JSON/],
    ['an empty body', '', /empty body/],
    ['an array', '[1,2]', /expected an object/],
    ['no datos', '{"estado":true,"mensaje":"ok"}', /unexpected shape/],
    ['a bad fecha', '{"estado":true,"datos":[{"series":[{"fecha":"14/09/2026","valorDatoPorPeriodo":1}]}]}', /bad fecha/],
    ['an impossible fecha', '{"estado":true,"datos":[{"series":[{"fecha":"2026-02-30","valorDatoPorPeriodo":1}]}]}', /bad fecha/],
    ['a bad value', '{"estado":true,"datos":[{"series":[{"fecha":"2026-09-14","valorDatoPorPeriodo":"n/a"}]}]}', /bad value/],
    ['no series', '{"estado":true,"datos":[{"codigoIndicador":"318"}]}', /without a series/],
    [
      'conflicting duplicates',
      '{"estado":true,"datos":[{"series":[{"fecha":"2026-09-14","valorDatoPorPeriodo":1},{"fecha":"2026-09-14","valorDatoPorPeriodo":2}]}]}',
      /two different values/,
    ],
  ])('refuses %s with a non-retryable parse error', (_name, body, message) => {
    let caught: unknown;
    try {
      parseSddeSeries(body);
    } catch (err) {
      caught = err;
    }
    expect(caught).toMatchObject({ name: 'UpstreamError', source: 'bccr-sdde', kind: 'parse', retryable: false });
    expect((caught as Error).message).toMatch(message);
  });

  it('refuses an answer for another indicator', () => {
    const body = '{"estado":true,"datos":[{"codigoIndicador":"318","series":[]}]}';
    expect(() => parseSddeSeries(body, '317')).toThrow(/asked for indicator 317/);
  });
});

describe('mergeSides and toSddeDate', () => {
  it('joins sides by date, ascending, within the span', () => {
    const buy = new Map([
      ['2026-01-02', 1],
      ['2026-01-01', 2],
      ['2025-12-31', 9],
    ]);
    const sell = new Map([
      ['2026-01-01', 3],
      ['2026-01-03', 4],
    ]);
    expect(mergeSides(buy, sell, '2026-01-01', '2026-01-03')).toEqual([
      { date: '2026-01-01', buy: 2, sell: 3 },
      { date: '2026-01-02', buy: 1, sell: null },
      { date: '2026-01-03', buy: null, sell: 4 },
    ]);
  });
  it('writes dates as yyyy/mm/dd', () => expect(toSddeDate('2026-09-04')).toBe('2026/09/04'));
});

describe('createSddeSource against the fake upstream', () => {
  let fake: FakeUpstream;
  beforeAll(async () => {
    fake = await startFakeUpstream({ today: '2026-11-20', token: 'secret-token' });
  });
  afterAll(() => fake.close());
  beforeEach(() => {
    fake.requests.length = 0;
    fake.setFault('sdde', null);
    fake.setRates(null);
  });
  const source = (extra: { retries?: number; timeoutMs?: number; token?: string } = {}) => {
    const { policy, delays } = fastPolicy(extra);
    return { src: createSddeSource({ ...policy, baseUrl: fake.sddeUrl, token: extra.token ?? 'secret-token' }), delays };
  };

  it('fetches a year of buy and sell and merges them by date', async () => {
    const { src } = source();
    expect(src).toMatchObject({ name: 'bccr-sdde', provider: 'BCCR', maxChunkDays: 366 });
    const rows = await src.fetchRange('2024-01-01', '2024-12-31');
    expect(rows).toHaveLength(366);
    expect(rows[59]).toEqual({ date: '2024-02-29', ...fake.rateFor('2024-02-29') });
    expect(rows.map((r) => r.date)).toEqual([...rows.map((r) => r.date)].sort());
    // Buy and sell are asked at once: either may arrive first.
    expect(fake.requests).toHaveLength(2);
    const buyReq = fake.requests.find((r) => /indicadoresEconomicos\/317\/series$/.test(r.path));
    const sellReq = fake.requests.find((r) => /indicadoresEconomicos\/318\/series$/.test(r.path));
    expect(sellReq).toBeDefined();
    expect(buyReq!.query.get('fechaInicio')).toBe('2024/01/01');
    expect(buyReq!.query.get('fechaFin')).toBe('2024/12/31');
    expect(buyReq!.query.get('idioma')).toBe('ES');
    expect(buyReq!.headers.authorization).toBe('Bearer secret-token');
  });

  it('keeps one-sided days and leaves out days without data', async () => {
    fake.setRates((d) => (d === '2026-11-02' ? { buy: null, sell: 470.5 } : d === '2026-11-03' ? null : undefined));
    const rows = await source().src.fetchRange('2026-11-01', '2026-11-04');
    expect(rows.map((r) => r.date)).toEqual(['2026-11-01', '2026-11-02', '2026-11-04']);
    expect(rows[1]).toEqual({ date: '2026-11-02', buy: null, sell: 470.5 });
  });

  it('answers [] for a span with no data', async () => {
    await expect(source().src.fetchRange('2026-12-01', '2026-12-31')).resolves.toEqual([]);
    fake.setFault('sdde', 'empty');
    await expect(source().src.fetchRange('2026-01-01', '2026-01-31')).resolves.toEqual([]);
  });

  it('passes out-of-band values through: the sanity check is the sync’s job', async () => {
    fake.setFault('sdde', 'outOfBounds');
    const rows = await source().src.fetchRange('2026-01-01', '2026-01-02');
    expect(rows.flatMap((r) => [r.buy, r.sell]).sort()).toEqual([5, 5, 99999, 99999]);
  });

  it('refuses spans longer than a year and reversed spans', async () => {
    await expect(source().src.fetchRange('2024-01-01', '2025-01-01')).rejects.toThrow(RangeError);
    await expect(source().src.fetchRange('2024-01-02', '2024-01-01')).rejects.toThrow(RangeError);
    expect(fake.requests).toHaveLength(0);
  });

  it('refuses an empty token up front', () => {
    expect(() => createSddeSource({ baseUrl: fake.sddeUrl, token: ' ' })).toThrow(/token/);
  });

  it.each([
    ['a wrong token', 'wrong', undefined, 401, /HTTP 401/],
    ['a 400', 'secret-token', '400', 400, /CodigoError/],
  ] as const)('does not retry %s', async (_name, token, fault, status, message) => {
    if (fault) fake.setFault('sdde', fault);
    const { src, delays } = source({ token });
    const err = await upstreamError(src.fetchRange('2026-01-01', '2026-01-31'));
    expect(err).toMatchObject({ source: 'bccr-sdde', status, retryable: false });
    expect(err.message).toMatch(message);
    expect(fake.requests).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it.each([
    ['html', /HTML/],
    ['truncated', /not valid JSON/],
    ['estadoFalse', /estado false/],
  ] as const)('fails on a %s answer without retrying', async (fault, message) => {
    fake.setFault('sdde', fault);
    const err = await upstreamError(source().src.fetchRange('2026-01-01', '2026-01-31'));
    expect(err).toMatchObject({ kind: 'parse', retryable: false });
    expect(err.message).toMatch(message);
    expect(fake.requests).toHaveLength(1);
  });

  it.each(['429', '500'] as const)('retries a %s up to the limit', async (fault) => {
    fake.setFault('sdde', fault);
    const { src, delays } = source({ retries: 2 });
    const err = await upstreamError(src.fetchRange('2026-01-01', '2026-01-31'));
    expect(err).toMatchObject({ status: Number(fault), retryable: true });
    expect(fake.requests).toHaveLength(3);
    expect(delays).toHaveLength(2);
  });

  it('succeeds after a 429 with Retry-After, waiting what it asked', async () => {
    fake.setFault('sdde', { kind: '429', retryAfter: '1', times: 1 });
    const { src, delays } = source();
    const rows = await src.fetchRange('2026-01-01', '2026-01-10');
    expect(rows).toHaveLength(10);
    expect(delays).toEqual([1000]);
  });

  it('times out on a hanging upstream', async () => {
    fake.setFault('sdde', 'hang');
    const err = await upstreamError(source({ retries: 1, timeoutMs: 100 }).src.fetchRange('2026-01-01', '2026-01-10'));
    expect(err).toMatchObject({ kind: 'timeout', retryable: true });
    expect(fake.requests).toHaveLength(2);
  });

  it('reads the fake’s whole history in year chunks without a gap', async () => {
    const { src } = source();
    let count = 0;
    for (const [from, to] of chunkRange('2019-01-01', fake.today, src.maxChunkDays)) count += (await src.fetchRange(from, to)).length;
    expect(count).toBe(2881); // 2019-01-01 .. 2026-11-20, every calendar day
  });
});
