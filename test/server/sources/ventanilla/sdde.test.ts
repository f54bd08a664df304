import { chunkRange } from '../../../../server/sources/chunks';
import { createVentanillaSddeSource, indicatorSide, institutionFromIndicator, parseCuadro1015 } from '../../../../server/sources/ventanilla/sdde';
import { startFakeUpstream, type FakeUpstream } from '../../../../server/demo/bccr-upstream';
import { SYNTHETIC_UNKNOWN_INSTITUTION } from '../../../../server/demo/synthetic-history';
import { fastPolicy, upstreamError } from '../helpers';

type Point = [string, number | string | null];
const indicator = (codigo: string | number | null, nombre: string, points: Point[]) => ({
  codigoIndicador: codigo,
  nombreIndicador: nombre,
  series: points.map(([fecha, valorDatoPorPeriodo]) => ({ fecha, valorDatoPorPeriodo })),
});
const cuadro = (indicadores: unknown[], titulo = 'Tipo de cambio de compra y de venta del dólar en ventanilla') =>
  JSON.stringify({ estado: true, mensaje: 'Consulta exitosa', datos: [{ titulo, periodicidad: 'Diaria', indicadores }] });

describe('indicatorSide and institutionFromIndicator', () => {
  it.each([
    ['Banco de Costa Rica - compra', 'buy', 'Banco de Costa Rica'],
    ['Banco de Costa Rica - Venta', 'sell', 'Banco de Costa Rica'],
    ['Banco de Costa Rica - diferencial', 'spread', 'Banco de Costa Rica'],
    ['Tipo de cambio de compra del Banco Nacional', 'buy', 'Banco Nacional'],
    ['Tipo cambio venta Banco BAC San José S.A.', 'sell', 'Banco BAC San José S.A.'],
    ['BCR (compra)', 'buy', 'BCR'],
    ['Compra: Teledolar S.A.', 'buy', 'Teledolar S.A.'],
    ['Teledolar S.A. tipo de cambio de venta del dólar en ventanilla', 'sell', 'Teledolar S.A.'],
    ['Grupo Mutual Alajuela - La Vivienda de Ahorro y Préstamo - compra', 'buy', 'Grupo Mutual Alajuela - La Vivienda de Ahorro y Préstamo'],
    ['Compra y venta de Coopenae', null, 'y venta de Coopenae'],
    ['Banco Nuevo', null, 'Banco Nuevo'],
  ])('%s → %s of %s', (nombre, side, institution) => {
    expect(indicatorSide(nombre)).toBe(side);
    if (side !== null) expect(institutionFromIndicator(nombre)).toBe(institution);
  });

  it('leaves nothing of a name that is only a side', () => {
    expect(institutionFromIndicator('Tipo de cambio de compra')).toBe('');
  });
});

