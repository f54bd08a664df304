import { rate, startTestApp, type TestApp } from '../../helpers/app';

const KNOWN_PATHS = [
  '/exchange-rate/latest',
  '/exchange-rate',
  '/exchange-rate/history',
  '/exchange-rate/range',
  '/exchange-rate/analytics',
  '/exchange-rate/stats',
  '/exchange-rate/chart',
  '/convert',
];

/** A successful request of every route, so headers can be checked across them. */
const SUCCESSFUL = [
  '/exchange-rate/latest',
  '/exchange-rate?date=2025-01-15',
  '/exchange-rate/history?days=2',
  '/exchange-rate/range?from=2025-01-14&to=2025-01-15',
  '/exchange-rate/analytics?days=2',
  '/exchange-rate/stats?from=2025-01-01&to=2025-01-31',
  '/exchange-rate/chart?days=2',
  '/convert?amount=1',
];

/**
 * The key `t.get` sends, for the few requests made with fetch directly (HEAD). The harness may
 * not issue keys (before authentication exists): then no header is needed.
 */
function keyHeader(t: TestApp): Record<string, string> {
  const { key } = t as TestApp & { key?: string };
  return key ? { 'x-api-key': key } : {};
}

describe('errors, methods and headers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ clock: () => new Date('2025-01-16T05:30:00Z') });
    await t.seed([rate('2025-01-14', 505.1, 511.2), rate('2025-01-15', 506.47, 512.82)]);
  });
  afterAll(() => t.close());

  describe('the envelope', () => {
    it.each(SUCCESSFUL)('wraps a success as exactly { success: true, data } with private caching: %s', async (path) => {
      const { status, body, headers } = await t.get(path);
      expect(status).toBe(200);
      expect(Object.keys(body).sort()).toEqual(['data', 'success']);
      expect(body.success).toBe(true);
      expect(headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(headers.get('cache-control')).toMatch(/^private\b/);
      expect(headers.get('etag')).toMatch(/^"[\w-]+"$/);
    });

    it.each([
      ['/exchange-rate?date=nope', 400, 'BAD_REQUEST'],
      ['/exchange-rate?date=2025-01-13', 404, 'NOT_FOUND'],
      ['/nope', 404, 'NOT_FOUND'],
    ])('wraps an error as exactly { success: false, message, error }, never cached: %s', async (path, code, error) => {
      const { status, body, headers } = await t.get(path);
      expect(status).toBe(code);
      expect(Object.keys(body).sort()).toEqual(['error', 'message', 'success']);
      expect(body).toEqual({ success: false, error, message: expect.any(String) });
      expect(body.message?.length).toBeGreaterThan(0);
      expect(headers.get('content-type')).toMatch(/^application\/json/);
      expect(headers.get('cache-control')).toBe('no-store');
      expect(headers.get('etag')).toBeNull();
    });
  });

  describe('routing', () => {
    it.each(['/nope', '/exchange-rate/nope', '/exchange-rates', '/convert/usd', '', '/exchange-rate/latest/extra'])(
      'answers 404 NOT_FOUND for the unknown route /api/v1%s',
      async (path) => {
        const { status, body } = await t.get(path);
        expect(status).toBe(404);
        expect(body).toEqual({ success: false, error: 'NOT_FOUND', message: expect.any(String) });
      },
    );

    it('answers 404 outside /api/v1 too, and before looking at the parameters', async () => {
      const outside = await fetch(`${t.url}/exchange-rate/latest`);
      expect(outside.status).toBe(404);
      expect(await outside.json()).toEqual({ success: false, error: 'NOT_FOUND', message: expect.any(String) });
      const withBadParams = await t.get('/nope?days=abc&date=2024-02-30');
      expect(withBadParams.status).toBe(404);
    });

    it('answers 404 for an unknown route whatever the method, key or not', async () => {
      const variants: Array<Record<string, string>> = [{}, { 'x-api-key': 'crc_live_whatever' }];
      for (const headers of variants) {
        const response = await fetch(`${t.api}/nope`, { method: 'POST', headers });
        expect(response.status).toBe(404);
        expect((await response.json()) as unknown).toMatchObject({ success: false, error: 'NOT_FOUND' });
      }
    });

    // Every write method on two routes, with and without a key header, then POST on every route:
    // few enough requests from one address to stay clear of any per-IP rate limit.
    const writes = [
      ...['POST', 'PUT', 'DELETE'].flatMap((method) =>
        ['/exchange-rate/latest', '/convert'].flatMap((path) => [
          [method, path, 'without a key'],
          [method, path, 'with a key'],
        ]),
      ),
      ...KNOWN_PATHS.filter((path) => path !== '/exchange-rate/latest' && path !== '/convert').map((path) => ['POST', path, 'without a key']),
    ];

    it.each(writes)('answers 405 to %s %s %s', async (method, path, keyed) => {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (keyed === 'with a key') headers['x-api-key'] = 'crc_live_not_a_real_key';
      const response = await fetch(`${t.api}${path}?date=2025-01-15`, { method, headers, body: method === 'DELETE' ? undefined : '{}' });
      expect(response.status).toBe(405);
      expect(await response.json()).toEqual({ success: false, error: 'METHOD_NOT_ALLOWED', message: expect.any(String) });
      expect(response.headers.get('allow')).toMatch(/GET/);
      expect(response.headers.get('cache-control')).toBe('no-store');
    });

    it('answers OPTIONS on a known route with the allowed methods', async () => {
      const response = await fetch(`${t.api}/exchange-rate/history`, { method: 'OPTIONS' });
      expect([200, 204]).toContain(response.status);
      const allow = (response.headers.get('allow') ?? '').split(',').map((m) => m.trim());
      expect(allow).toEqual(expect.arrayContaining(['GET', 'HEAD']));
      expect(allow).not.toContain('POST');
    });

    it('answers HEAD like GET, without a body', async () => {
      const get = await t.get('/exchange-rate/latest');
      const head = await fetch(`${t.api}/exchange-rate/latest`, { method: 'HEAD', headers: keyHeader(t) });
      expect(head.status).toBe(200);
      expect(await head.text()).toBe('');
      expect(head.headers.get('etag')).toBe(get.headers.get('etag'));
      expect(head.headers.get('cache-control')).toBe(get.headers.get('cache-control'));
      expect(head.headers.get('content-type')).toBe('application/json; charset=utf-8');
      const badHead = await fetch(`${t.api}/exchange-rate?date=2024-02-30`, { method: 'HEAD', headers: keyHeader(t) });
      expect(badHead.status).toBe(400);
      const unknownHead = await fetch(`${t.api}/nope`, { method: 'HEAD' });
      expect(unknownHead.status).toBe(404);
    });
  });

  describe('query parameters', () => {
    it('ignores unknown parameters, even repeated', async () => {
      const plain = await t.get('/exchange-rate/history?days=2');
      const noisy = await t.get('/exchange-rate/history?days=2&foo=1&foo=2&utm_source=x&Days=9&days[]=3');
      expect(noisy.status).toBe(200);
      expect(noisy.body).toEqual(plain.body);
      const latest = await t.get('/exchange-rate/latest?date=2025-01-14&date=2025-01-15&x=&x=');
      expect(latest.status).toBe(200);
      expect(latest.body.data).toMatchObject({ date: '2025-01-15' });
    });

    it.each([
      '/exchange-rate/history?days=1&days=2',
      '/exchange-rate/history?days=2&days=2',
      '/exchange-rate?date=2025-01-15&date=2025-01-14',
      '/exchange-rate/chart?points=10&days=5&points=10',
      '/convert?amount=1&rate=buy&rate=sell',
    ])('answers 400 naming the known parameter given twice: %s', async (path) => {
      const { status, body } = await t.get(path);
      expect(status).toBe(400);
      const name = /[?&](\w+)=[^&]*&(?:.*&)?\1=/.exec(path)?.[1];
      expect(body).toEqual({ success: false, error: 'BAD_REQUEST', message: expect.stringContaining(`"${name}"`) });
    });
  });
});

