import { createCsrfTokenProvider } from '../../../../server/sources/bccr-site';
import { createVentanillaSiteSource, parseAmount, parseCrTimestamp, parseCuadroPersonalizado } from '../../../../server/sources/ventanilla/site';
import { startFakeUpstream, type FakeUpstream } from '../../../../server/demo/bccr-upstream';
import { SYNTHETIC_UNKNOWN_INSTITUTION } from '../../../../server/demo/synthetic-history';
import { fastPolicy, upstreamError } from '../helpers';

const HEADER = ['Entidad', 'Compra', 'Venta', 'Diferencial', 'Fecha de última actualización'];
const table = (...rows: string[][]) =>
  JSON.stringify({ estado: true, mensaje: 'Consulta exitosa', datos: { indicadores: rows.map((r) => r.map((valorEspanol) => ({ valorEspanol }))) } });
const DATE = '2026-10-20';

describe('parseAmount', () => {
  it.each([
    ['451,00', 451],
    ['451,5', 451.5],
    ['1.234,56', 1234.56],
    ['1.234', 1234],
    ['₡ 463,25', 463.25],
    ['451.25', 451.25],
    ['451', 451],
  ])('%s → %s', (text, value) => expect(parseAmount(text)).toBe(value));

  it.each(['', '-', '—', 'N/D', 'n/d', 'ND', 'N.D.', '0', '0,00'])('%s is no value', (text) => expect(parseAmount(text)).toBeNull());

  it.each(['abc', '451,00,00', '1,234.56', '12.34.56'])('refuses %s', (text) => {
    expect(() => parseAmount(text)).toThrow(expect.objectContaining({ kind: 'parse', message: expect.stringMatching(/not a number/) }));
  });
});

describe('parseCrTimestamp', () => {
  it.each([
    ['20/10/2026 08:30 a.m.', '2026-10-20T14:30:00.000Z'],
    ['20/10/2026 08:30 p.m.', '2026-10-21T02:30:00.000Z'],
    ['20/10/2026 8:30 a. m.', '2026-10-20T14:30:00.000Z'],
    ['20/10/2026 03:15 p. m.', '2026-10-20T21:15:00.000Z'],
    ['20/10/2026 12:05 a.m.', '2026-10-20T06:05:00.000Z'],
    ['20/10/2026 12:05 p.m.', '2026-10-20T18:05:00.000Z'],
    ['20/10/2026 12:05 p. m.', '2026-10-20T18:05:00.000Z'],
    ['20/10/2026 11:59 p.m.', '2026-10-21T05:59:00.000Z'],
    ['20/10/2026 08:30:15 AM', '2026-10-20T14:30:15.000Z'],
    ['20/10/2026 08:30 pm', '2026-10-21T02:30:00.000Z'],
    ['20/10/2026\u00a008:30\u202fa.\u00a0m.', '2026-10-20T14:30:00.000Z'],
    ['20/10/2026 14:30', '2026-10-20T20:30:00.000Z'],
    ['1/2/2026 9:05 a.m.', '2026-02-01T15:05:00.000Z'],
    ['31/12/2026 07:00 p.m.', '2027-01-01T01:00:00.000Z'],
    ['2026-10-20T08:30:00', '2026-10-20T14:30:00.000Z'],
    ['2026-10-20T14:30:00Z', '2026-10-20T14:30:00.000Z'],
    ['20/10/2026', '2026-10-20T06:00:00.000Z'],
  ])('%s → %s', (text, iso) => expect(parseCrTimestamp(text)).toBe(iso));

  it.each(['', '-', 'N/D'])('%s is no time', (text) => expect(parseCrTimestamp(text)).toBeNull());

  it.each(['20/10/2026 13:30 p.m.', '20/10/2026 00:30 a.m.', '31/02/2026 08:00 a.m.', '20/10/2026 08:61 a.m.', 'ayer', '2026/10/20 08:30'])(
    'refuses %s',
    (text) => {
      expect(() => parseCrTimestamp(text)).toThrow(expect.objectContaining({ kind: 'parse', source: 'bccr-site' }));
    },
  );
});