describe('parseCuadro1015', () => {
  it('pairs buy and sell by catalog code, skips spreads, and sorts days', () => {
    const body = cuadro([
      indicator('3149', 'Banco Nacional de Costa Rica - compra', [
        ['2026-10-21', 452],
        ['2026-10-20', 451.5],
      ]),
      indicator('3208', 'Banco Nacional de Costa Rica - venta', [
        ['2026-10-20T00:00:00', '463.00000000'],
        ['2026-10-21', 464],
      ]),
      indicator('99001', 'Banco Nacional de Costa Rica - diferencial', [['2026-10-20', 11.5]]),
      indicator(3181, 'Otro nombre cualquiera', [['2026-10-20', 450]]),
      indicator(3215, 'Otro nombre cualquiera', [['2026-10-20', 462]]),
    ]);
    expect(parseCuadro1015(body)).toEqual([
      {
        date: '2026-10-20',
        quotes: [
          { institutionId: 'banco-nacional', name: 'Banco Nacional de Costa Rica', type: 'public_bank', buy: 451.5, sell: 463, updatedAt: null, known: true },
          { institutionId: 'bac-san-jose', name: 'Banco BAC San José', type: 'private_bank', buy: 450, sell: 462, updatedAt: null, known: true },
        ],
      },
      {
        date: '2026-10-21',
        quotes: [
          { institutionId: 'banco-nacional', name: 'Banco Nacional de Costa Rica', type: 'public_bank', buy: 452, sell: 464, updatedAt: null, known: true },
        ],
      },
    ]);
  });

  it('maps unknown codes by name, and keeps institutions the catalog does not know', () => {
    const body = cuadro([
      indicator('90001', 'Financiera Desyfin S.A. - compra', [['2026-10-20', 449]]),
      indicator('90002', 'Financiera Desyfin S.A. - venta', [['2026-10-20', 465]]),
      indicator('90004', 'Casa de Cambio Ficticia S.A. - compra', [['2026-10-20', 450.25]]),
      indicator('90005', 'Casa de Cambio Ficticia S.A. - venta', [['2026-10-20', null]]),
      indicator('90006', 'Casa de Cambio Ficticia S.A. - diferencial', [['2026-10-20', null]]),
      indicator('90007', 'Entidad Rara - compra', [['2026-10-20', 448]]),
      indicator('90008', 'Entidad Rara - venta', [['2026-10-20', 470]]),
    ]);
    expect(parseCuadro1015(body)[0]!.quotes).toEqual([
      { institutionId: 'financiera-desyfin', name: 'Financiera Desyfin', type: 'financial', buy: 449, sell: 465, updatedAt: null, known: true },
      {
        institutionId: 'casa-de-cambio-ficticia',
        name: 'Casa de Cambio Ficticia S.A.',
        type: 'exchange_house',
        buy: 450.25,
        sell: null,
        updatedAt: null,
        known: false,
      },
      { institutionId: 'entidad-rara', name: 'Entidad Rara', type: null, buy: 448, sell: 470, updatedAt: null, known: false },
    ]);
  });

  it('types an unknown institution by the group title its part of the table carries', () => {
    const body = JSON.stringify({
      estado: true,
      datos: [
        { titulo: 'Cooperativas', indicadores: [indicator('9', 'Entidad Rara - compra', [['2026-10-20', 448]])] },
        { titulo: 'Bancos privados', indicadores: [indicator('10', 'Banco BCT S.A. - venta', [['2026-10-20', 466]])] },
      ],
    });
    const quotes = parseCuadro1015(body)[0]!.quotes;
    expect(quotes.map((q) => [q.institutionId, q.type, q.known])).toEqual([
      ['entidad-rara', 'cooperative', false],
      ['banco-bct', 'private_bank', true],
    ]);
  });

  it('leaves out days and sides without a value (null or zero)', () => {
    const body = cuadro([
      indicator('3148', 'BCR compra', [
        ['2026-10-19', null],
        ['2026-10-20', 0],
        ['2026-10-21', 450],
      ]),
      indicator('3207', 'BCR venta', [
        ['2026-10-19', null],
        ['2026-10-20', 462],
        ['2026-10-21', 0],
      ]),
    ]);
    expect(parseCuadro1015(body).map((d) => [d.date, d.quotes[0]!.buy, d.quotes[0]!.sell])).toEqual([
      ['2026-10-20', null, 462],
      ['2026-10-21', 450, null],
    ]);
  });

  it('accepts an empty range and indicators straight under datos', () => {
    expect(parseCuadro1015('{"estado":true,"mensaje":"No existen datos para las fechas suministradas.","datos":[]}')).toEqual([]);
    const body = JSON.stringify({ estado: true, datos: [indicator('3201', 'Teledolar compra', [['2026-10-20', 455]])] });
    expect(parseCuadro1015(body)[0]!.quotes[0]).toMatchObject({ institutionId: 'teledolar', type: 'exchange_house', buy: 455, sell: null });
  });

  it.each([
    ['estado false', '{"estado":false,"mensaje":"Token inválido","datos":null}', /estado false: "Token inválido"/],
    ['a CodigoError body', '{"CodigoError":"400","Mensaje":"Formato de fecha inválido"}', /error "400": "Formato de fecha inválido"/],
    ['an HTML page', '<!DOCTYPE html><html><body>Mantenimiento</body></html>', /HTML/],
    ['truncated JSON', cuadro([indicator('3149', 'BN compra', [['2026-10-20', 451]])]).slice(0, 90), /not valid JSON/],
    ['an empty body', ' ', /empty body/],
    ['an array', '[]', /expected an object/],
    ['no datos', '{"estado":true}', /unexpected shape/],
    ['a datos entry without indicators', '{"estado":true,"datos":[{"titulo":"x"}]}', /without indicadores/],
    ['an indicator without series', cuadro([{ codigoIndicador: '3149' }]), /without a series/],
    ['a bad fecha', cuadro([indicator('3149', 'BN compra', [['20/10/2026', 451]])]), /bad fecha/],
    ['a bad value', cuadro([indicator('3149', 'BN compra', [['2026-10-20', 'n/d']])]), /bad value/],
    [
      'two values for one side',
      cuadro([indicator('3149', 'x', [['2026-10-20', 451]]), indicator('9', 'Banco Nacional - compra', [['2026-10-20', 452]])]),
      /two different buy values/,
    ],
    [
      'only series that are no quotes',
      cuadro([indicator('9', 'Diferencial promedio', [['2026-10-20', 3]]), indicator('8', 'Promedio', [])]),
      /no buy or sell series/,
    ],
  ])('refuses %s with a non-retryable parse error', (_name, body, message) => {
    let caught: unknown;
    try {
      parseCuadro1015(body);
    } catch (err) {
      caught = err;
    }
    expect(caught).toMatchObject({ name: 'UpstreamError', source: 'bccr-sdde', kind: 'parse', retryable: false });
    expect((caught as Error).message).toMatch(message);
  });
});

