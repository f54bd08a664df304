/**
 * /metrics: absent without an operator token; with one, a 401 envelope for a missing or wrong
 * bearer, and Prometheus text for the right one: requests by route pattern and status, latency
 * histogram, the latest stored date and the sync runs.
 */
import { createSyncRunsStore } from '../../../server/store/sync-runs';
import { rate, startTestApp, type TestApp } from '../../helpers/app';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';

const TOKEN = 'metrics-token-for-tests';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition (the lines that are not comments). */
function samples(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not a sample line: ${line}`);
      const labels = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
      return { name: match[1]!, labels, value: Number(match[3]) };
    });
}

const find = (all: Sample[], name: string, labels: Record<string, string> = {}) =>
  all.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));

describe('/metrics', () => {
  // One database for both apps (the token is the app's, not the data's).
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());

  describe('without METRICS_TOKEN', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ database });
    });
    afterAll(() => t.close());

    it('does not exist', async () => {
      const variants: Array<Record<string, string>> = [{}, { authorization: `Bearer ${TOKEN}` }, { authorization: 'Bearer ' }];
      for (const headers of variants) {
        const res = await fetch(`${t.url}/metrics`, { headers });
        expect(res.status).toBe(404);
        expect(await res.json()).toEqual({ success: false, message: expect.any(String), error: 'NOT_FOUND' });
      }
    });
  });

  describe('with a token', () => {
    let t: TestApp;
    const latest = '2025-01-15';
    const scrape = async () => {
      const res = await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(res.headers.get('cache-control')).toBe('no-store');
      return res.text();
    };

    beforeAll(async () => {
      t = await startTestApp({ database, metricsToken: TOKEN, clock: () => new Date('2025-01-16T18:00:00Z') });
      await t.seed([rate('2025-01-13', 505, 511), rate('2025-01-14', 505.5, 511.5), rate(latest, 506.47, 512.82)]);
      const runs = createSyncRunsStore(t.database.db);
      const counts = { inserted: 3, updated: 0, rejected: 0, missing: 0 };
      for (const status of ['succeeded', 'succeeded', 'failed'] as const) {
        const startedAt = new Date('2025-01-15T18:00:00Z');
        const id = await runs.start({ kind: 'official', source: 'test', spanFrom: latest, spanTo: latest, startedAt });
        await runs.finish(id, { status, counts, finishedAt: new Date('2025-01-15T18:00:05Z'), ...(status === 'failed' ? { error: 'upstream down' } : {}) });
      }
    });
    afterAll(() => t.close());

    it('refuses a missing or wrong bearer with the 401 envelope', async () => {
      for (const authorization of [undefined, 'Bearer wrong', `Bearer ${TOKEN}x`, `Basic ${TOKEN}`, TOKEN, 'Bearer ']) {
        const res = await fetch(`${t.url}/metrics`, { headers: authorization === undefined ? {} : { authorization } });
        expect([authorization, res.status]).toEqual([authorization, 401]);
        expect(res.headers.get('www-authenticate')).toBe('Bearer');
        const body = await res.json();
        expect(body).toEqual({ success: false, message: expect.any(String), error: 'UNAUTHORIZED' });
        expect(JSON.stringify(body)).not.toContain(TOKEN);
      }
    });

    it('counts requests by route pattern and status, with a latency histogram', async () => {
      for (let i = 0; i < 2; i++) expect((await t.get('/exchange-rate/latest')).status).toBe(200);
      expect((await t.get('/exchange-rate?date=2025-01-14')).status).toBe(200);
      expect((await t.get('/exchange-rate?date=2025-01-13')).status).toBe(200);
      expect((await t.get('/exchange-rate?date=1999-01-01')).status).toBe(404);
      expect((await t.get('/exchange-rate/latest', { 'x-api-key': '' })).status).toBe(401);

      const all = samples(await scrape());
      const count = (labels: Record<string, string>) => find(all, 'http_requests_total', labels).reduce((sum, s) => sum + s.value, 0);
      expect(count({ route: '/api/v1/exchange-rate/latest', status: '200', method: 'GET' })).toBeGreaterThanOrEqual(2);
      expect(count({ route: '/api/v1/exchange-rate/latest', status: '401' })).toBeGreaterThanOrEqual(1);
      // The pattern, not the raw path: two different dates are one series.
      expect(count({ route: '/api/v1/exchange-rate', status: '200' })).toBeGreaterThanOrEqual(2);
      expect(count({ route: '/api/v1/exchange-rate', status: '404' })).toBeGreaterThanOrEqual(1);
      expect(find(all, 'http_requests_total').every((s) => !s.labels.route?.includes('?') && !s.labels.route?.includes('2025'))).toBe(true);

      const buckets = find(all, 'http_request_duration_seconds_bucket', { route: '/api/v1/exchange-rate/latest', status: '200' });
      expect(buckets.length).toBeGreaterThan(1);
      expect(buckets.find((b) => b.labels.le === '+Inf')?.value).toBeGreaterThanOrEqual(2);
      expect(find(all, 'http_request_duration_seconds_count', { route: '/api/v1/exchange-rate/latest', status: '200' })[0]?.value).toBeGreaterThanOrEqual(2);
      expect(find(all, 'http_request_duration_seconds_sum', { route: '/api/v1/exchange-rate/latest', status: '200' })[0]?.value).toBeGreaterThan(0);
    });

    it('reports the latest stored date and the sync runs, read from the database', async () => {
      let all = samples(await scrape());
      expect(find(all, 'crc_latest_rate_date_seconds')).toEqual([
        { name: 'crc_latest_rate_date_seconds', labels: {}, value: Date.parse(`${latest}T00:00:00Z`) / 1000 },
      ]);
      expect(
        find(all, 'crc_sync_runs')
          .map((s) => [s.labels.kind, s.labels.status, s.value])
          .sort(),
      ).toEqual([
        ['official', 'failed', 1],
        ['official', 'succeeded', 2],
      ]);
      expect(find(all, 'crc_last_successful_sync_seconds')[0]?.value).toBe(Date.parse('2025-01-15T18:00:05Z') / 1000);
      // Process metrics come along.
      expect(find(all, 'process_cpu_user_seconds_total')).toHaveLength(1);

      // New data shows at the next scrape.
      await t.seed([rate('2025-01-16', 507, 513)]);
      all = samples(await scrape());
      expect(find(all, 'crc_latest_rate_date_seconds')[0]?.value).toBe(Date.parse('2025-01-16T00:00:00Z') / 1000);
    });

    it('is not under /api/v1 and not counted against keys', async () => {
      expect((await t.get('/metrics')).status).toBe(404);
    });
  });
});
