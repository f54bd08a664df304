/** The fake's window (ventanilla) routes must look like the real ones where the adapters depend on it. */
import { matchInstitution } from '../../../../server/sources/ventanilla/catalog';
import { formatCrTimestamp, startFakeUpstream, type FakeUpstream } from '../../../../server/demo/bccr-upstream';
import { SYNTHETIC_UNKNOWN_INSTITUTION, syntheticRate, syntheticVentanilla } from '../../../../server/demo/synthetic-history';

const SITE_PATH = '/Bccr.GE.SDDE.IndicadoresSitioExterno.GrupoVariables.API/CuadroPersonalizadoGrupoVariables/ObtenerDatosCuadroPersonalizado';
const ORIGIN = 'https://sdd.bccr.fi.cr';

interface SddeAnswer {
  estado: boolean;
  datos: Array<{
    titulo: string;
    periodicidad: string;
    indicadores: Array<{ codigoIndicador: string; nombreIndicador: string; series: Array<{ fecha: string; valorDatoPorPeriodo: number | null }> }>;
  }>;
}
interface SiteAnswer {
  estado: boolean;
  datos: { indicadores: Array<Array<{ valorEspanol: string }>> };
}

describe('synthetic window quotes', () => {
  it('are deterministic, a dozen a day, a few colones around the official rate with buy ≤ sell', () => {
    expect(syntheticVentanilla('2026-10-20')).toEqual(syntheticVentanilla('2026-10-20'));
    for (const date of ['1992-03-02', '2010-06-15', '2026-10-20', '2026-10-21']) {
      const rows = syntheticVentanilla(date);
      const official = syntheticRate(date);
      expect(rows).toHaveLength(12);
      for (const r of rows) {
        expect(r.buy).not.toBeNull();
        expect(r.buy!).toBeLessThanOrEqual(official.buy);
        expect(official.buy - r.buy!).toBeLessThanOrEqual(4);
        if (r.sell !== null) {
          expect(r.buy!).toBeLessThanOrEqual(r.sell);
          expect(r.sell - official.sell).toBeLessThanOrEqual(4);
          expect(r.sell).toBeGreaterThanOrEqual(official.sell);
        }
      }
    }
  });

  it('mix known codes, names only, an unknown institution, an N/D and a stale time', () => {
    const rows = syntheticVentanilla('2026-10-20');
    expect(rows.filter((r) => r.buyCode !== undefined).map((r) => matchInstitution({ code: r.buyCode! })?.id)).toEqual([
      'banco-de-costa-rica',
      'banco-nacional',
      'banco-popular',
      'bac-san-jose',
      'teledolar',
    ]);
    expect(rows.filter((r) => matchInstitution({ name: r.name }) === null).map((r) => r.name)).toEqual([SYNTHETIC_UNKNOWN_INSTITUTION]);
    expect(rows.filter((r) => r.sell === null)).toHaveLength(1);
    expect(rows.filter((r) => r.updatedAt! < '2026-10-20T06:00:00.000Z').map((r) => r.name)).toEqual(['Coopenae R.L.']);
    expect(new Set(rows.map((r) => r.group).filter(Boolean)).size).toBe(7);
  });

  it('leave the unknown institution out for the demo, every other quote as it was', () => {
    const all = syntheticVentanilla('2026-10-20');
    const known = syntheticVentanilla('2026-10-20', { catalogOnly: true });
    expect(known.every((r) => matchInstitution({ name: r.name }) !== null)).toBe(true);
    expect(known).toEqual(all.filter((r) => r.name !== SYNTHETIC_UNKNOWN_INSTITUTION));
  });

  it('print update times as the site does', () => {
    expect(formatCrTimestamp('2026-10-20T14:30:00.000Z')).toBe('20/10/2026 08:30 a.m.');
    expect(formatCrTimestamp('2026-10-20T18:05:00.000Z', true)).toBe('20/10/2026 12:05 p. m.');
    expect(formatCrTimestamp('2026-10-20T06:05:00.000Z')).toBe('20/10/2026 12:05 a.m.');
    expect(formatCrTimestamp('2026-10-21T03:00:00.000Z')).toBe('20/10/2026 09:00 p.m.');
  });
});