describe('createVentanillaSddeSource against the fake upstream', () => {
  let fake: FakeUpstream;
  beforeAll(async () => {
    fake = await startFakeUpstream({ today: '2026-11-20', token: 'secret-token' });
  });
  afterAll(() => fake.close());
  beforeEach(() => {
    fake.requests.length = 0;
    fake.setFault('ventanillaSdde', null);
    fake.setVentanilla(null);
  });
  const source = (extra: { retries?: number; timeoutMs?: number; token?: string } = {}) => {
    const { policy, delays } = fastPolicy(extra);
    return { src: createVentanillaSddeSource({ ...policy, baseUrl: fake.sddeUrl, token: extra.token ?? 'secret-token' }), delays };
  };

  it('reads a span in one request: every synthetic institution, known or not', async () => {
    const { src } = source();
    expect(src).toMatchObject({ name: 'bccr-sdde', maxChunkDays: 366 });
    const days = await src.fetchRange('2026-10-01', '2026-10-31');
    expect(days.map((d) => d.date)).toHaveLength(31);
    expect(fake.requests).toHaveLength(1);
    const req = fake.requests[0]!;
    expect(req.route).toBe('ventanillaSdde');
    expect(req.path).toMatch(/\/cuadro\/1015\/series$/);
    expect([req.query.get('fechaInicio'), req.query.get('fechaFin'), req.query.get('idioma')]).toEqual(['2026/10/01', '2026/10/31', 'ES']);
    expect(req.headers.authorization).toBe('Bearer secret-token');

    const day = days.find((d) => d.date === '2026-10-20')!;
    const rows = fake.ventanillaFor('2026-10-20');
    expect(day.quotes).toHaveLength(rows.length);
    expect(day.quotes.map((q) => [q.buy, q.sell])).toEqual(rows.map((r) => [r.buy, r.sell]));
    expect(day.quotes.every((q) => q.updatedAt === null)).toBe(true);
    expect(day.quotes.find((q) => q.institutionId === 'banco-nacional')).toMatchObject({ type: 'public_bank', known: true });
    expect(day.quotes.find((q) => q.institutionId === 'bac-san-jose')).toMatchObject({ name: 'Banco BAC San José', type: 'private_bank', known: true });
    expect(day.quotes.find((q) => q.institutionId === 'banco-promerica')).toMatchObject({ sell: null, known: true });
    expect(day.quotes.find((q) => q.name === SYNTHETIC_UNKNOWN_INSTITUTION)).toMatchObject({
      institutionId: 'casa-de-cambio-ficticia',
      type: 'exchange_house',
      known: false,
    });
    expect(new Set(day.quotes.map((q) => q.type))).toEqual(
      new Set(['public_bank', 'private_bank', 'financial', 'mutual', 'cooperative', 'exchange_house', 'brokerage']),
    );
  });

  it('follows per-day overrides and leaves out days without quotes', async () => {
    fake.setVentanilla((d) =>
      d === '2026-11-02' ? null : d === '2026-11-03' ? [{ name: 'Banco de Costa Rica', buyCode: '3148', sellCode: '3207', buy: 500, sell: 510 }] : undefined,
    );
    const days = await source().src.fetchRange('2026-11-01', '2026-11-03');
    expect(days.map((d) => [d.date, d.quotes.length])).toEqual([
      ['2026-11-01', 12],
      ['2026-11-03', 1],
    ]);
    expect(days[1]!.quotes[0]).toEqual({
      institutionId: 'banco-de-costa-rica',
      name: 'Banco de Costa Rica',
      type: 'public_bank',
      buy: 500,
      sell: 510,
      updatedAt: null,
      known: true,
    });
  });

  it('answers [] for a span with no data, and passes out-of-band values through', async () => {
    await expect(source().src.fetchRange('2026-12-01', '2026-12-31')).resolves.toEqual([]);
    fake.setFault('ventanillaSdde', 'empty');
    await expect(source().src.fetchRange('2026-01-01', '2026-01-31')).resolves.toEqual([]);
    fake.setFault('ventanillaSdde', 'outOfBounds');
    const [day] = await source().src.fetchRange('2026-01-05', '2026-01-05');
    expect(day!.quotes.every((q) => q.buy === 99999 && q.sell === 5)).toBe(true);
  });

  it('reads a year in year chunks', async () => {
    const { src } = source();
    let count = 0;
    for (const [from, to] of chunkRange('2025-01-01', '2025-12-31', src.maxChunkDays)) count += (await src.fetchRange(from, to)).length;
    expect(count).toBe(365);
    expect(fake.requests).toHaveLength(1);
  });

  it('refuses spans longer than a year and an empty token', async () => {
    await expect(source().src.fetchRange('2024-01-01', '2025-01-01')).rejects.toThrow(RangeError);
    expect(fake.requests).toHaveLength(0);
    expect(() => createVentanillaSddeSource({ baseUrl: fake.sddeUrl, token: '' })).toThrow(/token/);
  });

  it.each([
    ['a wrong token', 'wrong', undefined, 401],
    ['a 400', 'secret-token', '400', 400],
  ] as const)('does not retry %s', async (_name, token, fault, status) => {
    if (fault) fake.setFault('ventanillaSdde', fault);
    const { src, delays } = source({ token });
    const err = await upstreamError(src.fetchRange('2026-01-01', '2026-01-31'));
    expect(err).toMatchObject({ source: 'bccr-sdde', kind: 'http', status, retryable: false });
    expect(fake.requests).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it.each([
    ['html', /HTML/],
    ['truncated', /not valid JSON/],
    ['estadoFalse', /estado false/],
    ['code503', /unexpected shape/],
  ] as const)('fails on a %s answer without retrying', async (fault, message) => {
    fake.setFault('ventanillaSdde', fault);
    const err = await upstreamError(source().src.fetchRange('2026-01-01', '2026-01-31'));
    expect(err).toMatchObject({ source: 'bccr-sdde', kind: 'parse', retryable: false });
    expect(err.message).toMatch(message);
    expect(fake.requests).toHaveLength(1);
  });

  it.each(['429', '500'] as const)('retries a %s up to the limit', async (fault) => {
    fake.setFault('ventanillaSdde', fault);
    const { src, delays } = source({ retries: 2 });
    const err = await upstreamError(src.fetchRange('2026-01-01', '2026-01-31'));
    expect(err).toMatchObject({ status: Number(fault), retryable: true });
    expect(fake.requests).toHaveLength(3);
    expect(delays).toHaveLength(2);
  });

  it('succeeds after one 429 with Retry-After', async () => {
    fake.setFault('ventanillaSdde', { kind: '429', retryAfter: '2', times: 1 });
    const { src, delays } = source();
    await expect(src.fetchRange('2026-01-01', '2026-01-03')).resolves.toHaveLength(3);
    expect(delays).toEqual([1500]); // capped at maxDelayMs
  });

  it('times out on a hanging upstream', async () => {
    fake.setFault('ventanillaSdde', 'hang');
    const err = await upstreamError(source({ retries: 1, timeoutMs: 100 }).src.fetchRange('2026-01-01', '2026-01-10'));
    expect(err).toMatchObject({ kind: 'timeout', retryable: true });
    expect(fake.requests).toHaveLength(2);
  });
});
