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

  it('answers the SDDE series in the real format, 8 decimals included', async () => {
    const text = await (await sdde('fechaInicio=2026/11/19&fechaFin=2026/11/25&idioma=ES')).text();
    expect(text).toMatch(/"valorDatoPorPeriodo":\d+\.\d{8}/);
    expect(JSON.parse(text)).toMatchObject({
      estado: true,
      datos: [{ codigoIndicador: '318', series: [{ fecha: '2026-11-19T00:00:00' }, { fecha: '2026-11-20T00:00:00' }] }],
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

  it('caps a site answer at 100 days and wants its Origin', async () => {
    const jwt = (await (await fetch(`${fake.siteUrl}/Bccr.GE.SDDE.IndicadoresSitioExterno.ServiciosUsuario.API/Token/GenereCSRF`)).text()).replaceAll('"', '');
    const url = `${fake.siteUrl}/Bccr.GE.SDDE.IndicadoresSitioExterno.GrupoVariables.API/CuadroGrupoVariables/ObtenerDatosCuadro?IdGrupoVariable=1&FechaInicio=2025-01-01T00:00:00&FechaFin=2025-12-31&CantidadSeriesAMostrar=100`;
    const res = await fetch(url, { headers: { token_csrf: jwt, Origin: 'https://sdd.bccr.fi.cr' } });
    const body = (await res.json()) as { columnas: Array<{ field: string; tituloEspanol: string }> };
    expect(body.columnas).toHaveLength(101);
    expect(body.columnas[100]!.tituloEspanol).toBe('10 abr 2025');
    expect((await fetch(url, { headers: { token_csrf: jwt } })).status).toBe(403);
    expect((await fetch(url, { headers: { Origin: 'https://sdd.bccr.fi.cr' } })).status).toBe(401);
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