describe('fake upstream: window routes', () => {
  let fake: FakeUpstream;
  beforeAll(async () => {
    fake = await startFakeUpstream({ today: '2026-11-20' });
  });
  afterAll(() => fake.close());
  beforeEach(() => {
    fake.requests.length = 0;
    for (const route of ['ventanillaSdde', 'ventanillaSite', 'sdde'] as const) fake.setFault(route, null);
    fake.setVentanilla(null);
  });

  const cuadro = (query: string, auth = `Bearer ${fake.token}`, id = '1015') =>
    fetch(`${fake.sddeUrl}/cuadro/${id}/series?${query}`, { headers: { Authorization: auth } });
  const csrf = async () =>
    (await (await fetch(`${fake.siteUrl}/Bccr.GE.SDDE.IndicadoresSitioExterno.ServiciosUsuario.API/Token/GenereCSRF`)).text()).replaceAll('"', '');
  const site = async (query: string, headers?: Record<string, string>) =>
    fetch(`${fake.siteUrl}${SITE_PATH}?${query}`, { headers: headers ?? { token_csrf: await csrf(), Origin: ORIGIN } });

  it('serves cuadro 1015 on the token API: buy, sell and spread series per institution, 8 decimals, nulls for N/D', async () => {
    const res = await cuadro('fechaInicio=2026/11/19&fechaFin=2026/11/25&idioma=ES');
    const text = await res.text();
    expect(text).toMatch(/"valorDatoPorPeriodo":\d+\.\d{8}/);
    const body = JSON.parse(text) as SddeAnswer;
    expect(body).toMatchObject({ estado: true, datos: [{ periodicidad: 'Diaria' }] });
    const indicators = body.datos[0]!.indicadores;
    expect(indicators).toHaveLength(36);
    expect(indicators.slice(0, 3).map((i) => [i.codigoIndicador, i.nombreIndicador])).toEqual([
      ['3148', 'Banco de Costa Rica - compra'],
      ['3207', 'Banco de Costa Rica - venta'],
      [expect.stringMatching(/^9\d{4}$/), 'Banco de Costa Rica - diferencial'],
    ]);
    expect(indicators[0]!.series.map((p) => p.fecha)).toEqual(['2026-11-19', '2026-11-20']);
    const promericaSell = indicators.find((i) => i.nombreIndicador === 'Banco Promerica de Costa Rica S.A. - venta')!;
    expect(promericaSell.series.every((p) => p.valorDatoPorPeriodo === null)).toBe(true);
    expect(fake.requests.map((r) => r.route)).toEqual(['ventanillaSdde']);
  });

  it('answers the token API like the real one: 401 without the token, CodigoError for another cuadro, empty for other date formats', async () => {
    expect((await cuadro('fechaInicio=2026/11/01&fechaFin=2026/11/05', '')).status).toBe(401);
    const other = await cuadro('fechaInicio=2026/11/01&fechaFin=2026/11/05', undefined, '999');
    expect(other.status).toBe(400);
    expect(await other.json()).toMatchObject({ CodigoError: '400' });
    expect(await (await cuadro('fechaInicio=2026-11-01&fechaFin=2026-11-05')).json()).toMatchObject({ estado: true, datos: [] });
  });

  it('serves group 1015 on the site API: header, group headings, N/D, times in Costa Rica', async () => {
    const body = (await (await site('idGrupoVariable=1015&fechaAConsultar=2026-10-20')).json()) as SiteAnswer;
    const rows = body.datos.indicadores.map((r) => r.map((c) => c.valorEspanol));
    expect(rows[0]).toEqual(['Entidad', 'Compra', 'Venta', 'Diferencial', 'Fecha de última actualización']);
    expect(rows[1]).toEqual(['Bancos públicos', '', '', '', '']);
    expect(rows.filter((r) => r[1] === '')).toHaveLength(7);
    expect(rows).toHaveLength(1 + 7 + 12);
    const promerica = rows.find((r) => r[0] === 'Banco Promerica de Costa Rica S.A.')!;
    expect(promerica.slice(2)).toEqual(['N/D', '-', '20/10/2026 12:05 p. m.']);
    expect(rows.find((r) => r[0] === 'Coopenae R.L.')![4]).toBe('19/10/2026 04:45 p.m.');
    expect(rows.find((r) => r[0] === 'Teledolar S.A.')![4]).toBe('20/10/2026 12:05 a.m.');
    expect(rows[2]![1]).toMatch(/^\d{3},\d{2}$/);
  });

  it('wants the site’s CSRF token and Origin, and valid parameters', async () => {
    const jwt = await csrf();
    expect((await site('idGrupoVariable=1015&fechaAConsultar=2026-10-20', { Origin: ORIGIN })).status).toBe(401);
    expect((await site('idGrupoVariable=1015&fechaAConsultar=2026-10-20', { token_csrf: jwt })).status).toBe(403);
    expect((await site('idGrupoVariable=1015&fechaAConsultar=20/10/2026')).status).toBe(400);
    expect((await site('idGrupoVariable=1&fechaAConsultar=2026-10-20')).status).toBe(400);
  });

  it('answers a table without rows for a day it has no quotes for', async () => {
    const body = (await (await site('idGrupoVariable=1015&fechaAConsultar=2026-12-01')).json()) as SiteAnswer;
    expect(body.datos.indicadores).toHaveLength(1);
  });

  it('takes per-day overrides, and ventanillaFor tells what it serves', async () => {
    fake.setVentanilla((d) =>
      d === '2026-10-20'
        ? [{ name: 'Banco Nuevo S.A.', group: 'Bancos privados', buy: 1234.5, sell: 1240, updatedAt: null }]
        : d === '2026-10-21'
          ? null
          : undefined,
    );
    expect(fake.ventanillaFor('2026-10-20')).toHaveLength(1);
    expect(fake.ventanillaFor('2026-10-21')).toEqual([]);
    expect(fake.ventanillaFor('2026-10-22')).toEqual(syntheticVentanilla('2026-10-22'));
    expect(fake.ventanillaFor('2026-11-21')).toEqual([]); // after "today"
    const rows = ((await (await site('idGrupoVariable=1015&fechaAConsultar=2026-10-20')).json()) as SiteAnswer).datos.indicadores.map((r) =>
      r.map((c) => c.valorEspanol),
    );
    expect(rows.slice(1)).toEqual([
      ['Bancos privados', '', '', '', ''],
      ['Banco Nuevo S.A.', '1.234,50', '1.240,00', '5,50', ''],
    ]);
    const sdde = (await (await cuadro('fechaInicio=2026/10/20&fechaFin=2026/10/21')).json()) as SddeAnswer;
    // Made-up codes stay the same for the life of the fake, and are in no catalog.
    expect(sdde.datos[0]!.indicadores.map((i) => matchInstitution({ code: i.codigoIndicador }))).toEqual([null, null, null]);
    expect(sdde.datos[0]!.indicadores[0]!.series).toEqual([{ fecha: '2026-10-20', valorDatoPorPeriodo: 1234.5 }]);
  });

  it('keeps faults apart per route', async () => {
    fake.setFault('ventanillaSdde', '500');
    expect((await cuadro('fechaInicio=2026/10/20&fechaFin=2026/10/20')).status).toBe(500);
    expect(
      (
        await fetch(`${fake.sddeUrl}/indicadoresEconomicos/317/series?fechaInicio=2026/10/20&fechaFin=2026/10/20`, {
          headers: { Authorization: `Bearer ${fake.token}` },
        })
      ).status,
    ).toBe(200);
    fake.setFault('ventanillaSdde', null);
    fake.setFault('sdde', '500');
    expect((await cuadro('fechaInicio=2026/10/20&fechaFin=2026/10/20')).status).toBe(200);
  });

  it.each([
    ['ventanillaSdde', 'empty', 200, '{"estado":true,"mensaje":"No existen datos para las fechas suministradas.","datos":[]}'],
    ['ventanillaSite', 'empty', 200, '{"estado":true,"mensaje":"Consulta exitosa","datos":{"indicadores":[]}}'],
  ] as const)('%s answers the %s fault in its own format', async (route, fault, status, body) => {
    fake.setFault(route, fault);
    const res =
      route === 'ventanillaSdde' ? await cuadro('fechaInicio=2026/10/20&fechaFin=2026/10/20') : await site('idGrupoVariable=1015&fechaAConsultar=2026-10-20');
    expect(res.status).toBe(status);
    expect(await res.text()).toBe(body);
  });

  it('cuts a truncated answer in half and replaces an html one', async () => {
    fake.setFault('ventanillaSite', { kind: 'truncated', times: 1 });
    const cut = await (await site('idGrupoVariable=1015&fechaAConsultar=2026-10-20')).text();
    expect(() => JSON.parse(cut)).toThrow();
    fake.setFault('ventanillaSite', 'html');
    expect(await (await site('idGrupoVariable=1015&fechaAConsultar=2026-10-20')).text()).toMatch(/^<!DOCTYPE html>/);
  });
});
