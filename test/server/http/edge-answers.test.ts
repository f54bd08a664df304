/**
 * The edge changes no answer: every answer of a list of routes (API, documents, pages, refusals),
 * as sent raw, plain and compressed, is the same byte for byte as the one recorded before the edge
 * was made cheaper (the snapshot beside this file: status, the headers a client reads, a hash of the
 * bytes; the documents that carry the build's version are left out of it), and every compressed
 * answer decompresses to exactly the plain one.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { rate, startTestApp, type TestApp } from '../../helpers/app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ clock: () => new Date('2025-01-16T05:30:00Z') });
  const rows = [];
  for (let day = 0; day < 400; day++) {
    const date = new Date(Date.UTC(2024, 0, 1) + day * 86_400_000).toISOString().slice(0, 10);
    if (date <= '2025-01-15') rows.push(rate(date, 500 + (day % 37) / 7, 510 + (day % 41) / 9));
  }
  await t.seed(rows);
});
afterAll(() => t.close());

const ROUTES = [
  '/api/v1/exchange-rate/latest',
  '/api/v1/exchange-rate?date=2025-01-10',
  '/api/v1/convert?amount=1234.56&from=USD&to=CRC&rate=sell',
  '/api/v1/exchange-rate/range?from=2024-01-01&to=2025-01-01',
  '/api/v1/exchange-rate/range?from=2024-12-01&to=2025-01-15&format=csv',
  '/api/v1/exchange-rate/history?days=30',
  '/api/v1/exchange-rate/chart?days=365&points=100',
  '/api/v1/exchange-rate/stats?period=monthly&from=2024-01-01&to=2025-01-15',
  '/api/v1/exchange-rate/close?month=2024-12',
  '/api/v1/currencies',
  '/livez',
  '/api/v1/exchange-rate?date=not-a-date',
  '/api/v1/no-such-route',
  '/no-such-page',
];
/** Documents that carry the build's version: decompressed and compared, not recorded. */
const UNRECORDED = ['/api/v1/openapi.json', '/llms.txt'];
const ENCODINGS = ['identity', 'br', 'gzip', 'deflate', 'br, gzip, deflate', 'gzip;q=1, br;q=0.5'];
/** What a client reads of an answer besides its body (not Date, not the request id). */
const HEADERS = [
  'content-type',
  'content-length',
  'content-encoding',
  'vary',
  'etag',
  'cache-control',
  'x-content-type-options',
  'access-control-expose-headers',
];

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

function raw(path: string, encoding: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      `${t.url}${path}`,
      { headers: { 'x-api-key': t.key, 'accept-encoding': encoding, origin: 'https://example.com', ...headers } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
      },
    );
    request.on('error', reject);
  });
}

const decoders: Record<string, (body: Buffer) => Buffer> = { br: brotliDecompressSync, gzip: gunzipSync, deflate: inflateSync };

it('sends every answer as recorded, and compressed answers decompress to the plain bytes', async () => {
  const seen: Record<string, unknown> = {};
  let compressed = 0;
  for (const path of [...ROUTES, ...UNRECORDED]) {
    const plain = await raw(path, 'identity');
    for (const encoding of ENCODINGS) {
      const answer = encoding === 'identity' ? plain : await raw(path, encoding);
      if (!UNRECORDED.includes(path))
        seen[`${encoding} ${path}`] = {
          status: answer.status,
          headers: Object.fromEntries(HEADERS.map((name) => [name, answer.headers[name] ?? null])),
          sha256: createHash('sha256').update(answer.body).digest('base64url'),
        };
      const coding = answer.headers['content-encoding'];
      const decode = coding ? decoders[coding] : undefined;
      if (coding) {
        compressed++;
        expect([path, encoding, typeof decode]).toEqual([path, encoding, 'function']);
        expect([path, encoding, decode?.(answer.body).equals(plain.body)]).toEqual([path, encoding, true]);
      } else expect([path, encoding, answer.body.equals(plain.body)]).toEqual([path, encoding, true]);
    }
  }
  // The long answers were compressed in each coding asked for.
  expect(compressed).toBeGreaterThan(20);
  expect(seen).toMatchSnapshot();
});

it('sends a fresh answer as a quick copy under a tag of its own, and the kept copy once it is asked again', async () => {
  // A window no other test asks for: its first answer is computed for this request.
  const path = '/api/v1/exchange-rate/range?from=2024-02-01&to=2024-12-31';
  const first = await raw(path, 'br, gzip');
  const again = await raw(path, 'br, gzip');
  const plain = await raw(path, 'identity');
  expect([first.headers['content-encoding'], again.headers['content-encoding']]).toEqual(['br', 'br']);
  expect(first.headers.etag).toBe(`${plain.headers.etag?.slice(0, -1)}-br-quick"`);
  expect(again.headers.etag).toBe(`${plain.headers.etag?.slice(0, -1)}-br"`);
  expect(brotliDecompressSync(first.body).equals(plain.body)).toBe(true);
  expect(brotliDecompressSync(again.body).equals(plain.body)).toBe(true);
  // The kept copy is worth its cost: smaller than the quick one.
  expect(again.body.length).toBeLessThan(first.body.length);
  // A client holding the quick copy holds the same answer: revalidating it is a 304.
  const revalidated = await raw(path, 'br, gzip', { 'if-none-match': String(first.headers.etag) });
  expect([revalidated.status, revalidated.headers.etag]).toEqual([304, first.headers.etag]);
});

it('keeps an answer from its second asking on: one asked for once is sent and let go', async () => {
  const query = '/exchange-rate/range?from=2023-03-01&to=2023-11-30';
  // The calendar day in Costa Rica at the app's clock.
  const kept = () => t.app.responseCache.get(`2025-01-15 ${query}`);
  const first = await raw(`/api/v1${query}`, 'identity');
  expect(kept()).toBeUndefined();
  const second = await raw(`/api/v1${query}`, 'identity');
  expect(kept()?.etag).toBe(first.headers.etag);
  const third = await raw(`/api/v1${query}`, 'identity');
  // The same answer each time, under the same tag.
  expect([second.body.equals(first.body), third.body.equals(first.body)]).toEqual([true, true]);
  expect([second.headers.etag, third.headers.etag]).toEqual([first.headers.etag, first.headers.etag]);
});
