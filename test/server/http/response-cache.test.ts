/**
 * The response cache: bounded by what it holds (bodies, keys and each entry's overhead), and each
 * answer compressed at most once per coding.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { ENTRY_OVERHEAD_BYTES, entryCost, REMEMBERED_KEYS, ResponseCache } from '../../../server/http/response-cache';

/** A budget of `bodies` bytes of bodies under one-character keys, `entries` of them. */
const budget = (bodies: number, entries: number) => bodies + entries * (1 + ENTRY_OVERHEAD_BYTES);

const answer = (text: string) => ({ text, type: 'application/json; charset=utf-8', headers: {} });

it('drops the oldest answers when the answers would pass the byte budget', () => {
  const cache = new ResponseCache(budget(1000, 2));
  cache.set('a', answer('a'.repeat(400)));
  cache.set('b', answer('b'.repeat(400)));
  expect(cache.heldBytes).toBe(budget(800, 2));
  cache.set('c', answer('c'.repeat(400)));
  expect(cache.get('a')).toBeUndefined();
  expect(cache.get('b')?.body).toBe('b'.repeat(400));
  expect(cache.get('c')?.body).toBe('c'.repeat(400));
  expect(cache.heldBytes).toBe(budget(800, 2));
});

it('lets go of the answers asked for least lately: one served since the budget last passed it stays', () => {
  const cache = new ResponseCache(budget(1000, 2));
  const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((letter) => letter.repeat(400)) as [string, string, string, string];
  cache.set('a', answer(a));
  cache.set('b', answer(b));
  expect(cache.get('a')?.body).toBe(a);
  // The oldest, a, was served since: b goes instead.
  cache.set('c', answer(c));
  expect(cache.get('b')).toBeUndefined();
  // Both served now, a first: once each has had its second chance, a goes.
  expect([cache.get('a')?.body, cache.get('c')?.body]).toEqual([a, c]);
  cache.set('d', answer(d));
  expect([cache.get('a'), cache.get('c')?.body, cache.get('d')?.body]).toEqual([undefined, c, d]);
  expect(cache.heldBytes).toBe(budget(800, 2));
});

it("counts each entry's overhead and key, so many short answers are held to the budget too", () => {
  // 64 KB of budget: as bodies alone, some 250 answers of 260 bytes; with what each entry costs, under 80.
  const cache = new ResponseCache(64 * 1024);
  for (let i = 0; i < 1000; i++) cache.set(`2025-01-16 /exchange-rate?date=${i}`, answer('x'.repeat(260)));
  const key = '2025-01-16 /exchange-rate?date=999';
  expect(cache.size).toBe(Math.floor((64 * 1024) / entryCost(key, 260)));
  expect(cache.heldBytes).toBeLessThanOrEqual(64 * 1024);
  expect(cache.heldBytes).toBe(cache.size * entryCost(key, 260));
  expect(cache.get(key)).toBeDefined();
});

it('counts bytes, not characters, and never keeps an answer larger than the whole budget', () => {
  const cache = new ResponseCache(budget(1000, 1));
  cache.set('accents', answer('é'.repeat(300)));
  expect(cache.heldBytes).toBe(entryCost('accents', 600));
  const huge = cache.set('huge', answer('x'.repeat(1001)));
  expect(huge.body).toBe('x'.repeat(1001));
  expect(cache.get('huge')).toBeUndefined();
  expect(cache.get('accents')).toBeDefined();
});

it('replacing a key, dropping and clearing give its bytes back', () => {
  const cache = new ResponseCache(budget(1000, 2));
  cache.set('a', answer('a'.repeat(400)));
  cache.set('a', answer('a'.repeat(300)));
  expect(cache.heldBytes).toBe(budget(300, 1));
  cache.set('b', answer('b'.repeat(200)));
  cache.drop((key) => key === 'a');
  expect(cache.heldBytes).toBe(budget(200, 1));
  cache.clear();
  expect(cache.heldBytes).toBe(0);
  expect(cache.size).toBe(0);
});

it('compresses an answer once per coding and keeps the copy', () => {
  const cache = new ResponseCache();
  const text = JSON.stringify({ success: true, data: Array.from({ length: 200 }, (_, i) => ({ day: i, buy: 500 + i })) });
  const entry = cache.set('k', answer(text));
  const first = entry.compressed('br', 'kept');
  expect(entry.compressed('br', 'kept')).toBe(first);
  expect(brotliDecompressSync(first).toString()).toBe(text);
  expect(gunzipSync(entry.compressed('gzip', 'kept')).toString()).toBe(text);
  expect(first.length).toBeLessThan(text.length / 3);
});

it('makes a quick copy for one serving, not kept, and a kept copy no larger', () => {
  const cache = new ResponseCache();
  const text = JSON.stringify({
    success: true,
    data: Array.from({ length: 400 }, (_, i) => ({ date: `d${i}`, buy: 500 + Math.round(Math.sin(i) * 2000) / 100 })),
  });
  const entry = cache.set('k', answer(text));
  for (const coding of ['br', 'gzip'] as const) {
    const quick = entry.compressed(coding, 'quick');
    expect(entry.compressed(coding, 'quick')).not.toBe(quick);
    const decompress = coding === 'br' ? brotliDecompressSync : gunzipSync;
    expect(decompress(quick).toString()).toBe(text);
    const kept = entry.compressed(coding, 'kept');
    expect(decompress(kept).toString()).toBe(text);
    expect(kept.length).toBeLessThan(quick.length);
  }
});

it("a kept compressed copy holds its own bytes only, not the compressor's buffer", async () => {
  const cache = new ResponseCache();
  // Its copies come out between Node's pooled sizes (a few KB) and zlib's 16 KB chunk.
  const text = JSON.stringify(Array.from({ length: 500 }, (_, i) => ({ date: `d${i}`, buy: 500 + Math.sin(i) * 20, sell: 505 + Math.cos(i) * 20 })));
  const entry = cache.set('k', answer(text));
  for (const coding of ['br', 'gzip'] as const) {
    const copy = entry.compressed(coding, 'kept');
    expect(copy.length).toBeGreaterThan(4096);
    expect(copy.buffer.byteLength).toBe(copy.length);
  }
});

it('an expired answer is gone, and its bytes with it', () => {
  let now = 0;
  const cache = new ResponseCache(budget(1000, 1), 100, () => now);
  cache.set('a', answer('a'.repeat(100)));
  now = 101;
  expect(cache.get('a')).toBeUndefined();
  expect(cache.heldBytes).toBe(0);
});

it('admits an answer from its second asking on, and remembers a bounded number of keys asked once', () => {
  const cache = new ResponseCache();
  expect([cache.admit('a'), cache.admit('b'), cache.admit('a'), cache.admit('b')]).toEqual([false, false, true, true]);
  // Admitted once, a key starts over: kept answers are found by get() and never asked to admit.
  expect(cache.admit('a')).toBe(false);
  // Past the bound, the keys asked once are forgotten all together.
  for (let i = 0; i < REMEMBERED_KEYS; i++) cache.admit(`once ${i}`);
  expect(cache.admit('a')).toBe(false);
  expect(cache.admit('once 1')).toBe(false);
  expect(cache.admit('once 1')).toBe(true);
});
