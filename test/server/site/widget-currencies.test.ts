/**
 * The widgets of currencies other than the dollar, over HTTP: `currency` on the card, the banner
 * and /widget-data.json they poll, derived values (colones per dollar × the cross rate of the
 * same day, worked out by hand below), never called official, one cache entry per currency with
 * its own ETag, the site's per-IP limit, and a clear 400 for a currency not in the catalog.
 */
import { crossRate, rate, startTestApp, type TestApp } from '../../helpers/app';
import { SITE_LIMITS } from '../../../server/site';

// 23:30 on 2025-01-15 in Costa Rica, already the 16th in UTC.
const clock = () => new Date('2025-01-16T05:30:00Z');

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ clock, trustProxy: true });
  await t.seed([rate('2025-01-14', 505.1, 511.2), rate('2025-01-15', 468.29, 474.1), rate('2025-01-16', 999, 999)]);
  // The 16th is after today in Costa Rica: never shown, for any currency.
  await t.seedCross([
    crossRate('EUR', '2025-01-14', 1.0412),
    crossRate('EUR', '2025-01-15', 1.0301),
    crossRate('EUR', '2025-01-16', 1.5),
    crossRate('JPY', '2025-01-15', 156.42),
  ]);
});
afterAll(() => t.close());

let addresses = 0;
const newAddress = () => {
  addresses += 1;
  return `198.51.100.${addresses}`;
};

