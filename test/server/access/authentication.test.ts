/**
 * Who may call (docs/api.md): every keyed route answers a missing,
 * unknown, revoked or malformed key with the 401 envelope; public routes need none; routing comes
 * before authentication. Keyed answers are private to the caller, and browsers may call from the
 * configured origins and read the limit headers.
 */
import { rate, startTestApp, type TestApp } from '../../helpers/app';
import { createApiKeysStore, KEY_PREFIX } from '../../../server/store/api-keys';
import { createKey, send, unknownKey } from './support';

const UNAUTHORIZED = { success: false, error: 'UNAUTHORIZED', message: expect.any(String) };

/** The key with one character changed, keeping it well-formed. */
function oneCharacterOff(key: string, index: number): string {
  const swapped = key[index] === 'A' ? 'B' : 'A';
  return key.slice(0, index) + swapped + key.slice(index + 1);
}

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ clock: () => new Date('2025-01-16T05:30:00Z') });
  await t.seed([rate('2025-01-15', 506.47, 512.82)]);
});
afterAll(() => t.close());

describe('x-api-key on keyed routes', () => {
  it('serves a valid key', async () => {
    const { status, body } = await t.get('/exchange-rate/latest');
    expect(status).toBe(200);
    expect(body.success).toBe(true);
  });

  it('answers a missing key with the 401 envelope, saying where the key goes', async () => {
    const { status, body, headers } = await t.get('/exchange-rate/latest', { 'x-api-key': '' });
    expect(status).toBe(401);
    expect(body).toEqual(UNAUTHORIZED);
    expect(body.message).toContain('x-api-key');
    expect(headers.get('cache-control')).toBe('no-store');
    expect(headers.get('x-quota-limit')).toBeNull();
  });

  it('answers an unknown, well-formed key with 401', async () => {
    const { status, body } = await t.get('/exchange-rate/latest', { 'x-api-key': unknownKey() });
    expect(status).toBe(401);
    expect(body).toEqual(UNAUTHORIZED);
  });

  it('answers a key that differs from a real one by one character with 401', async () => {
    for (const index of [KEY_PREFIX.length, KEY_PREFIX.length + 20, t.key.length - 1]) {
      const near = oneCharacterOff(t.key, index);
      expect(near).not.toBe(t.key);
      const { status, body } = await t.get('/exchange-rate/latest', { 'x-api-key': near });
      expect(status).toBe(401);
      expect(body).toEqual(UNAUTHORIZED);
    }
  });

  it('answers a revoked key with 401, and only from the moment the revocation is announced', async () => {
    const { key, record } = await createKey(t.database.db);
    expect((await t.get('/exchange-rate/latest', { 'x-api-key': key })).status).toBe(200);
    expect(await createApiKeysStore(t.database.db).revoke(record.id, new Date())).toBe(true);
    // Lookups are kept in memory for a short while; `keys revoke` announces the change, as here.
    await t.changes.keysChanged();
    const { status, body } = await t.get('/exchange-rate/latest', { 'x-api-key': key });
    expect(status).toBe(401);
    expect(body).toEqual(UNAUTHORIZED);
    expect(body.message).toMatch(/revoked/i);
  });

  it.each([
    ['garbage', 'hello'],
    ['the prefix alone', KEY_PREFIX],
    ['a truncated key', () => t.key.slice(0, -1)],
    ['a key with a character too many', () => `${t.key}A`],
    ['another prefix', () => `crc_test_${t.key.slice(KEY_PREFIX.length)}`],
    ['a character outside base64url', () => `${t.key.slice(0, -1)}=`],
  ])('answers a malformed key (%s) with 401', async (_, make) => {
    const sent = typeof make === 'function' ? make() : make;
    const { status, body } = await t.get('/exchange-rate/latest', { 'x-api-key': sent });
    expect(status).toBe(401);
    expect(body).toEqual(UNAUTHORIZED);
  });

  it('asks for a key on every keyed route, /usage included', async () => {
    for (const path of ['/exchange-rate?date=2025-01-15', '/exchange-rate/history', '/convert?amount=1&from=USD&to=CRC', '/usage']) {
      const { status, body } = await t.get(path, { 'x-api-key': '' });
      expect([path, status, body]).toEqual([path, 401, UNAUTHORIZED]);
    }
  });

  it('lets /health through without a key', async () => {
    const { status, body } = await t.get('/health', { 'x-api-key': '' });
    expect(status).toBe(200);
    expect(body.success).toBe(true);
  });
});

describe('routing comes before authentication', () => {
  it.each([
    ['without a key', ''],
    ['with a wrong key', 'nonsense'],
    ['with a valid key', null],
  ])('an unknown path is a 404 %s', async (_, key) => {
    for (const path of ['/nope', '/exchange-rate/latest/extra']) {
      const { status, body } = await t.get(path, key === null ? {} : { 'x-api-key': key });
      expect([path, status, body]).toEqual([path, 404, { success: false, error: 'NOT_FOUND', message: expect.any(String) }]);
    }
  });

  it.each([
    ['without a key', ''],
    ['with a wrong key', 'nonsense'],
    ['with a valid key', null],
  ])('a wrong method on a known path is a 405 %s', async (_, key) => {
    for (const [method, path] of [
      ['POST', '/exchange-rate/latest'],
      ['DELETE', '/usage'],
      ['PUT', '/health'],
    ]) {
      const headers: Record<string, string> = key === null ? { 'x-api-key': t.key } : key ? { 'x-api-key': key } : {};
      const answer = await send(`${t.api}${path}`, { method, headers });
      expect([method, path, answer.status, answer.body]).toEqual([
        method,
        path,
        405,
        { success: false, error: 'METHOD_NOT_ALLOWED', message: expect.any(String) },
      ]);
      expect(answer.headers.get('allow')).toContain('GET');
    }
  });
});

