/**
 * What the HTTP edge does to every answer, over real HTTP: one Content-Type and a Content-Length
 * in bytes, no body for HEAD or a 304, compression when the client accepts it (and only then),
 * the API's security headers on refusals too, and the route's pattern (never the raw path) in the
 * metrics.
 */
import http from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { rate, startTestApp, type TestApp } from '../../helpers/app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ clock: () => new Date('2025-01-16T05:30:00Z'), metricsToken: 'operator' });
  const rows = [];
  for (let day = 1; day <= 15; day++) rows.push(rate(`2025-01-${String(day).padStart(2, '0')}`, 500 + day, 510 + day));
  await t.seed(rows);
});
afterAll(() => t.close());

/** A raw request, so that nothing decodes or adds headers on the way. */
function raw(
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<{ status: number; headers: http.IncomingHttpHeaders; rawHeaders: string[]; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${t.url}${path}`, { method, headers: { 'x-api-key': t.key, ...headers } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, rawHeaders: response.rawHeaders, body: Buffer.concat(chunks) }),
      );
    });
    request.on('error', reject);
    request.end();
  });
}

const count = (rawHeaders: string[], name: string) => rawHeaders.filter((value, i) => i % 2 === 0 && value.toLowerCase() === name).length;

it('sends one Content-Type and a Content-Length in bytes', async () => {
  const answer = await raw('/api/v1/exchange-rate/latest');
  expect(answer.status).toBe(200);
  expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(count(answer.rawHeaders, 'content-type')).toBe(1);
  expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
  expect(JSON.parse(answer.body.toString())).toMatchObject({ success: true, data: { date: '2025-01-15' } });
});

it('answers HEAD with the headers of GET and no body', async () => {
  const get = await raw('/api/v1/exchange-rate/history?days=10');
  const head = await raw('/api/v1/exchange-rate/history?days=10', {}, 'HEAD');
  expect(head.status).toBe(200);
  expect(head.body.length).toBe(0);
  expect(head.headers.etag).toBe(get.headers.etag);
  expect(head.headers['content-length']).toBe(get.headers['content-length']);
});

it('answers a 304 with its ETag and no body', async () => {
  const first = await raw('/api/v1/exchange-rate/latest');
  const again = await raw('/api/v1/exchange-rate/latest', { 'if-none-match': String(first.headers.etag) });
  expect(again.status).toBe(304);
  expect(again.body.length).toBe(0);
  expect(again.headers.etag).toBe(first.headers.etag);
});

it('compresses answers for clients that accept it, and only for them', async () => {
  const plain = await raw('/api/v1/openapi.json');
  expect(plain.headers['content-encoding']).toBeUndefined();
  const text = plain.body.toString();
  expect(plain.body.length).toBeGreaterThan(10_000);

  const gzip = await raw('/api/v1/openapi.json', { 'accept-encoding': 'gzip' });
  expect(gzip.headers['content-encoding']).toBe('gzip');
  expect(gzip.headers.vary).toMatch(/Accept-Encoding/i);
  expect(gzip.body.length).toBeLessThan(plain.body.length / 3);
  expect(gunzipSync(gzip.body).toString()).toBe(text);

  const br = await raw('/api/v1/openapi.json', { 'accept-encoding': 'br, gzip' });
  expect(br.headers['content-encoding']).toBe('br');
  expect(brotliDecompressSync(br.body).toString()).toBe(text);

  // Small answers are not worth it.
  const small = await raw('/api/v1/exchange-rate/latest', { 'accept-encoding': 'gzip' });
  expect(small.headers['content-encoding']).toBeUndefined();
});

it('keeps a compressed copy of a kept answer, with its own ETag, and answers its If-None-Match with a 304', async () => {
  const path = '/api/v1/exchange-rate/history?days=15';
  const plain = await raw(path);
  const text = plain.body.toString();
  expect(plain.body.length).toBeGreaterThan(1024);
  expect(plain.headers['content-encoding']).toBeUndefined();

  const br = await raw(path, { 'accept-encoding': 'gzip;q=0.5, br' });
  expect(br.headers['content-encoding']).toBe('br');
  expect(brotliDecompressSync(br.body).toString()).toBe(text);
  expect(br.headers.etag).toBe(`${String(plain.headers.etag).slice(0, -1)}-br"`);
  expect(Number(br.headers['content-length'])).toBe(br.body.length);

  const gzip = await raw(path, { 'accept-encoding': 'gzip' });
  expect(gzip.headers['content-encoding']).toBe('gzip');
  expect(gunzipSync(gzip.body).toString()).toBe(text);
  expect(gzip.headers.etag).toBe(`${String(plain.headers.etag).slice(0, -1)}-gzip"`);

  // The same bytes again: compressed once, kept with the answer.
  const brAgain = await raw(path, { 'accept-encoding': 'br' });
  expect(brAgain.body.equals(br.body)).toBe(true);

  const notModified = await raw(path, { 'accept-encoding': 'br', 'if-none-match': String(br.headers.etag) });
  expect(notModified.status).toBe(304);
  expect(notModified.headers.etag).toBe(br.headers.etag);
  // Another coding's tag names other bytes: a full answer.
  const other = await raw(path, { 'accept-encoding': 'identity', 'if-none-match': String(br.headers.etag) });
  expect(other.status).toBe(200);
  expect(other.body.toString()).toBe(text);
});

