/**
 * The first hour of an instance: health says why it is degraded (no rate yet, stale data, and what
 * the sync is doing: never ran, running, failed with its error in one line) and when it tries
 * next; every data route on an empty database answers a 404 that says the same and points to
 * health, but for a failure's detail (upstream addresses, hosts, error codes), which is the
 * operator's: health has it, the 404 says only that the sync failed. The sync's runs are written straight into their record, as a sync writes them.
 */
import { createSyncRunsStore } from '../../../server/store/sync-runs';
import { rate, startTestApp, type TestApp } from '../../helpers/app';
import { createResponseValidator, fetchJson, type OpenApiDocument, type ResponseValidator } from '../system/support';

const SITE_DOWN =
  'bccr-site: network error on http://127.0.0.1:9/SDDE/api/Bccr.GE.SDDE.Publico.Indicadores.API/csrf: fetch failed: connect ECONNREFUSED 127.0.0.1:9 (gave up after 4 attempts)';
const HACIENDA_DOWN = 'hacienda: network error on https://api.hacienda.go.cr/indicadores/tc/dolar: fetch failed: getaddrinfo ENOTFOUND api.hacienda.go.cr';
/** The retry the (injected) scheduler has planned. */
const NEXT_ATTEMPT = '2025-01-15T19:03:00.000Z';

/** Every keyed route that reads the official series, with the query it needs. */
const DATA_ROUTES = [
  '/exchange-rate/latest',
  '/exchange-rate?date=2025-01-15',
  '/exchange-rate/history',
  '/exchange-rate/history?format=csv',
  '/exchange-rate/analytics',
  '/exchange-rate/chart',
  '/convert?amount=100',
  '/convert?amount=100&date=2025-01-15',
  '/insights',
];

let t: TestApp;
let validator: ResponseValidator;
beforeAll(async () => {
  // "Today" is 2025-01-15 in Costa Rica (23:30), already 2025-01-16 in UTC.
  t = await startTestApp({ clock: () => new Date('2025-01-16T05:30:00Z'), nextSyncAt: () => new Date(NEXT_ATTEMPT) });
  validator = createResponseValidator(await fetchJson<OpenApiDocument>(`${t.api}/openapi.json`));
});
afterAll(() => t.close());

const runs = () => createSyncRunsStore(t.database.db);

/** Health as a monitor reads it (no key). Its database probe is kept for a second; a change of rates drops it, as a sync's would. */
async function health() {
  await t.changes.ratesChanged();
  const { status, body } = await t.get('/health', { 'x-api-key': '' });
  expect(status).toBe(200);
  expect(validator.validate('/health', 200, body)).toEqual([]);
  return body.data;
}

async function expectDataRoutesToSay(message: string): Promise<void> {
  for (const path of DATA_ROUTES) {
    const { status, body, headers } = await t.get(path);
    expect([path, status, body]).toEqual([path, 404, { success: false, error: 'NOT_FOUND', message }]);
    expect(headers.get('cache-control')).toBe('no-store');
  }
}

