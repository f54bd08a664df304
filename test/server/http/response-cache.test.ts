/** The response cache: bounded by the bytes it holds, and each answer compressed at most once per coding. */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { ResponseCache } from '../../../server/http/response-cache';

const answer = (text: string) => ({ text, type: 'application/json; charset=utf-8', headers: {} });

it('drops the oldest answers when the bodies would pass the byte budget', () => {
  const cache = new ResponseCache(1000);
  cache.set('a', answer('a'.repeat(400)));
  cache.set('b', answer('b'.repeat(400)));
  expect(cache.heldBytes).toBe(800);
  cache.set('c', answer('c'.repeat(400)));
  expect(cache.get('a')).toBeUndefined();
  expect(cache.get('b')?.body).toBe('b'.repeat(400));
  expect(cache.get('c')?.body).toBe('c'.repeat(400));
  expect(cache.heldBytes).toBe(800);
});

it('counts bytes, not characters, and never keeps an answer larger than the whole budget', () => {
  const cache = new ResponseCache(1000);
  cache.set('accents', answer('é'.repeat(300)));
  expect(cache.heldBytes).toBe(600);
  const huge = cache.set('huge', answer('x'.repeat(1001)));
  expect(huge.body).toBe('x'.repeat(1001));
  expect(cache.get('huge')).toBeUndefined();
  expect(cache.get('accents')).toBeDefined();
});

it('replacing a key, dropping and clearing give its bytes back', () => {
  const cache = new ResponseCache(1000);
  cache.set('a', answer('a'.repeat(400)));
  cache.set('a', answer('a'.repeat(300)));
  expect(cache.heldBytes).toBe(300);
  cache.set('b', answer('b'.repeat(200)));
  cache.drop((key) => key === 'a');
  expect(cache.heldBytes).toBe(200);
  cache.clear();
  expect(cache.heldBytes).toBe(0);
  expect(cache.size).toBe(0);
});

it('compresses an answer once per coding and keeps the copy', async () => {
  const cache = new ResponseCache();
  const text = JSON.stringify({ success: true, data: Array.from({ length: 200 }, (_, i) => ({ day: i, buy: 500 + i })) });
  const entry = cache.set('k', answer(text));
  const first = entry.compressed('br');
  expect(entry.compressed('br')).toBe(first);
  expect(brotliDecompressSync(await first).toString()).toBe(text);
  expect(gunzipSync(await entry.compressed('gzip')).toString()).toBe(text);
  expect((await first).length).toBeLessThan(text.length / 3);
});

it("a kept compressed copy holds its own bytes only, not the compressor's buffer", async () => {
  const cache = new ResponseCache();
  // Its copies come out between Node's pooled sizes (a few KB) and zlib's 16 KB chunk.
  const text = JSON.stringify(Array.from({ length: 500 }, (_, i) => ({ date: `d${i}`, buy: 500 + Math.sin(i) * 20, sell: 505 + Math.cos(i) * 20 })));
  const entry = cache.set('k', answer(text));
  for (const coding of ['br', 'gzip'] as const) {
    const copy = await entry.compressed(coding);
    expect(copy.length).toBeGreaterThan(4096);
    expect(copy.buffer.byteLength).toBe(copy.length);
  }
});

it('an expired answer is gone, and its bytes with it', () => {
  let now = 0;
  const cache = new ResponseCache(1000, 100, () => now);
  cache.set('a', answer('a'.repeat(100)));
  now = 101;
  expect(cache.get('a')).toBeUndefined();
  expect(cache.heldBytes).toBe(0);
});
