/**
 * Hacienda's euro: the body in the shape the endpoint answers (`fecha`, `dolares`, `colones`),
 * with made-up values, in both date forms it has used (a plain date in 2026, `…T00:00:00-06:00`
 * before), `colones` null after hours, and the outage body; then the adapter against the fake.
 */
import { startFakeUpstream, type FakeUpstream } from '../../../server/demo/bccr-upstream';
import { createHaciendaEuroSource, parseHaciendaEuro } from '../../../server/sources/hacienda-euro';
import { fastPolicy, upstreamError } from './helpers';

/** The recorded shape, values made up. */
const body = (fecha: string, colones: string) => `{ "fecha": "${fecha}", "dolares": 1.0917, "colones": ${colones} }`;

describe('parseHaciendaEuro', () => {
  it('reads a plain date (2026 answers)', () => {
    expect(parseHaciendaEuro(body('2026-03-11', '549.31'))).toEqual({ date: '2026-03-11', dolares: 1.0917, colones: 549.31 });
  });

  it('reads the older offset date as the calendar day written', () => {
    expect(parseHaciendaEuro(body('2019-10-24T00:00:00-06:00', '549.31'))).toEqual({ date: '2019-10-24', dolares: 1.0917, colones: 549.31 });
  });

  it('keeps dolares when colones is null (after business hours)', () => {
    expect(parseHaciendaEuro(body('2026-03-11', 'null'))).toEqual({ date: '2026-03-11', dolares: 1.0917, colones: null });
  });

  it('treats the 200 {"code":503} body as a retryable error', () => {
    expect(() => parseHaciendaEuro('{"code":503,"status":"Service unavailable"}')).toThrow(expect.objectContaining({ retryable: true, status: 503 }));
  });

  it.each([
    ['HTML', '<html>Bloqueado</html>', /HTML/],
    ['a bad fecha', '{"fecha":"11/03/2026","dolares":1.09,"colones":null}', /bad fecha/],
    ['no dolares', '{"fecha":"2026-03-11","dolares":null,"colones":549.31}', /bad dolares/],
    ['a bad colones', '{"fecha":"2026-03-11","dolares":1.09,"colones":"x"}', /bad colones/],
  ])('refuses %s', (_name, text, message) => {
    expect(() => parseHaciendaEuro(text)).toThrow(expect.objectContaining({ kind: 'parse', message: expect.stringMatching(message) }));
  });
});

describe('createHaciendaEuroSource against the fake', () => {
  let fake: FakeUpstream;
  beforeAll(async () => {
    fake = await startFakeUpstream({ today: '2026-03-11' });
  });
  afterAll(() => fake.close());
  afterEach(() => {
    fake.setHaciendaEuro(null);
    fake.setFault('haciendaEuro', null);
  });

  it('reads today, colones = dolares × the dollar sell to 2 decimals', async () => {
    fake.setHaciendaEuro({ dolares: 1.0917 });
    const source = createHaciendaEuroSource({ baseUrl: fake.haciendaUrl, minIntervalMs: 0, ...fastPolicy().policy });
    const sell = fake.rateFor('2026-03-11')?.sell as number;
    const euro = await source.read();
    expect(euro).toEqual({ date: '2026-03-11', dolares: 1.0917, colones: Math.round(1.0917 * sell * 100) / 100 });
    expect(source.url).toBe(`${fake.haciendaUrl}/indicadores/tc/euro`);
  });

  it('after hours: colones null, dolares still there', async () => {
    fake.setHaciendaEuro({ dolares: 1.0917, afterHours: true });
    const source = createHaciendaEuroSource({ baseUrl: fake.haciendaUrl, minIntervalMs: 0, ...fastPolicy().policy });
    expect(await source.read()).toEqual({ date: '2026-03-11', dolares: 1.0917, colones: null });
  });

  it('fails with an UpstreamError when Hacienda is down', async () => {
    fake.setFault('haciendaEuro', 'code503');
    const source = createHaciendaEuroSource({ baseUrl: fake.haciendaUrl, minIntervalMs: 0, ...fastPolicy({ retries: 1 }).policy });
    expect(await upstreamError(source.read())).toMatchObject({ source: 'hacienda', retryable: true });
  });
});

describe('the fake in the older date form', () => {
  it('writes fecha with the offset when told to', async () => {
    const fake = await startFakeUpstream({ today: '2026-03-11', haciendaDates: 'offset' });
    try {
      expect(fake.haciendaEuroFor().fecha).toBe('2026-03-11T00:00:00-06:00');
      const source = createHaciendaEuroSource({ baseUrl: fake.haciendaUrl, minIntervalMs: 0, ...fastPolicy().policy });
      expect((await source.read()).date).toBe('2026-03-11');
    } finally {
      await fake.close();
    }
  });
});