describe('parseCuadroPersonalizado', () => {
  it('reads rows under their group headings, in the table’s order', () => {
    const body = table(
      HEADER,
      ['Bancos públicos', '', '', '', ''],
      ['Banco de Costa Rica', '450,00', '462,00', '12,00', '20/10/2026 08:30 a.m.'],
      ['Banco Nacional de Costa Rica', '451,00', '463,00', '12,00', '20/10/2026 12:05 p. m.'],
      ['Bancos privados', '', '', '', ''],
      ['Banco BAC San José S.A.', '451,00', '463,00', '12,00', '20/10/2026 08:30 a.m.'],
      ['Banco Nuevo S.A.', '449,50', '464,50', '15,00', '19/10/2026 04:45 p.m.'],
      ['Cooperativas', '', '', '', ''],
      ['Entidad Rara', '448,00', '466,00', '18,00', ''],
    );
    expect(parseCuadroPersonalizado(body, DATE)).toEqual([
      {
        institutionId: 'banco-de-costa-rica',
        name: 'Banco de Costa Rica',
        type: 'public_bank',
        buy: 450,
        sell: 462,
        updatedAt: '2026-10-20T14:30:00.000Z',
        known: true,
      },
      {
        institutionId: 'banco-nacional',
        name: 'Banco Nacional de Costa Rica',
        type: 'public_bank',
        buy: 451,
        sell: 463,
        updatedAt: '2026-10-20T18:05:00.000Z',
        known: true,
      },
      {
        institutionId: 'bac-san-jose',
        name: 'Banco BAC San José',
        type: 'private_bank',
        buy: 451,
        sell: 463,
        updatedAt: '2026-10-20T14:30:00.000Z',
        known: true,
      },
      {
        institutionId: 'banco-nuevo',
        name: 'Banco Nuevo S.A.',
        type: 'private_bank',
        buy: 449.5,
        sell: 464.5,
        updatedAt: '2026-10-19T22:45:00.000Z',
        known: false,
      },
      // The heading types an institution whose name says nothing.
      { institutionId: 'entidad-rara', name: 'Entidad Rara', type: 'cooperative', buy: 448, sell: 466, updatedAt: null, known: false },
    ]);
  });

  it('finds the columns by their header text, wherever they are', () => {
    const body = table(
      ['Fecha de última actualización', 'Venta', 'Diferencial', 'Compra', 'Entidad'],
      ['20/10/2026 08:30 a.m.', '1.463,10', '12,00', '1.451,10', 'Teledolar S.A.'],
    );
    expect(parseCuadroPersonalizado(body, DATE)).toEqual([
      { institutionId: 'teledolar', name: 'Teledolar', type: 'exchange_house', buy: 1451.1, sell: 1463.1, updatedAt: '2026-10-20T14:30:00.000Z', known: true },
    ]);
  });

  it('skips a title above the header, empty names, and institutions without any value', () => {
    const body = table(
      ['Tipo de cambio de compra y venta en ventanilla'],
      HEADER,
      ['', '450,00', '462,00', '12,00', ''],
      ['Financiera Desyfin S.A.', 'N/D', '-', '-', '20/10/2026 08:00 a.m.'],
      ['Financiera Cafsa S.A.', '', '', '', ''],
      ['Financiera Gente S.A.', '447,00', 'N/D', '-', '20/10/2026 09:00 a.m.'],
      ['Financiera Monge S.A.', '', '466,00', '', '-'],
    );
    expect(parseCuadroPersonalizado(body, DATE).map((q) => [q.institutionId, q.buy, q.sell, q.updatedAt])).toEqual([
      ['financiera-gente', 447, null, '2026-10-20T15:00:00.000Z'],
      ['financiera-monge', null, 466, null],
    ]);
  });

  it('lets an unknown heading end the group above it, and takes short rows and bare cells', () => {
    const body = JSON.stringify({
      estado: true,
      datos: {
        indicadores: [
          [{ valorEspanol: 'Entidad' }, { valorEspanol: 'Compra' }, { valorEspanol: 'Venta' }],
          [{ valorEspanol: 'Cooperativas' }],
          ['Entidad Rara', '448,00', '466,00'],
          [{ valorEspanol: 'Otras entidades autorizadas' }, { valorEspanol: null }, { valorEspanol: '' }],
          [{ valorEspanol: 'Entidad Extraña' }, { valorEspanol: 449 }, { valorEspanol: '465,00' }],
        ],
      },
    });
    expect(parseCuadroPersonalizado(body, DATE).map((q) => [q.institutionId, q.type, q.buy, q.updatedAt])).toEqual([
      ['entidad-rara', 'cooperative', 448, null],
      ['entidad-extrana', null, 449, null],
    ]);
  });

  it('keeps the catalog’s type over the heading’s, and a heading over the name’s', () => {
    const body = table(
      HEADER,
      ['Bancos privados', '', '', '', ''],
      ['Banco Popular', '450,00', '460,00', '10,00', ''],
      ['Nueva Financiera S.A.', '450,00', '460,00', '10,00', ''],
    );
    expect(parseCuadroPersonalizado(body, DATE).map((q) => q.type)).toEqual(['public_bank', 'private_bank']);
  });

  it('reads a repeated identical row once and answers [] for a day without rows', () => {
    const row = ['Banco de Costa Rica', '450,00', '462,00', '12,00', ''];
    expect(parseCuadroPersonalizado(table(HEADER, row, row), DATE)).toHaveLength(1);
    expect(parseCuadroPersonalizado(table(HEADER), DATE)).toEqual([]);
    expect(parseCuadroPersonalizado('{"estado":true,"datos":{"indicadores":[]}}', DATE)).toEqual([]);
  });

  it.each([
    ['estado false', '{"estado":false,"mensaje":"Error","datos":null}', /estado false/],
    ['a CodigoError body', '{"CodigoError":"400","Mensaje":"Parámetros inválidos."}', /error "400"/],
    ['an HTML page', '<html><body>Mantenimiento</body></html>', /HTML/],
    ['truncated JSON', table(HEADER).slice(0, 50), /not valid JSON/],
    ['the official table instead', '{"columnas":[],"indicadoresRaiz":[]}', /unexpected shape/],
    ['rows that are not arrays', '{"estado":true,"datos":{"indicadores":[{"valorEspanol":"Entidad"}]}}', /not an array of cells/],
    ['no recognisable header', table(['Nombre', 'Valor'], ['Banco de Costa Rica', '450,00']), /no header row/],
    ['a bad value', table(HEADER, ['Banco de Costa Rica', 'abc', '462,00', '', '']), /not a number/],
    ['a bad timestamp', table(HEADER, ['Banco de Costa Rica', '450,00', '462,00', '', 'ayer']), /timestamp/],
    ['a cell that is no value', JSON.stringify({ estado: true, datos: { indicadores: [[{ valorEspanol: { x: 1 } }]] } }), /unreadable cell/],
    [
      'an institution twice with different values',
      table(HEADER, ['BCR', '450,00', '462,00', '', ''], ['Banco de Costa Rica', '451,00', '462,00', '', '']),
      /twice/,
    ],
  ])('refuses %s with a non-retryable parse error', (_name, body, message) => {
    let caught: unknown;
    try {
      parseCuadroPersonalizado(body, DATE);
    } catch (err) {
      caught = err;
    }
    expect(caught).toMatchObject({ name: 'UpstreamError', source: 'bccr-site', kind: 'parse', retryable: false });
    expect((caught as Error).message).toMatch(message);
  });
});