async function get(path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${t.url}${path}`, { headers });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

// 468.29 × 1.0301 = 482.385529 and 474.1 × 1.0301 = 488.37041.
const EUR = { buy: 482.39, sell: 488.37 };
const SHOWN = {
  es: { buy: '₡482,39', sell: '₡488,37', date: '15 de enero de 2025', derived: 'Derivado del tipo cruzado del BCCR', official: /oficial/i },
  en: { buy: '₡482.39', sell: '₡488.37', date: 'January 15, 2025', derived: 'Derived from the BCCR cross rate', official: /official/i },
} as const;

describe.each([
  ['/es/widget', 'es', 'card'],
  ['/en/widget', 'en', 'card'],
  ['/es/banner', 'es', 'banner'],
  ['/en/banner', 'en', 'banner'],
] as const)('GET %s?currency=EUR', (path, lang, kind) => {
  it('shows the euro’s latest derived rate, its code and name, and says where it comes from', async () => {
    const { status, headers, text } = await get(`${path}?currency=EUR`);
    expect(status).toBe(200);
    expect(headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(headers.get('content-security-policy')).toContain('frame-ancestors *');
    expect(headers.get('cache-control')).toBe('public, max-age=60');
    expect(text).toContain(`class="widget widget--${kind}"`);
    expect(text).toContain(`<dd data-field="buy">${SHOWN[lang].buy}</dd>`);
    expect(text).toContain(`<dd data-field="sell">${SHOWN[lang].sell}</dd>`);
    expect(text).toContain(`<time data-field="date" datetime="2025-01-15">${SHOWN[lang].date}</time>`);
    expect(text).toContain('<span class="widget__name" title="Euro">Euro</span> <span class="widget__pair">EUR/CRC</span>');
    expect(text).toContain(SHOWN[lang].derived);
    expect(text).toContain('data-currency="EUR"');
    // It polls for the same currency.
    expect(text).toContain('data-src="/widget-data.json?currency=EUR"');
    // Not the dollar's rate, and never "official", not even in the frame's title.
    expect(text).not.toContain('USD/CRC');
    expect(text).not.toMatch(SHOWN[lang].official);
  });
});

it('keeps the dollar’s widget as it was: official, USD/CRC, polling the plain address', async () => {
  for (const query of ['', '?currency=USD', '?currency=usd']) {
    const { status, text } = await get(`/en/widget${query}`);
    expect(status).toBe(200);
    expect(text).toContain('<h1 class="widget__title">Official exchange rate <span class="widget__pair">USD/CRC</span></h1>');
    expect(text).toContain('<dd data-field="buy">₡468.29</dd>');
    expect(text).toContain('data-src="/widget-data.json"');
    expect(text).not.toContain('data-derived');
  }
});

it('takes the code in any case, and the same code gives the same page', async () => {
  const upper = await get('/en/banner?currency=EUR');
  for (const query of ['?currency=eur', '?currency=Eur', '?currency=%20eur%20']) {
    const other = await get(`/en/banner${query}`);
    expect(other.status).toBe(200);
    expect(other.text).toBe(upper.text);
    expect(other.headers.get('etag')).toBe(upper.headers.get('etag'));
  }
});

it('keeps the 6 significant digits of a rate below 10 colones (the yen)', async () => {
  // 468.29 ÷ 156.42 = 2.993798… and 474.1 ÷ 156.42 = 3.030942…
  const { text } = await get('/en/widget?currency=jpy');
  expect(text).toContain('<dd data-field="buy">₡2.9938</dd>');
  expect(text).toContain('<dd data-field="sell">₡3.03094</dd>');
  expect(text).toContain('JPY/CRC');
  expect(text).toContain('Japanese yen');
});

it('shows the empty state for a currency of the catalog that has no rate yet', async () => {
  const page = await get('/es/widget?currency=GBP');
  expect(page.status).toBe(200);
  expect(page.text).toContain('<p class="widget__empty" data-state="empty">');
  expect(page.text).toContain('GBP/CRC');
  expect(page.text).toContain('Libra esterlina');
  const data = await get('/widget-data.json?currency=gbp');
  expect(data.status).toBe(200);
  expect(JSON.parse(data.text)).toEqual({ currency: 'GBP', kind: 'derived', date: null, buy: null, sell: null, source: null, fetchedAt: null });
});

describe('GET /widget-data.json?currency=EUR', () => {
  it('is the euro’s latest derived record, public and cacheable like the dollar’s', async () => {
    const { status, headers, text } = await get('/widget-data.json?currency=EUR');
    expect(status).toBe(200);
    expect(headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(headers.get('cache-control')).toBe('public, max-age=30');
    expect(headers.get('etag')).toMatch(/^"[\w-]+"$/);
    expect(JSON.parse(text)).toEqual({ currency: 'EUR', kind: 'derived', date: '2025-01-15', ...EUR, source: 'BCCR', fetchedAt: '2025-01-14T18:05:12.000Z' });
    const lower = await get('/widget-data.json?currency=eur');
    expect(lower.text).toBe(text);
    expect(lower.headers.get('etag')).toBe(headers.get('etag'));
  });

  it('has an ETag of its own: 304 while the euro is unchanged, a new one when its cross rate changes, the dollar’s untouched', async () => {
    const eur = await get('/widget-data.json?currency=EUR');
    const usd = await get('/widget-data.json');
    const eurTag = eur.headers.get('etag') ?? '';
    const usdTag = usd.headers.get('etag') ?? '';
    expect(eurTag).not.toBe(usdTag);
    expect((await get('/widget-data.json?currency=EUR', { 'If-None-Match': eurTag })).status).toBe(304);
    // The dollar's tag is no match for the euro's answer.
    expect((await get('/widget-data.json?currency=EUR', { 'If-None-Match': usdTag })).status).toBe(200);

    await t.seedCross([crossRate('EUR', '2025-01-15', 1.04)]);
    try {
      const changed = await get('/widget-data.json?currency=EUR', { 'If-None-Match': eurTag });
      expect(changed.status).toBe(200);
      expect(changed.headers.get('etag')).not.toBe(eurTag);
      // 468.29 × 1.04 = 487.0216 and 474.1 × 1.04 = 493.064.
      expect(JSON.parse(changed.text)).toMatchObject({ currency: 'EUR', buy: 487.02, sell: 493.06 });
      expect((await get('/en/widget?currency=EUR')).text).toContain('<dd data-field="buy">₡487.02</dd>');
      expect((await get('/widget-data.json', { 'If-None-Match': usdTag })).status).toBe(304);
    } finally {
      await t.seedCross([crossRate('EUR', '2025-01-15', 1.0301)]);
    }
  });

  it('counts against the same per-IP limit as every page of the site', async () => {
    const ip = newAddress();
    const first = await get('/widget-data.json', { 'X-Forwarded-For': ip });
    const second = await get('/widget-data.json?currency=EUR', { 'X-Forwarded-For': ip });
    const third = await get('/en/banner?currency=JPY', { 'X-Forwarded-For': ip });
    expect(first.headers.get('x-ratelimit-limit')).toBe(String(SITE_LIMITS.pagesPerMinute));
    expect(second.headers.get('x-ratelimit-limit')).toBe(String(SITE_LIMITS.pagesPerMinute));
    const remaining = [first, second, third].map((r) => Number(r.headers.get('x-ratelimit-remaining')));
    expect(remaining).toEqual([SITE_LIMITS.pagesPerMinute - 1, SITE_LIMITS.pagesPerMinute - 2, SITE_LIMITS.pagesPerMinute - 3]);
  });
});

describe('a currency not in the catalog', () => {
  it.each(['XYZ', 'usdd', '', 'CRC'])('answers /widget-data.json?currency=%s with a 400 that names the parameter', async (given) => {
    const { status, headers, text } = await get(`/widget-data.json?currency=${encodeURIComponent(given)}`);
    expect(status).toBe(400);
    expect(headers.get('cache-control')).toBe('no-store');
    expect(JSON.parse(text)).toEqual({
      success: false,
      error: 'BAD_REQUEST',
      message: `"currency" must be a supported currency code (got "${given}"); GET /api/v1/currencies lists them`,
    });
  });

  it('answers a repeated currency with a 400 too', async () => {
    const data = await get('/widget-data.json?currency=EUR&currency=USD');
    expect(data.status).toBe(400);
    expect(JSON.parse(data.text)).toMatchObject({ error: 'BAD_REQUEST', message: 'Parameter "currency" must be given only once' });
    const page = await get('/en/widget?currency=EUR&currency=USD');
    expect(page.status).toBe(400);
    expect(page.text).toContain('The currency parameter must be given only once.');
  });

  it.each([
    ['en', 'widget', 'The currency parameter must be a supported currency code, such as USD, EUR or JPY. It got:'],
    ['es', 'banner', 'El parámetro currency debe ser un código de moneda admitido, como USD, EUR o JPY. Recibió:'],
  ] as const)('answers /%s/%s with a 400 page, in the frame, saying what to change', async (lang, path, words) => {
    const { status, headers, text } = await get(`/${lang}/${path}?currency=XYZ&theme=dark`);
    expect(status).toBe(400);
    expect(headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(headers.get('cache-control')).toBe('no-store');
    expect(headers.get('etag')).toBeNull();
    // Still a widget any site may frame, so the embedder sees the message where the widget was.
    expect(headers.get('content-security-policy')).toContain('frame-ancestors *');
    expect(headers.get('x-frame-options')).toBeNull();
    expect(text).toContain(`<html lang="${lang}" data-theme="dark">`);
    expect(text).toContain(`${words} <code>XYZ</code>`);
    expect(text).not.toContain('<script');
    expect(text).not.toContain('data-field="buy"');
  });

  it('escapes what it shows of the value, and shows no more than 16 characters of it', async () => {
    const given = '<img src=x onerror=alert(1)>"&';
    const { status, text } = await get(`/en/widget?currency=${encodeURIComponent(given)}`);
    expect(status).toBe(400);
    expect(text).not.toContain('<img');
    expect(text).toContain('<code>&lt;img src=x onerr…</code>');
    const data = await get(`/widget-data.json?currency=${encodeURIComponent(given)}`);
    expect(data.status).toBe(400);
    expect(data.headers.get('content-type')).toMatch(/^application\/json/);
  });
});
