/**
 * The site over HTTP: widget pages (frameable by anyone, strict CSP, local files only), the JSON
 * they poll (ETag, 304, per-IP limit, never a key's quota), the landing page in both languages
 * and the form's answer to a browser without JavaScript.
 */
import http from 'node:http';
import { rate, startTestApp, type TestApp } from '../../helpers/app';
import { SITE_LIMITS } from '../../../server/site';

// 23:30 on 2025-01-15 in Costa Rica, already the 16th in UTC.
const clock = () => new Date('2025-01-16T05:30:00Z');

let t: TestApp;
beforeAll(async () => {
  // Behind a trusted proxy, so that a test can be a client address of its own.
  t = await startTestApp({ clock, trustProxy: true });
  await t.seed([rate('2025-01-14', 505.1, 511.2), rate('2025-01-15', 468.29, 474.1), rate('2025-01-16', 999, 999)]);
});
afterAll(() => t.close());

let addresses = 0;
const newAddress = () => {
  addresses += 1;
  return `203.0.113.${addresses}`;
};

async function get(path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${t.url}${path}`, { headers });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** Every address a page loads or links to. */
const references = (page: string) => [...page.matchAll(/\s(?:src|href|action)="([^"]*)"/g)].map((m) => m[1] ?? '');

function expectStrictPage(page: string) {
  // Scripts and styles are files: a CSP without 'unsafe-inline' must not break anything.
  expect(page).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
  expect(page).not.toMatch(/<style[\s>]/);
  expect(page).not.toMatch(/\sstyle="/);
  expect(page).not.toMatch(/\son[a-z]+="/);
  // Nothing from another origin.
  for (const ref of references(page)) expect(ref).toMatch(/^(\/(?!\/)|#)/);
}

describe.each([
  ['/es/widget', 'es', 'card'],
  ['/en/widget', 'en', 'card'],
  ['/es/banner', 'es', 'banner'],
  ['/en/banner', 'en', 'banner'],
])('GET %s', (path, lang, kind) => {
  it('is an HTML page any site may frame, under a strict policy', async () => {
    const { status, headers, text } = await get(path);
    expect(status).toBe(200);
    expect(headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = headers.get('content-security-policy') ?? '';
    expect(csp.split(/;\s*/)).toEqual(expect.arrayContaining(['frame-ancestors *', "default-src 'self'"]));
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(headers.get('x-frame-options')).toBeNull();
    expect(headers.get('x-content-type-options')).toBe('nosniff');
    expect(headers.get('cache-control')).toBe('public, max-age=60');
    expect(headers.get('etag')).toMatch(/^"[\w-]+"$/);
    expect(headers.get('x-quota-limit')).toBeNull();
    expectStrictPage(text);
    expect(text).toContain(`class="widget widget--${kind}"`);
    expect(text).toContain(`<html lang="${lang}"`);
  });

  it('renders the latest official rate not after today, formatted for the language', async () => {
    const { text } = await get(path);
    const [buy, sell, date] = lang === 'es' ? ['₡468,29', '₡474,10', '15 de enero de 2025'] : ['₡468.29', '₡474.10', 'January 15, 2025'];
    expect(text).toContain(`<dd data-field="buy">${buy}</dd>`);
    expect(text).toContain(`<dd data-field="sell">${sell}</dd>`);
    expect(text).toContain(`<time data-field="date" datetime="2025-01-15">${date}</time>`);
    expect(text).toContain('<span data-field="source">BCCR</span>');
    expect(text).toMatch(/aria-live="polite"/);
    expect(text).toMatch(new RegExp(`<a href="/${lang}" target="_blank" rel="noopener">`));
    expect(text).toContain('data-refresh="60"');
    expect(text).not.toContain('data-demo');
  });
});

it.each(['/fr/widget', '/fr/banner', '/de', '/es/widgets', '/widget'])('answers %s with a 404, not an error', async (path) => {
  const { status } = await get(path);
  expect(status).toBe(404);
});

it.each([
  ['', 'auto', '60'],
  ['?theme=dark', 'dark', '60'],
  ['?theme=LIGHT&refresh=1', 'light', '1'],
  ['?theme=neon&refresh=soon', 'auto', '60'],
  ['?theme=dark&theme=light&refresh=0', 'auto', '1'],
  ['?refresh=86400', 'auto', '3600'],
])('takes theme and refresh from %s, falling back to the defaults', async (query, theme, refresh) => {
  const { status, text } = await get(`/es/widget${query}`);
  expect(status).toBe(200);
  expect(text).toContain(`data-theme="${theme}"`);
  expect(text).toContain(`data-refresh="${refresh}"`);
});

it('answers HEAD on a widget without a body', async () => {
  const response = await fetch(`${t.url}/en/banner`, { method: 'HEAD' });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-security-policy')).toContain('frame-ancestors *');
  expect(await response.text()).toBe('');
});

describe('GET /widget-data.json', () => {
  it('is the latest record, small, public and cacheable', async () => {
    const { status, headers, text } = await get('/widget-data.json');
    expect(status).toBe(200);
    expect(headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(headers.get('cache-control')).toBe('public, max-age=30');
    expect(headers.get('etag')).toMatch(/^"[\w-]+"$/);
    expect(JSON.parse(text)).toEqual({
      currency: 'USD',
      kind: 'official',
      date: '2025-01-15',
      buy: 468.29,
      sell: 474.1,
      source: 'BCCR',
      fetchedAt: '2025-01-14T18:05:12.000Z',
    });
  });

  it('answers a matching If-None-Match with 304, and a changed rate with a new ETag', async () => {
    const first = await get('/widget-data.json');
    const etag = first.headers.get('etag') ?? '';
    // fetch() marks conditional requests `Cache-Control: no-cache`, as the widgets' script does.
    const again = await get('/widget-data.json', { 'If-None-Match': etag, 'Cache-Control': 'no-cache' });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers.get('etag')).toBe(etag);

    await t.seed([rate('2025-01-15', 468.3, 474.1)]);
    try {
      const changed = await get('/widget-data.json', { 'If-None-Match': etag });
      expect(changed.status).toBe(200);
      expect(changed.headers.get('etag')).not.toBe(etag);
      expect(JSON.parse(changed.text)).toMatchObject({ date: '2025-01-15', buy: 468.3 });
    } finally {
      await t.seed([rate('2025-01-15', 468.29, 474.1)]);
    }
  });

  it('takes no key and never counts against one', async () => {
    const usage = async () => ((await t.get('/usage')).body.data as { used: number }).used;
    const before = await usage();
    for (let i = 0; i < 5; i++) {
      const { status, headers } = await get('/widget-data.json', { 'x-api-key': t.key });
      expect(status).toBe(200);
      expect(headers.get('x-quota-limit')).toBeNull();
    }
    await get('/es/widget', { 'x-api-key': t.key });
    expect(await usage()).toBe(before);
    expect((await get('/widget-data.json', { 'x-api-key': 'not-a-key' })).status).toBe(200);
  });

  it('is limited per IP, generously, with its own limit', async () => {
    const ip = newAddress();
    const max = SITE_LIMITS.pagesPerMinute;
    const first = await get('/widget-data.json', { 'X-Forwarded-For': ip });
    expect(first.headers.get('x-ratelimit-limit')).toBe(String(max));
    expect(max).toBeGreaterThanOrEqual(600); // a whole office's widgets, each polling every minute
    const statuses: number[] = [];
    for (let sent = 1; sent < max; sent += 100) {
      const batch = Array.from({ length: Math.min(100, max - sent) }, () => get('/widget-data.json', { 'X-Forwarded-For': ip }).then((r) => r.status));
      statuses.push(...(await Promise.all(batch)));
    }
    expect(statuses.every((s) => s === 200)).toBe(true);
    const over = await get('/widget-data.json', { 'X-Forwarded-For': ip });
    expect(over.status).toBe(429);
    expect(JSON.parse(over.text)).toMatchObject({ success: false, error: 'RATE_LIMITED' });
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // Another address, and the API's own limit, are untouched.
    expect((await get('/widget-data.json', { 'X-Forwarded-For': newAddress() })).status).toBe(200);
    expect((await t.get('/exchange-rate/latest', { 'X-Forwarded-For': ip })).status).toBe(200);
  });
});

describe('assets', () => {
  it('serves the files the pages link, with their types, cached for good when versioned', async () => {
    const pages = [(await get('/es/widget')).text, (await get('/es')).text];
    const files = [...new Set(pages.flatMap((p) => references(p)).filter((r) => r.startsWith('/assets/')))];
    expect(files.map((f) => f.replace(/\?.*/, '')).sort()).toEqual([
      '/assets/copy.js',
      '/assets/format.js',
      '/assets/site.css',
      '/assets/site.js',
      '/assets/widget.css',
      '/assets/widget.js',
    ]);
    for (const file of files) {
      const { status, headers } = await get(file);
      expect(status).toBe(200);
      expect(headers.get('content-type')).toMatch(file.includes('.css') ? /^text\/css; charset=utf-8$/ : /^application\/javascript; charset=utf-8$/);
      expect(headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(headers.get('x-content-type-options')).toBe('nosniff');
      const again = await get(file, { 'If-None-Match': headers.get('etag') ?? '' });
      expect(again.status).toBe(304);
    }
  });

  it('revalidates an unversioned or stale address soon, and 404s an unknown file', async () => {
    expect((await get('/assets/widget.js')).headers.get('cache-control')).toBe('public, max-age=300');
    expect((await get('/assets/widget.js?v=old')).headers.get('cache-control')).toBe('public, max-age=300');
    expect((await get('/assets/secret.js')).status).toBe(404);
    expect((await get('/assets/..%2Findex.ts')).status).toBe(404);
  });
});

describe('the landing page', () => {
  it.each([
    [{}, 'es'],
    [{ 'Accept-Language': 'en-US,en;q=0.9' }, 'en'],
    [{ 'Accept-Language': 'fr-FR,fr;q=0.9' }, 'es'],
    [{ 'Accept-Language': 'fr, en;q=0.5, es;q=0.8' }, 'es'],
  ])('answers / with %j in %s', async (headers, lang) => {
    const { status, headers: answer, text } = await get('/', headers);
    expect(status).toBe(200);
    expect(text).toContain(`<html lang="${lang}"`);
    expect(answer.get('vary')).toMatch(/Accept-Language/);
  });

  it.each(['es', 'en'] as const)('in %s: the service, today’s rate, the widgets and their code, pricing, the API and the form', async (lang) => {
    const { status, headers, text } = await get(`/${lang}`);
    expect(status).toBe(200);
    expect(headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(headers.get('content-security-policy')).not.toMatch(/unsafe-inline/);
    expect(headers.get('x-frame-options')).toBe('DENY');
    expectStrictPage(text);

    expect(text).toContain(lang === 'es' ? '<dd>₡468,29</dd>' : '<dd>₡468.29</dd>');
    expect(text).toContain(`<iframe src="/${lang}/widget" width="360" height="150"`);
    expect(text).toContain(`<iframe src="/${lang}/banner" width="640" height="90"`);
    // The embed code, shown as text, frames the widget from this very host.
    expect(text).toContain(`&lt;iframe src=&quot;${t.url}/${lang}/widget&quot; width=&quot;360&quot; height=&quot;150&quot;`);
    expect(text).toContain(`&lt;iframe src=&quot;${t.url}/${lang}/banner&quot; width=&quot;640&quot; height=&quot;90&quot;`);
    expect(text).toContain(lang === 'es' ? '2,99 USD' : '2.99 USD');
    expect(text).toMatch(lang === 'es' ? /5\s000 consultas al mes/ : /5,000 requests per month/);
    expect(text).toContain(lang === 'es' ? '60 consultas por minuto' : '60 requests per minute');
    expect(text).toContain('<h3>Custom</h3>');
    expect(text).toContain('href="/docs"');
    expect(text).toContain('href="/api/v1/openapi.json"');
    expect(text).toMatch(/<form class="form" method="post" action="\/request-access"/);
    expect(text).toContain(`<input type="hidden" name="lang" value="${lang}">`);
    expect(text).toContain(`href="/${lang === 'es' ? 'en' : 'es'}"`);
    // Each code block has its copy button, hidden until copy.js runs; this app serves real data.
    const blocks = [...text.matchAll(/<code id="([\w-]+)">/g)].map((m) => m[1]);
    expect(blocks).toEqual(['snippet-card', 'snippet-banner', 'snippet-api']);
    expect([...text.matchAll(/<button class="copy" type="button" data-copy="([\w-]+)"[^>]* hidden>/g)].map((m) => m[1])).toEqual(blocks);
    expect(text).not.toContain('data-demo');
  });

  it('escapes what the request puts in the page, and never writes its Host into it', async () => {
    const page = await new Promise<string>((resolve, reject) => {
      const { port } = new URL(t.url);
      const request = http.request(
        { host: '127.0.0.1', port, path: '/en?plan=%22%3E%3Cscript%3E', headers: { host: 'evil.example"><script>alert(1)</script>' } },
        (response) => {
          let body = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (body += chunk));
          response.on('end', () => resolve(body));
        },
      );
      request.on('error', reject);
      request.end();
    });
    // The snippets point at the configured public address; a forged Host could poison a shared cache.
    expect(page).toContain(`&lt;iframe src=&quot;${t.url}/en/widget&quot;`);
    expect(page).not.toContain('evil.example');
    expect(page).not.toContain('<script>alert');
    expect(page).toContain('<option value="pro" selected>');
  });

  it('shows that there is no rate yet on a fresh installation, and so do the widgets and their data', async () => {
    const fresh = await startTestApp({ clock });
    try {
      const landing = await fetch(`${fresh.url}/es`);
      expect(landing.status).toBe(200);
      expect(await landing.text()).toContain('Aún no hay datos del tipo de cambio');
      const widget = await fetch(`${fresh.url}/en/widget`);
      expect(widget.status).toBe(200);
      const page = await widget.text();
      expect(page).toContain('<p class="widget__empty" data-state="empty">No exchange rate data yet.');
      expect(page).toContain('<div class="widget__rate" data-state="rate" hidden>');
      const data = await fetch(`${fresh.url}/widget-data.json`);
      expect(data.status).toBe(200);
      expect(await data.json()).toEqual({ currency: 'USD', kind: 'official', date: null, buy: null, sell: null, source: null, fetchedAt: null });
    } finally {
      await fresh.close();
    }
  });
});

describe('POST /request-access from a browser without JavaScript', () => {
  const post = (fields: Record<string, string>, accept: string) =>
    fetch(`${t.url}/request-access`, { method: 'POST', headers: { Accept: accept, 'X-Forwarded-For': newAddress() }, body: new URLSearchParams(fields) });

  it.each(['es', 'en'] as const)('answers a refused field with a page in the form’s language (%s), in the site’s look', async (lang) => {
    const response = await post({ name: 'Ana', email: 'ana@example', plan: 'pro', lang }, 'text/html,application/xhtml+xml,*/*;q=0.8');
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const page = await response.text();
    expect(page).toContain(`<html lang="${lang}"`);
    expect(page).toContain(lang === 'es' ? 'Correo electrónico: Escriba un correo electrónico válido.' : 'Email: Enter a valid email address.');
    expect(page).toMatch(/<link rel="stylesheet" href="\/assets\/site\.css[^"]*">/);
    expect(page).toContain(`href="/${lang}#request"`);
    expectStrictPage(page);
  });

  it.each(['es', 'en'] as const)('thanks a stored request with a page in the form’s language (%s), in the site’s look', async (lang) => {
    const response = await post({ name: 'Ana <b>Mora</b>', email: 'ana@example.com', plan: 'pro', lang }, 'text/html,application/xhtml+xml,*/*;q=0.8');
    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const page = await response.text();
    expect(page).toContain(`<html lang="${lang}"`);
    expect(page).toContain(lang === 'es' ? 'Solicitud recibida' : 'Request received');
    expect(page).toMatch(/<link rel="stylesheet" href="\/assets\/site\.css[^"]*">/);
    expect(page).toContain(`href="/${lang}"`);
    expect(page).toContain(`<h1>${lang === 'es' ? 'Gracias' : 'Thank you'}, Ana &lt;b&gt;Mora&lt;/b&gt;</h1>`);
    expect(page).not.toContain('<b>Mora</b>');
    expectStrictPage(page);
  });

  it('keeps the JSON envelope for scripts and API clients', async () => {
    const response = await post({ name: 'Ana', email: 'ana@example', plan: 'pro', lang: 'en' }, 'application/json');
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ success: false, error: 'BAD_REQUEST', message: 'Field "email" must be a valid email address' });
  });
});