it('sets the security headers on every answer, refusals and pages included', async () => {
  const answers = [
    await raw('/api/v1/exchange-rate/latest'),
    await raw('/api/v1/exchange-rate/history?days=0'),
    await raw('/api/v1/no-such-route'),
    await raw('/api/v1/exchange-rate/latest', {}, 'DELETE'),
    await raw('/nothing-here'),
    await raw('/livez'),
    await raw('/docs'),
    await raw('/en'),
  ];
  expect(answers.map((a) => a.status)).toEqual([200, 400, 404, 405, 404, 200, 200, 200]);
  for (const answer of answers) {
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
    expect(answer.headers['x-frame-options']).toBe('DENY');
    // Plain HTTP: no HSTS.
    expect(answer.headers['strict-transport-security']).toBeUndefined();
  }
  expect(answers[0]?.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
});

it('sends HSTS when a trusted proxy says the request came over TLS, and only then', async () => {
  const proxied = await startTestApp({ database: t.database, trustProxy: true });
  try {
    const over = (proto: string) => fetch(`${proxied.url}/livez`, { headers: { 'X-Forwarded-Proto': proto } });
    expect((await over('https')).headers.get('strict-transport-security')).toBe('max-age=31536000');
    expect((await over('http')).headers.get('strict-transport-security')).toBeNull();
  } finally {
    await proxied.close();
  }
  // Without a trusted proxy the header is the client's word, and not believed.
  expect((await fetch(`${t.url}/livez`, { headers: { 'X-Forwarded-Proto': 'https' } })).headers.get('strict-transport-security')).toBeNull();
});

it('writes the configured public address into the documents, whatever Host the request says', async () => {
  const forged = (path: string) =>
    new Promise<string>((resolve, reject) => {
      const { port } = new URL(t.url);
      const request = http.request({ host: '127.0.0.1', port, path, headers: { host: 'evil.example' } }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          body += chunk;
        });
        response.on('end', () => resolve(body));
      });
      request.on('error', reject);
      request.end();
    });
  const openapi = JSON.parse(await forged('/api/v1/openapi.json')) as { servers: Array<{ url: string }> };
  expect(openapi.servers).toEqual([{ url: `${t.url}/api/v1` }]);
  const postman = await forged('/api/v1/postman.json');
  expect(postman).toContain(`${t.url}/api/v1`);
  expect(postman).not.toContain('evil.example');
});

it("labels the metrics with the route's pattern, never the raw path", async () => {
  await raw('/api/v1/exchange-rate/history?days=3');
  await raw('/api/v1/nothing-here-123');
  const metrics = await raw('/metrics', { authorization: 'Bearer operator' });
  const text = metrics.body.toString();
  expect(text).toMatch(/http_requests_total\{method="GET",route="\/api\/v1\/exchange-rate\/history",status="200"\} \d+/);
  expect(text).toMatch(/http_requests_total\{method="GET",route="unmatched",status="404"\} \d+/);
  expect(text).not.toContain('nothing-here-123');
  expect(text).toMatch(/http_request_duration_seconds_bucket\{le="0.005",method="GET",route="\/api\/v1\/exchange-rate\/history",status="200"\} \d+/);
});
