/**
 * The site's icon: /favicon.ico answers a real ICO (not the 404 every browser visit used to get),
 * the pages link an SVG icon that answers too, and both are cached, with an ETag and its 304.
 */
import { rate, startTestApp, type TestApp } from '../../helpers/app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ clock: () => new Date('2025-01-16T05:30:00Z') });
  await t.seed([rate('2025-01-15', 468.29, 474.1)]);
});
afterAll(() => t.close());

async function get(path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${t.url}${path}`, { headers });
  return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
}

it('/favicon.ico is an ICO of one 32×32 32-bit image, cached for a week with an ETag', async () => {
  const res = await get('/favicon.ico');
  expect([res.status, res.headers.get('content-type'), res.headers.get('cache-control')]).toEqual([200, 'image/x-icon', 'public, max-age=604800']);
  const ico = res.body;
  // ICONDIR: reserved 0, type 1 (icon), one image.
  expect([ico.readUInt16LE(0), ico.readUInt16LE(2), ico.readUInt16LE(4)]).toEqual([0, 1, 1]);
  // Its entry: 32×32, 32 bits per pixel, its size and where it starts, which the file bears out.
  const [width, height, bits, size, offset] = [ico.readUInt8(6), ico.readUInt8(7), ico.readUInt16LE(12), ico.readUInt32LE(14), ico.readUInt32LE(18)];
  expect([width, height, bits, offset + size]).toEqual([32, 32, 32, ico.length]);
  // The bitmap: a 40-byte header, twice the height (with the AND mask), 32 bits, uncompressed.
  expect([
    ico.readUInt32LE(offset),
    ico.readInt32LE(offset + 4),
    ico.readInt32LE(offset + 8),
    ico.readUInt16LE(offset + 14),
    ico.readUInt32LE(offset + 16),
  ]).toEqual([40, 32, 64, 32, 0]);
  expect(size).toBe(40 + 32 * 32 * 4 + 32 * 4);
  // Not a blank square: some pixels are opaque, some transparent (the corners), in more than one colour.
  const colours = new Set<string>();
  for (let at = offset + 40; at < offset + 40 + 32 * 32 * 4; at += 4) colours.add(ico.subarray(at, at + 4).toString('hex'));
  expect(colours.size).toBeGreaterThanOrEqual(3);

  const again = await get('/favicon.ico', { 'if-none-match': res.headers.get('etag') ?? '' });
  expect(again.status).toBe(304);
});

it('the pages link an SVG icon, which answers as one', async () => {
  for (const page of ['/es', '/en']) {
    const html = (await get(page)).body.toString();
    expect([page, html]).toEqual([page, expect.stringContaining('<link rel="icon" href="/favicon.svg" type="image/svg+xml">')]);
  }
  const svg = await get('/favicon.svg');
  expect([svg.status, svg.headers.get('content-type'), svg.headers.get('cache-control')]).toEqual([200, 'image/svg+xml', 'public, max-age=604800']);
  expect(svg.body.toString()).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" [^>]*>.*<\/svg>$/);
});
