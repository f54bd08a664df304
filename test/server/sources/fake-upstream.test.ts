/** The fake must behave like the real upstreams where the adapters depend on it. */
import { startFakeUpstream, type FakeUpstream } from '../../../server/demo/bccr-upstream';
import { syntheticRate } from '../../../server/demo/synthetic-history';

describe('fake upstream', () => {
  let fake: FakeUpstream;
  beforeAll(async () => {
    fake = await startFakeUpstream({ today: '2026-11-20' });
  });
  afterAll(() => fake.close());

  const sdde = (query: string, auth = `Bearer ${fake.token}`) =>
    fetch(`${fake.sddeUrl}/indicadoresEconomicos/318/series?${query}`, { headers: { Authorization: auth } });

  it('answers the SDDE series in the real format: plain dates, 8 decimals', async () => {
    const text = await (await sdde('fechaInicio=2026/11/19&fechaFin=2026/11/25&idioma=ES')).text();
    expect(text).toMatch(/"valorDatoPorPeriodo":\d+\.\d{8}/);
    expect(JSON.parse(text)).toMatchObject({
      estado: true,
      datos: [{ codigoIndicador: '318', series: [{ fecha: '2026-11-19' }, { fecha: '2026-11-20' }] }],
    });
  });

  it('gives an empty SDDE answer for dates not written yyyy/mm/dd, and 401 without the token', async () => {
    expect(await (await sdde('fechaInicio=2026-11-01&fechaFin=2026-11-05')).json()).toEqual({
      estado: true,
      mensaje: 'No existen datos para las fechas suministradas.',
      datos: [],
    });
    expect((await sdde('fechaInicio=2026/11/01&fechaFin=2026/11/05', '')).status).toBe(401);
  });

  const csrfToken = async () => {
    const res = await fetch(`${fake.siteUrl}/Bccr.GE.SDDE.IndicadoresSitioExterno.ServiciosUsuario.API/Token/GenereCSRF`);
    return { type: res.headers.get('content-type'), text: await res.text() };
  };
  const cuadroUrl = (from: string, to: string) =>
    `${fake.siteUrl}/Bccr.GE.SDDE.IndicadoresSitioExterno.GrupoVariables.API/CuadroGrupoVariables/ObtenerDatosCuadro?IdGrupoVariable=1&FechaInicio=${from}T00:00:00&FechaFin=${to}&CantidadSeriesAMostrar=100`;
  type Cuadro = { columnas: Array<{ field: string; tituloEspanol: string }> };

  it('answers the CSRF token bare, as text/plain without quotes', async () => {
    const { type, text } = await csrfToken();
    expect(type).toMatch(/^text\/plain/);
    expect(text).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
  });

  it('ignores FechaInicio: the site table holds the 100 days up to FechaFin, and wants its Origin', async () => {
    const jwt = (await csrfToken()).text;
    const headers = { token_csrf: jwt, Origin: 'https://sdd.bccr.fi.cr' };
    for (const from of ['2025-01-01', '2025-12-30']) {
      const body = (await (await fetch(cuadroUrl(from, '2025-12-31'), { headers })).json()) as Cuadro;
      expect(body.columnas).toHaveLength(101);
      expect(body.columnas[1]!.tituloEspanol).toBe('23 set 2025');
      expect(body.columnas[100]!.tituloEspanol).toBe('31 dic 2025');
    }
    const url = cuadroUrl('2025-12-30', '2025-12-31');
    expect((await fetch(url, { headers: { token_csrf: jwt } })).status).toBe(403);
    expect((await fetch(url, { headers: { Origin: 'https://sdd.bccr.fi.cr' } })).status).toBe(401);
  });

  it('takes the token header spelt Token-Csrf as well as token_csrf', async () => {
    const jwt = (await csrfToken()).text;
    const res = await fetch(cuadroUrl('2025-12-30', '2025-12-31'), { headers: { 'Token-Csrf': jwt, Origin: 'https://sdd.bccr.fi.cr' } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as Cuadro).columnas).toHaveLength(101);
  });

  it('dates Hacienda’s answer with a plain day, or in the older form when asked', async () => {
    const rate = fake.rateFor('2026-11-20')!;
    expect(await (await fetch(`${fake.haciendaUrl}/indicadores/tc/dolar`)).json()).toEqual({
      venta: { fecha: '2026-11-20', valor: rate.sell },
      compra: { fecha: '2026-11-20', valor: rate.buy },
    });
    const older = await startFakeUpstream({ today: '2026-11-20', haciendaDates: 'offset' });
    try {
      const body = (await (await fetch(`${older.haciendaUrl}/indicadores/tc/dolar`)).json()) as { venta: { fecha: string }; compra: { fecha: string } };
      expect([body.venta.fecha, body.compra.fecha]).toEqual(['2026-11-20T00:00:00-06:00', '2026-11-20T00:00:00-06:00']);
    } finally {
      await older.close();
    }
  });

  it('answers 404 off the known paths', async () => {
    expect((await fetch(`${fake.url}/wsindicadoreseconomicos.asmx`)).status).toBe(404);
  });

  it('gives Saturday, Sunday and Monday the same value', () => {
    // 2026-11-14 is a Saturday.
    expect(syntheticRate('2026-11-15')).toEqual(syntheticRate('2026-11-14'));
    expect(syntheticRate('2026-11-16')).toEqual(syntheticRate('2026-11-14'));
    expect(syntheticRate('2026-11-17')).not.toEqual(syntheticRate('2026-11-14'));
  });

  it('ends hanging requests on close', async () => {
    const other = await startFakeUpstream();
    other.setFault('hacienda', 'hang');
    const pending = fetch(`${other.haciendaUrl}/indicadores/tc/dolar`).then(
      () => 'answered',
      () => 'dropped',
    );
    while (other.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
    await other.close();
    await expect(pending).resolves.toBe('dropped');
  });
});
