import { addDays } from '../../../shared/dates';
import { chunkRange } from '../../../server/sources/chunks';
import { createSiteSource, parseCell, parseColumnTitle, parseCsrfToken, parseCuadro } from '../../../server/sources/bccr-site';
import { startFakeUpstream, type FakeUpstream } from '../../../server/demo/bccr-upstream';
import { fastPolicy, upstreamError } from './helpers';

const cuadro = (columnas: unknown[], indicadores: unknown[]) =>
  JSON.stringify({ informacionDelCuadro: { codGrupoVariablePublicado: 1, decimales: 2 }, columnas, indicadoresRaiz: indicadores });
const nombre = { field: 'nombre', tituloEspanol: 'Indicadores' };

describe('parseColumnTitle', () => {
  it.each([
    ['15 dic 2025', '2025-12-15'],
    ['1 ene 2026', '2026-01-01'],
    ['05 set 2025', '2025-09-05'],
    ['5 sep 2025', '2025-09-05'],
    ['5 Set. 2025', '2025-09-05'],
    ['29 feb 2024', '2024-02-29'],
    ['15 dec 2025', '2025-12-15'],
    ['3 Aug 2025', '2025-08-03'],
  ])('%s → %s', (title, date) => expect(parseColumnTitle(title)).toBe(date));

  it.each(['Indicadores', '29 feb 2025', '15 foo 2025', '2025-12-15', ''])('%s is no date', (title) => {
    expect(parseColumnTitle(title)).toBeUndefined();
  });
});

describe('parseCell', () => {
  it('reads Spanish cells with a decimal comma and thousands dots', () => {
    expect(parseCell('494,34', false)).toBe(494.34);
    expect(parseCell('1.234,56', false)).toBe(1234.56);
    expect(parseCell('500', false)).toBe(500);
  });
  it('reads English cells with a dot and thousands commas', () => {
    expect(parseCell('494.34', true)).toBe(494.34);
    expect(parseCell('1,234.56', true)).toBe(1234.56);
  });
  it('treats empty and zero as no value', () => {
    for (const raw of ['', '0', '0,00', ' ', null, undefined]) expect(parseCell(raw, false)).toBeNull();
    expect(parseCell('0.00', true)).toBeNull();
  });
  it('refuses what is not a number', () => {
    expect(() => parseCell('n/d', false)).toThrow(/not a number/);
    expect(() => parseCell('494.34', false)).toThrow(/not a number/); // a dot is a thousands separator in Spanish
    expect(() => parseCell({}, false)).toThrow(/not a string/);
  });
});