describe('createVentanillaSiteSource against the fake upstream', () => {
  let fake: FakeUpstream;
  beforeAll(async () => {
    fake = await startFakeUpstream({ today: '2026-11-20' });
  });
  afterAll(() => fake.close());
  beforeEach(() => {
    fake.requests.length = 0;
    for (const route of ['ventanillaSite', 'siteToken'] as const) fake.setFault(route, null);
    fake.setVentanilla(null);
  });
  const source = (extra: { retries?: number; timeoutMs?: number } = {}) => {
    const { policy, delays } = fastPolicy(extra);
    return { src: createVentanillaSiteSource({ ...policy, baseUrl: fake.siteUrl }), delays };
  };
  const routes = () => fake.requests.map((r) => r.route);

  it('gets a token, then one day per request, in order', async () => {
    const { src } = source();
    expect(src).toMatchObject({ name: 'bccr-site', maxChunkDays: 31 });
    const days = await src.fetchRange('2026-10-19', '2026-10-21');
    expect(days.map((d) => d.date)).toEqual(['2026-10-19', '2026-10-20', '2026-10-21']);
    expect(routes()).toEqual(['siteToken', 'ventanillaSite', 'ventanillaSite', 'ventanillaSite']);
    const req = fake.requests[1]!;
    expect(req.path).toMatch(/\/CuadroPersonalizadoGrupoVariables\/ObtenerDatosCuadroPersonalizado$/);
    expect([req.query.get('idGrupoVariable'), req.query.get('fechaAConsultar')]).toEqual(['1015', '2026-10-19']);
    expect(req.headers.origin).toBe('https://sdd.bccr.fi.cr');
    expect(req.headers.token_csrf).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(fake.requests.slice(1).map((r) => r.query.get('fechaAConsultar'))).toEqual(['2026-10-19', '2026-10-20', '2026-10-21']);
  });

  it('reads every synthetic institution with its type, values and update time', async () => {
    const [day] = await source().src.fetchRange('2026-10-20', '2026-10-20');
    const rows = fake.ventanillaFor('2026-10-20');
    expect(day!.quotes.map((q) => [q.buy, q.sell, q.updatedAt])).toEqual(rows.map((r) => [r.buy, r.sell, r.updatedAt]));
    const byId = Object.fromEntries(day!.quotes.map((q) => [q.institutionId, q]));
    expect(byId['banco-popular']).toMatchObject({ type: 'public_bank', known: true });
    expect(byId['banco-promerica']).toMatchObject({ type: 'private_bank', sell: null, updatedAt: '2026-10-20T18:05:00.000Z' });
    expect(byId.coopenae).toMatchObject({ type: 'cooperative', updatedAt: '2026-10-19T22:45:00.000Z' });
    expect(byId.teledolar).toMatchObject({ type: 'exchange_house', updatedAt: '2026-10-20T06:05:00.000Z' });
    expect(byId['casa-de-cambio-ficticia']).toMatchObject({ name: SYNTHETIC_UNKNOWN_INSTITUTION, type: 'exchange_house', known: false });
    expect(byId['bn-valores']).toMatchObject({ type: 'brokerage', known: true });
  });

  it('agrees with the token API on the same day', async () => {
    const { createVentanillaSddeSource } = await import('../../../../server/sources/ventanilla/sdde');
    const other = await startFakeUpstream({ today: '2026-11-20', token: 't' });
    try {
      const sdde = createVentanillaSddeSource({ ...fastPolicy().policy, baseUrl: other.sddeUrl, token: 't' });
      const [a] = await sdde.fetchRange('2026-10-20', '2026-10-20');
      const [b] = await source().src.fetchRange('2026-10-20', '2026-10-20');
      expect(b!.quotes.map(({ updatedAt: _u, ...q }) => q)).toEqual(a!.quotes.map(({ updatedAt: _u, ...q }) => q));
    } finally {
      await other.close();
    }
  });

  it('leaves out days without quotes, and future days', async () => {
    fake.setVentanilla((d) => (d === '2026-11-18' ? null : d === '2026-11-19' ? [] : undefined));
    const days = await source().src.fetchRange('2026-11-17', '2026-11-22');
    expect(days.map((d) => d.date)).toEqual(['2026-11-17', '2026-11-20']);
    fake.setFault('ventanillaSite', 'empty');
    await expect(source().src.fetchRange('2026-01-01', '2026-01-02')).resolves.toEqual([]);
  });

  it('renews the token after a 401 and tries once more; gives up after a second', async () => {
    const { src } = source();
    await src.fetchRange('2026-01-01', '2026-01-01');
    fake.revokeCsrfTokens();
    await expect(src.fetchRange('2026-01-02', '2026-01-02')).resolves.toHaveLength(1);
    expect(routes()).toEqual(['siteToken', 'ventanillaSite', 'ventanillaSite', 'siteToken', 'ventanillaSite']);
    fake.requests.length = 0;
    fake.setFault('ventanillaSite', '401');
    const err = await upstreamError(src.fetchRange('2026-01-03', '2026-01-04'));
    expect(err).toMatchObject({ status: 401, retryable: false });
    expect(routes()).toEqual(['ventanillaSite', 'siteToken', 'ventanillaSite']);
  });

  it('can share a token provider with the official site source', async () => {
    const { policy } = fastPolicy();
    const csrf = createCsrfTokenProvider({ ...policy, baseUrl: fake.siteUrl });
    await csrf.get();
    await createVentanillaSiteSource({ ...policy, baseUrl: fake.siteUrl, csrf }).fetchRange('2026-01-01', '2026-01-02');
    expect(routes()).toEqual(['siteToken', 'ventanillaSite', 'ventanillaSite']);
  });

  it('refuses a span of more than 31 days', async () => {
    await expect(source().src.fetchRange('2026-01-01', '2026-02-01')).rejects.toThrow(RangeError);
    expect(fake.requests).toHaveLength(0);
  });

  it.each([
    ['html', /HTML/],
    ['truncated', /not valid JSON/],
    ['estadoFalse', /estado false/],
    ['code503', /unexpected shape/],
  ] as const)('fails on a %s answer without retrying', async (fault, message) => {
    fake.setFault('ventanillaSite', fault);
    const err = await upstreamError(source().src.fetchRange('2026-01-01', '2026-01-05'));
    expect(err).toMatchObject({ source: 'bccr-site', kind: 'parse', retryable: false });
    expect(err.message).toMatch(message);
    expect(routes()).toEqual(['siteToken', 'ventanillaSite']);
  });

  it('does not retry a 400', async () => {
    fake.setFault('ventanillaSite', '400');
    const err = await upstreamError(source().src.fetchRange('2026-01-01', '2026-01-05'));
    expect(err).toMatchObject({ kind: 'http', status: 400, retryable: false });
  });

  it.each(['429', '500'] as const)('retries a %s up to the limit', async (fault) => {
    fake.setFault('ventanillaSite', fault);
    const { src, delays } = source({ retries: 2 });
    const err = await upstreamError(src.fetchRange('2026-01-01', '2026-01-05'));
    expect(err).toMatchObject({ status: Number(fault), retryable: true });
    expect(routes()).toEqual(['siteToken', 'ventanillaSite', 'ventanillaSite', 'ventanillaSite']);
    expect(delays).toHaveLength(2);
  });

  it('fails when the token endpoint answers something else than a JWT', async () => {
    fake.setFault('siteToken', 'html');
    const err = await upstreamError(source().src.fetchRange('2026-01-01', '2026-01-05'));
    expect(err.message).toMatch(/not a JWT/);
    expect(routes()).toEqual(['siteToken']);
  });

  it('recovers from one hang and times out on a hanging table', async () => {
    fake.setFault('ventanillaSite', { kind: 'hang', times: 1 });
    const { src } = source({ retries: 1, timeoutMs: 100 });
    await expect(src.fetchRange('2026-01-01', '2026-01-02')).resolves.toHaveLength(2);
    fake.setFault('ventanillaSite', 'hang');
    const err = await upstreamError(src.fetchRange('2026-01-01', '2026-01-02'));
    expect(err).toMatchObject({ kind: 'timeout', retryable: true });
  });

  it('passes out-of-band values through: the sanity check is the sync’s job', async () => {
    fake.setFault('ventanillaSite', 'outOfBounds');
    const [day] = await source().src.fetchRange('2026-01-05', '2026-01-05');
    expect(day!.quotes.every((q) => q.buy === 99999 && q.sell === 5)).toBe(true);
  });
});
