/**
 * /exchange-rate/provenance and /exchange-rate/revisions at the edge: what each parameter
 * accepts (400 otherwise, naming it), the 404, the JSON default, and the HTML representation
 * served through the route list (its type, its inline styles and the policy that allows them, ETag
 * and 304, the key it needs).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { join } from 'node:path';
import type { Provenance } from '../../../shared/types';
import { rate, startTestApp, type TestApp } from '../../helpers/app';

/** The site's stylesheets, as the repository has them. */
const ASSETS = join(__dirname, '../../../server/site/assets');

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ clock: () => new Date('2025-01-16T18:00:00Z') });
  await t.seed([rate('2025-01-14', 506.1, 512.2), rate('2025-01-15', 506.47, 512.8), rate('2025-01-16', 507, 513.4, 'Hacienda')]);
});
afterAll(() => t.close());

describe('400s, each naming the parameter', () => {
  it.each([
    ['/exchange-rate/provenance', '', 'date'],
    ['/exchange-rate/provenance', '?date=2024-02-30', 'date'],
    ['/exchange-rate/provenance', '?date=15-01-2025', 'date'],
    ['/exchange-rate/provenance', '?date=2025-01-15&date=2025-01-16', 'date'],
    ['/exchange-rate/provenance', '?date=2025-01-15&format=xml', 'format'],
    ['/exchange-rate/provenance', '?date=2025-01-15&format=', 'format'],
    ['/exchange-rate/provenance', '?date=2025-01-15&format=html&format=json', 'format'],
    ['/exchange-rate/provenance', '?date=2025-01-15&format=html&locale=fr', 'locale'],
    ['/exchange-rate/revisions', '', 'from'],
    ['/exchange-rate/revisions', '?from=2025-01-01', 'to'],
    ['/exchange-rate/revisions', '?to=2025-01-31', 'from'],
    ['/exchange-rate/revisions', '?from=2025-01-31&to=2025-01-01', 'from'],
    ['/exchange-rate/revisions', '?from=2024-01-01&to=2025-01-02', 'from'],
    ['/exchange-rate/revisions', '?from=2025-13-01&to=2025-01-31', 'from'],
  ])('%s%s', async (path, query, parameter) => {
    const { status, body } = await t.get(`${path}${query}`);
    expect([status, body.error]).toEqual([400, 'BAD_REQUEST']);
    expect(body.message).toContain(`"${parameter}"`);
  });

  it('takes a span of exactly 366 days, and enumerations in any case', async () => {
    expect((await t.get('/exchange-rate/revisions?from=2024-01-01&to=2025-01-01')).status).toBe(200);
    const page = await t.get('/exchange-rate/provenance?date=2025-01-15&format=HTML&locale=EN');
    expect([page.status, page.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
  });
});

it('404s a day without a rate, in the JSON envelope whatever the format', async () => {
  for (const format of ['json', 'html']) {
    const { status, body } = await t.get(`/exchange-rate/provenance?date=1999-01-01&format=${format}`);
    expect([format, status, body.error, body.message]).toEqual([format, 404, 'NOT_FOUND', 'No exchange rate for 1999-01-01']);
  }
});

it('answers JSON by default, the same as format=json, for a row written outside a sync', async () => {
  const byDefault = await t.get('/exchange-rate/provenance?date=2025-01-16');
  const json = await t.get('/exchange-rate/provenance?date=2025-01-16&format=json');
  expect(byDefault.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(json.body).toEqual(byDefault.body);
  const text = '2025-01-16|USD|CRC|507.00|513.40|Hacienda';
  expect(byDefault.body.data as Provenance).toEqual({
    record: { date: '2025-01-16', currencyFrom: 'USD', currencyTo: 'CRC', buy: 507, sell: 513.4, source: 'Hacienda', fetchedAt: '2025-01-14T18:05:12.000Z' },
    // Seeded without a sync: no observation of it, so the row itself is all there is to say.
    upstream: { buy: 'Hacienda /indicadores/tc/dolar (compra)', sell: 'Hacienda /indicadores/tc/dolar (venta)' },
    firstSeenAt: '2025-01-14T18:05:12.000Z',
    lastConfirmedAt: '2025-01-14T18:05:12.000Z',
    observations: 0,
    revisions: [],
    digest: `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`,
  });
});

it('keeps the values a seeded row had before it was corrected', async () => {
  await t.seed([rate('2025-01-14', 506.1, 512.25)]);
  const { body } = await t.get('/exchange-rate/provenance?date=2025-01-14');
  const { revisions, record } = body.data as Provenance;
  expect(record).toMatchObject({ buy: 506.1, sell: 512.25 });
  expect(revisions).toEqual([{ buy: 506.1, sell: 512.2, source: 'BCCR', observedAt: '2025-01-14T18:05:12.000Z', replacedAt: expect.any(String) }]);
  // The seed kept the fetch time: the change is dated when it was stored.
  expect(Date.parse(revisions[0]?.replacedAt ?? '')).toBeGreaterThan(Date.parse('2025-01-14T18:05:12.000Z'));
  const listed = await t.get('/exchange-rate/revisions?from=2025-01-01&to=2025-01-31');
  expect(listed.body.data).toEqual([
    {
      date: '2025-01-14',
      before: { buy: 506.1, sell: 512.2, source: 'BCCR' },
      after: { buy: 506.1, sell: 512.25, source: 'BCCR' },
      revisedAt: revisions[0]?.replacedAt,
    },
  ]);
});

describe('format=html', () => {
  const path = '/exchange-rate/provenance?date=2025-01-15&format=html';

  it('is a page that carries its styles inline, allowed by their hash alone, with its own ETag and a 304', async () => {
    const page = await t.get(path);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const policy = page.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("default-src 'self'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toContain('unsafe-inline');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.text).toMatch(/^<!doctype html>/);
    // Saved and filed, it keeps its look offline: one inline stylesheet, the site's and the page's
    // own rules in it, and no stylesheet loaded from anywhere.
    expect(page.text).not.toMatch(/<link[^>]*rel="stylesheet"|@import/);
    const inline = [...page.text.matchAll(/<style>([^<]*)<\/style>/g)].map((m) => m[1] ?? '');
    expect(inline).toHaveLength(1);
    const css = inline[0] ?? '';
    expect(css).toContain(fs.readFileSync(join(ASSETS, 'site.css'), 'utf8'));
    expect(css).toContain(fs.readFileSync(join(ASSETS, 'provenance.css'), 'utf8'));
    expect(css).toContain('@media print');
    // The policy allows exactly that text, and still no script nor inline attribute.
    expect(policy).toContain(`style-src 'sha256-${createHash('sha256').update(css).digest('base64')}'`);
    expect(page.text).not.toMatch(/<script|\sstyle=/);

    const etag = page.headers.get('etag') ?? '';
    const json = await t.get('/exchange-rate/provenance?date=2025-01-15');
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(json.headers.get('etag')).not.toBe(etag);
    const again = await fetch(`${t.api}${path}`, { headers: { 'x-api-key': t.key, 'if-none-match': etag } });
    expect(again.status).toBe(304);
  });

  it('says the facts in the language asked for, Spanish by default', async () => {
    const es = (await t.get(path)).text;
    expect(es).toContain('<html lang="es">');
    expect(es).toContain('Procedencia del tipo de cambio oficial del <time datetime="2025-01-15">15 de enero de 2025</time>');
    expect(es).toContain('₡506,47');
    expect(es).toContain('sha256:');
    const en = (await t.get(`${path}&locale=en`)).text;
    expect(en).toContain('<html lang="en">');
    expect(en).toContain('₡506.47');
    expect(en).toContain('2025-01-15|USD|CRC|506.47|512.80|BCCR');
  });

  it('needs the key like the JSON answer', async () => {
    const { status, body } = await t.get(path, { 'x-api-key': '' });
    expect([status, body.error]).toEqual([401, 'UNAUTHORIZED']);
  });
});