describe('an unexpected failure', () => {
  it('answers 500 INTERNAL_ERROR without SQL, stack trace or driver detail when a query fails', async () => {
    const t = await startTestApp({ clock: () => new Date('2025-01-16T05:30:00Z') });
    try {
      await t.seed([rate('2025-01-15', 506.47, 512.82)]);
      // The query now fails inside the driver, with an error that quotes the SQL.
      await t.database.db.raw('DROP TABLE exchange_rates');
      for (const path of ['/exchange-rate?date=2025-01-15', '/exchange-rate/stats?from=2025-01-01&to=2025-01-31', '/convert?amount=1']) {
        const { status, body, headers } = await t.get(path);
        expect(status).toBe(500);
        expect(body).toEqual({ success: false, error: 'INTERNAL_ERROR', message: expect.any(String) });
        expect(JSON.stringify(body)).not.toMatch(/select|from "|exchange_rates|relation|does not exist|\bat \w|\.ts:|node_modules|postgres|pglite|knex/i);
        expect(headers.get('cache-control')).toBe('no-store');
        expect(headers.get('etag')).toBeNull();
      }
    } finally {
      await t.close();
    }
  });

  it('answers 500 INTERNAL_ERROR when the database is gone', async () => {
    const t = await startTestApp({ clock: () => new Date('2025-01-16T05:30:00Z') });
    try {
      await t.database.db.destroy();
      const { status, body } = await t.get('/exchange-rate/latest');
      expect(status).toBe(500);
      expect(body).toEqual({ success: false, error: 'INTERNAL_ERROR', message: expect.any(String) });
      expect(JSON.stringify(body)).not.toMatch(/pool|destroy|knex|acquire|\bat \w|\.ts:|node_modules/i);
    } finally {
      await t.close();
    }
  });
});