describe('on an empty database', () => {
  it('before any sync: degraded, no sync has run yet', async () => {
    expect(await health()).toEqual({
      status: 'degraded',
      reasons: ['no rate stored yet: no sync has run yet'],
      database: 'up',
      latestDate: null,
      lastSyncAt: null,
      sync: { state: 'never', error: null, finishedAt: null, nextAttemptAt: NEXT_ATTEMPT },
      version: expect.any(String),
      uptimeSeconds: expect.any(Number),
    });
    await expectDataRoutesToSay('No exchange rate has been stored yet: no sync has run yet; see /api/v1/health');
  });

  let siteRun = 0;
  it('while the first sync runs: it says so', async () => {
    siteRun = await runs().start({
      kind: 'official',
      source: 'bccr-site',
      spanFrom: '1983-01-01',
      spanTo: '1983-12-31',
      startedAt: new Date('2025-01-15T18:00:00Z'),
    });
    expect(await health()).toMatchObject({
      status: 'degraded',
      reasons: ['no rate stored yet: the first sync is running'],
      sync: { state: 'running', error: null, finishedAt: null, nextAttemptAt: NEXT_ATTEMPT },
    });
    await expectDataRoutesToSay('No exchange rate has been stored yet: the first sync is running; see /api/v1/health');
  });

  it('once it failed: the central bank’s error and the fallback’s, in one line', async () => {
    const counts = { inserted: 0, updated: 0, rejected: 0, missing: 0 };
    await runs().finish(siteRun, { status: 'failed', counts, error: SITE_DOWN, finishedAt: new Date('2025-01-15T18:00:07Z') });
    const fallback = await runs().start({
      kind: 'official',
      source: 'hacienda',
      spanFrom: '2025-01-15',
      spanTo: '2025-01-15',
      startedAt: new Date('2025-01-15T18:00:07Z'),
    });
    await runs().finish(fallback, { status: 'failed', counts, error: `${HACIENDA_DOWN}\n`, finishedAt: new Date('2025-01-15T18:00:08Z') });
    // A window-quote run is another job: it does not stand for the official sync.
    const banking = await runs().start({
      kind: 'banking',
      source: 'bccr-site',
      spanFrom: '2025-01-09',
      spanTo: '2025-01-15',
      startedAt: new Date('2025-01-15T18:00:08Z'),
    });
    await runs().finish(banking, { status: 'succeeded', counts, finishedAt: new Date('2025-01-15T18:00:09Z') });

    const error = `${SITE_DOWN}; ${HACIENDA_DOWN}`;
    expect(await health()).toMatchObject({
      status: 'degraded',
      reasons: [`no rate stored yet: the last sync failed: ${error}`],
      lastSyncAt: null,
      sync: { state: 'failed', error, finishedAt: '2025-01-15T18:00:08.000Z', nextAttemptAt: NEXT_ATTEMPT },
    });
    await expectDataRoutesToSay('No exchange rate has been stored yet: the last sync failed; the operator has been told; see /api/v1/health');
    // Nothing of the failure's detail reaches an API client.
    for (const path of DATA_ROUTES) {
      const { text } = await t.get(path);
      const leaks = ['http', '127.0.0.1', 'hacienda.go.cr', 'ENOTFOUND', 'ECONNREFUSED', 'getaddrinfo', 'bccr-site', 'fetch failed'];
      expect([path, leaks.filter((leak) => text.includes(leak))]).toEqual([path, []]);
    }
  });

  it('when the retry runs: a sync is running (no longer the first)', async () => {
    await runs().start({ kind: 'official', source: 'bccr-site', spanFrom: '1983-01-01', spanTo: '1983-12-31', startedAt: new Date('2025-01-15T19:03:00Z') });
    expect(await health()).toMatchObject({ reasons: ['no rate stored yet: a sync is running'], sync: { state: 'running', error: null, finishedAt: null } });
    await expectDataRoutesToSay('No exchange rate has been stored yet: a sync is running; see /api/v1/health');
  });
});

describe('with rates stored', () => {
  it('stale: the age of the latest date, then what the sync is doing; the data is served', async () => {
    await t.seed([rate('2025-01-09', 505.1, 511.2), rate('2025-01-10', 505.2, 511.3)]);
    expect(await health()).toMatchObject({
      status: 'degraded',
      reasons: ['latest official date 2025-01-10 is 5 days old', 'a sync is running'],
      latestDate: '2025-01-10',
    });
    expect((await t.get('/exchange-rate/latest')).status).toBe(200);
  });

  it('fresh: ok, with no reasons', async () => {
    await t.seed([rate('2025-01-12', 505.3, 511.4)]);
    expect(await health()).toMatchObject({ status: 'ok', reasons: [], latestDate: '2025-01-12', sync: { state: 'running' } });
  });
});