describe('parseCuadro', () => {
  it('unpivots the columns into rows, preferring the English cells', () => {
    const body = cuadro(
      [nombre, { field: 'serie1', tituloEspanol: '15 dic 2025', tituloIngles: '15 dec 2025' }, { field: 'serie2', tituloEspanol: '16 dic 2025' }],
      [
        { idIndicador: 317, nombreEspanol: 'Compra', series: { serie1: '494,34', serie1Ingles: '494.34', serie2: '495,10' } },
        { idIndicador: 318, nombreEspanol: 'Venta', series: { serie1: '999,99', serie1Ingles: '500.49', serie2: '501,02', serie2Ingles: '' } },
        { idIndicador: 3323, nombreEspanol: 'MONEX', series: { serie1: '497,00' } },
      ],
    );
    expect(parseCuadro(body)).toEqual([
      { date: '2025-12-15', buy: 494.34, sell: 500.49 },
      { date: '2025-12-16', buy: 495.1, sell: 501.02 },
    ]);
  });

  it('falls back to the English title and sorts by date', () => {
    const body = cuadro(
      [nombre, { field: 'serie1', tituloEspanol: '?', tituloIngles: '2 sep 2025' }, { field: 'serie2', tituloEspanol: '1 set 2025' }],
      [
        { idIndicador: '317', series: { serie1: '1.234,56', serie2: '1.230,00' } },
        { idIndicador: '318', series: { serie1: '1.240,00', serie2: '1.235,00' } },
      ],
    );
    expect(parseCuadro(body)).toEqual([
      { date: '2025-09-01', buy: 1230, sell: 1235 },
      { date: '2025-09-02', buy: 1234.56, sell: 1240 },
    ]);
  });

  it('keeps one-sided days and leaves out days with no value at all', () => {
    const cols = [nombre, ...['1', '2', '3'].map((d, i) => ({ field: `serie${i + 1}`, tituloEspanol: `${d} ene 2026` }))];
    const body = cuadro(cols, [
      { idIndicador: 317, series: { serie1: '0', serie2: '', serie3: '500,00' } },
      { idIndicador: 318, series: { serie1: '', serie2: '505,00', serie3: '506,00' } },
    ]);
    expect(parseCuadro(body)).toEqual([
      { date: '2026-01-02', buy: null, sell: 505 },
      { date: '2026-01-03', buy: 500, sell: 506 },
    ]);
  });

  it('finds indicators nested under a parent row', () => {
    const body = cuadro(
      [nombre, { field: 'serie1', tituloEspanol: '15 dic 2025' }],
      [
        {
          idIndicador: 1,
          nombreEspanol: 'Tipo de cambio',
          indicadoresHijos: [
            { idIndicador: 317, series: { serie1: '494,34' } },
            { idIndicador: 318, series: { serie1: '500,49' } },
          ],
        },
      ],
    );
    expect(parseCuadro(body)).toEqual([{ date: '2025-12-15', buy: 494.34, sell: 500.49 }]);
  });

  it('reads the real table: zero-padded titles, column and row fields it does not use, notes and links', () => {
    const column = (field: string, es: string, en: string) => ({
      field,
      tituloEspanol: es,
      tituloIngles: en,
      width: 100,
      expandable: false,
      format: '{0:N2}',
      notas: [],
    });
    const row = (id: number, es: string, en: string, series: Record<string, string>) => ({
      id: `${id}`,
      idIndicador: id,
      nombreEspanol: es,
      nombreIngles: en,
      name: null,
      reportaA: '0',
      notaIndicador: null,
      notaSerie: null,
      nota: null,
      indicadores: [],
      series,
    });
    const body = JSON.stringify({
      informacionDelCuadro: { codGrupoVariablePublicado: 1, decimales: 2 },
      columnas: [column('nombre', 'Indicadores', 'Indicators'), column('serie1', '31 dic 2025', '31 dec 2025'), column('serie2', '01 ene 2026', '01 jan 2026')],
      indicadoresRaiz: [
        row(317, 'Compra', 'Buy', { serie1: '492,12', serie1Ingles: '492.12', serie2: '492,12', serie2Ingles: '492.12' }),
        row(318, 'Venta', 'Sell', { serie1: '497,80', serie1Ingles: '497.80', serie2: '497,80', serie2Ingles: '497.80' }),
      ],
      notas: [],
      enlaces: [],
    });
    expect(parseCuadro(body)).toEqual([
      { date: '2025-12-31', buy: 492.12, sell: 497.8 },
      { date: '2026-01-01', buy: 492.12, sell: 497.8 },
    ]);
  });

  it('answers [] when the table has no date columns', () => {
    expect(parseCuadro(cuadro([nombre], []))).toEqual([]);
  });

  it.each([
    ['HTML', '<html><body>Error</body></html>', /HTML/],
    ['truncated JSON', cuadro([nombre], []).slice(0, 40), /not valid JSON/],
    ['another shape', '{"estado":false,"mensaje":"x"}', /unexpected shape/],
    ['an unreadable column title', cuadro([nombre, { field: 'serie1', tituloEspanol: 'mañana' }], []), /no readable date/],
    ['a table without 317 and 318', cuadro([nombre, { field: 'serie1', tituloEspanol: '1 ene 2026' }], [{ idIndicador: 9, series: {} }]), /neither indicator/],
    ['a bad cell', cuadro([nombre, { field: 'serie1', tituloEspanol: '1 ene 2026' }], [{ idIndicador: 317, series: { serie1: 'n/d' } }]), /not a number/],
  ])('refuses %s', (_name, body, message) => {
    expect(() => parseCuadro(body)).toThrow(expect.objectContaining({ kind: 'parse', retryable: false, message: expect.stringMatching(message) }));
  });
});