describe('caching of keyed answers', () => {
  it('marks keyed answers private, the 304 included', async () => {
    const first = await t.get('/exchange-rate/latest');
    expect(first.headers.get('cache-control')).toMatch(/^private\b/);
    const etag = first.headers.get('etag') ?? '';
    expect(etag).not.toBe('');
    const again = await send(`${t.api}/exchange-rate/latest`, { headers: { 'x-api-key': t.key, 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get('cache-control')).toMatch(/^private\b/);
    expect((await t.get('/usage')).headers.get('cache-control')).toMatch(/^private\b/);
  });

  it('never lets a shared cache keep a refusal', async () => {
    const refused = await t.get('/exchange-rate/latest', { 'x-api-key': unknownKey() });
    expect(refused.headers.get('cache-control')).toBe('no-store');
  });
});

describe('CORS', () => {
  const EXPOSED = [
    'X-RateLimit-Limit',
    'X-RateLimit-Remaining',
    'X-RateLimit-Reset',
    'X-Quota-Limit',
    'X-Quota-Remaining',
    'X-Quota-Reset',
    'Retry-After',
    'ETag',
  ];
  const exposed = (headers: Headers) => (headers.get('access-control-expose-headers') ?? '').split(',').map((h) => h.trim().toLowerCase());

  it('answers a preflight for x-api-key without asking for a key', async () => {
    const answer = await send(`${t.api}/exchange-rate/latest`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://sheet.example', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'x-api-key' },
    });
    expect(answer.status).toBe(204);
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    expect((answer.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(',')).toContain('x-api-key');
    expect(answer.headers.get('access-control-allow-methods')).toContain('GET');
  });

  it('exposes the rate-limit and quota headers, Retry-After and ETag, on answers and refusals', async () => {
    const origin = { Origin: 'https://sheet.example' };
    const served = await t.get('/exchange-rate/latest', origin);
    const refused = await t.get('/exchange-rate/latest', { ...origin, 'x-api-key': '' });
    for (const answer of [served, refused]) {
      expect(answer.headers.get('access-control-allow-origin')).toBe('*');
      expect(exposed(answer.headers)).toEqual(expect.arrayContaining(EXPOSED.map((h) => h.toLowerCase())));
    }
    // And the headers it promises are there to read.
    for (const name of ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'X-Quota-Limit', 'X-Quota-Remaining', 'X-Quota-Reset', 'ETag']) {
      expect([name, served.headers.get(name)]).toEqual([name, expect.any(String)]);
    }
  });

  it('writes no CORS headers for a request without Origin (not a browser), and says the answer varies by it', async () => {
    for (const path of ['/exchange-rate/latest', '/no-such-route']) {
      const answer = await t.get(path);
      expect(answer.headers.get('access-control-allow-origin')).toBeNull();
      expect(answer.headers.get('access-control-expose-headers')).toBeNull();
      expect(answer.headers.get('vary')).toMatch(/\borigin\b/i);
    }
    const withOrigin = await t.get('/exchange-rate/latest', { Origin: 'https://sheet.example' });
    expect(withOrigin.headers.get('access-control-allow-origin')).toBe('*');
  });

  describe('with CORS_ORIGINS set', () => {
    let limited: TestApp;
    beforeAll(async () => {
      limited = await startTestApp({ database: t.database, corsOrigins: ['https://a.example'] });
    });
    afterAll(() => limited.close());

    it('allows the listed origin', async () => {
      const answer = await limited.get('/exchange-rate/latest', { Origin: 'https://a.example' });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('access-control-allow-origin')).toBe('https://a.example');
      expect(answer.headers.get('vary')).toMatch(/origin/i);
      const preflight = await send(`${limited.api}/exchange-rate/latest`, {
        method: 'OPTIONS',
        headers: { Origin: 'https://a.example', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'x-api-key' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe('https://a.example');
      expect((preflight.headers.get('access-control-allow-headers') ?? '').toLowerCase()).toContain('x-api-key');
    });

    it('gives another origin no Access-Control-Allow-Origin', async () => {
      const answer = await limited.get('/exchange-rate/latest', { Origin: 'https://b.example' });
      expect(answer.headers.get('access-control-allow-origin')).toBeNull();
      const preflight = await send(`${limited.api}/exchange-rate/latest`, {
        method: 'OPTIONS',
        headers: { Origin: 'https://b.example', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'x-api-key' },
      });
      expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
      expect(preflight.headers.get('access-control-allow-headers')).toBeNull();
    });
  });
});