describe('parseCsrfToken', () => {
  it('reads the bare token the endpoint answers, and strips quotes and whitespace if present', () => {
    expect(parseCsrfToken('aaa.bbb.ccc')).toBe('aaa.bbb.ccc');
    expect(parseCsrfToken('"aaa.bbb.ccc"\n')).toBe('aaa.bbb.ccc');
  });
  it('refuses what is not a JWT', () => {
    expect(() => parseCsrfToken('<html></html>')).toThrow(/not a JWT/);
    expect(() => parseCsrfToken('')).toThrow(/not a JWT/);
  });
});

describe('createSiteSource against the fake upstream', () => {
  let fake: FakeUpstream;
  beforeAll(async () => {
    fake = await startFakeUpstream({ today: '2026-11-20' });
  });
  afterAll(() => fake.close());
  beforeEach(() => {
    fake.requests.length = 0;
    fake.setFault('site', null);
    fake.setFault('siteToken', null);
  });
  const source = (extra: { retries?: number; timeoutMs?: number; now?: () => number } = {}) => {
    const { policy, delays } = fastPolicy(extra);
    return { src: createSiteSource({ ...policy, baseUrl: fake.siteUrl, ...(extra.now ? { now: extra.now } : {}) }), delays };
  };
  const routes = () => fake.requests.map((r) => r.route);

  it('gets a token, then 90 days of the table', async () => {
    const { src } = source();
    expect(src).toMatchObject({ name: 'bccr-site', provider: 'BCCR', maxChunkDays: 90 });
    const rows = await src.fetchRange('2025-08-01', '2025-10-29');
    expect(rows).toHaveLength(90);
    expect(rows[0]).toEqual({ date: '2025-08-01', ...fake.rateFor('2025-08-01') });
    expect(rows.find((r) => r.date === '2025-09-15')).toEqual({ date: '2025-09-15', ...fake.rateFor('2025-09-15') });
    expect(routes()).toEqual(['siteToken', 'site']);
    const data = fake.requests[1]!;
    expect(data.query.get('IdGrupoVariable')).toBe('1');
    expect(data.query.get('FechaInicio')).toBe('2025-08-01T00:00:00');
    expect(data.query.get('FechaFin')).toBe('2025-10-29');
    expect(data.query.get('CantidadSeriesAMostrar')).toBe('100');
    expect(data.headers.origin).toBe('https://sdd.bccr.fi.cr');
    expect(data.headers.token_csrf).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
  });

  it('keeps only the days asked, though the table holds the 100 days up to FechaFin', async () => {
    const rows = await source().src.fetchRange('2026-01-06', '2026-01-10');
    expect(rows.map((r) => r.date)).toEqual(['2026-01-06', '2026-01-07', '2026-01-08', '2026-01-09', '2026-01-10']);
  });

  it('covers every day once across consecutive 90-day chunks', async () => {
    const { src } = source();
    const [from, to] = ['2025-06-01', '2026-11-20'];
    const rows = (await Promise.all(chunkRange(from, to, src.maxChunkDays).map(([a, b]) => src.fetchRange(a, b)))).flat();
    const days: string[] = [];
    for (let d = from; d <= to; d = addDays(d, 1)) days.push(d);
    expect(rows.map((r) => r.date)).toEqual(days);
  });

  it('reuses the token, and renews it once it is 23 hours old', async () => {
    let clock = 0;
    const { src } = source({ now: () => clock });
    await src.fetchRange('2026-01-01', '2026-01-05');
    clock = 22 * 3_600_000;
    await src.fetchRange('2026-01-06', '2026-01-10');
    clock = 23 * 3_600_000 + 1;
    await src.fetchRange('2026-01-11', '2026-01-15');
    expect(routes()).toEqual(['siteToken', 'site', 'site', 'siteToken', 'site']);
  });

  it('shares one token request between concurrent chunks', async () => {
    const { src } = source();
    await Promise.all([src.fetchRange('2026-01-01', '2026-01-05'), src.fetchRange('2026-01-06', '2026-01-10')]);
    expect(routes().filter((r) => r === 'siteToken')).toHaveLength(1);
  });

  it('renews the token after a 401 and tries once more', async () => {
    const { src } = source();
    await src.fetchRange('2026-01-01', '2026-01-05');
    fake.revokeCsrfTokens();
    await expect(src.fetchRange('2026-01-06', '2026-01-10')).resolves.toHaveLength(5);
    expect(routes()).toEqual(['siteToken', 'site', 'site', 'siteToken', 'site']);
  });

  it('gives up after a second 401', async () => {
    fake.setFault('site', '401');
    const err = await upstreamError(source().src.fetchRange('2026-01-01', '2026-01-05'));
    expect(err).toMatchObject({ status: 401, retryable: false });
    expect(routes()).toEqual(['siteToken', 'site', 'siteToken', 'site']);
  });

  it('answers [] for future dates and for an empty table', async () => {
    await expect(source().src.fetchRange('2026-12-01', '2026-12-31')).resolves.toEqual([]);
    fake.setFault('site', 'empty');
    await expect(source().src.fetchRange('2026-01-01', '2026-01-31')).resolves.toEqual([]);
  });

  it('reads out-of-band values with thousands separators', async () => {
    fake.setFault('site', 'outOfBounds');
    const rows = await source().src.fetchRange('2026-01-01', '2026-01-01');
    expect([rows[0]!.buy, rows[0]!.sell].sort()).toEqual([5, 99999]);
  });

  it('refuses a span of more than 90 days', async () => {
    await expect(source().src.fetchRange('2026-01-01', '2026-04-01')).rejects.toThrow(RangeError);
  });

  it.each([
    ['html', /HTML/],
    ['truncated', /not valid JSON/],
    ['estadoFalse', /unexpected shape/],
  ] as const)('fails on a %s table without retrying', async (fault, message) => {
    fake.setFault('site', fault);
    const err = await upstreamError(source().src.fetchRange('2026-01-01', '2026-01-05'));
    expect(err).toMatchObject({ kind: 'parse', retryable: false });
    expect(err.message).toMatch(message);
  });

  it('fails when the token endpoint answers something else than a JWT', async () => {
    fake.setFault('siteToken', 'html');
    const err = await upstreamError(source().src.fetchRange('2026-01-01', '2026-01-05'));
    expect(err.message).toMatch(/not a JWT/);
    expect(routes()).toEqual(['siteToken']);
  });

  it('does not retry a 400', async () => {
    fake.setFault('site', '400');
    const err = await upstreamError(source().src.fetchRange('2026-01-01', '2026-01-05'));
    expect(err).toMatchObject({ status: 400, retryable: false });
  });

  it.each(['429', '500'] as const)('retries a %s on either step up to the limit', async (fault) => {
    fake.setFault('siteToken', { kind: fault, times: 1 });
    fake.setFault('site', fault);
    const { src, delays } = source({ retries: 2 });
    const err = await upstreamError(src.fetchRange('2026-01-01', '2026-01-05'));
    expect(err).toMatchObject({ status: Number(fault), retryable: true });
    expect(routes()).toEqual(['siteToken', 'siteToken', 'site', 'site', 'site']);
    expect(delays).toHaveLength(3);
  });

  it('times out on a hanging table', async () => {
    fake.setFault('site', { kind: 'hang', times: 1 });
    const { src } = source({ retries: 1, timeoutMs: 100 });
    await expect(src.fetchRange('2026-01-01', '2026-01-05')).resolves.toHaveLength(5);
    fake.setFault('site', 'hang');
    const err = await upstreamError(src.fetchRange('2026-01-01', '2026-01-05'));
    expect(err).toMatchObject({ kind: 'timeout', retryable: true });
  });
});
