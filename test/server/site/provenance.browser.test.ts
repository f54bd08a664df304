/**
 * The provenance page (`/api/v1/exchange-rate/provenance?format=html`) in a real browser: the
 * facts an audit file needs are on the page and visible, in both languages, styled by the site's
 * stylesheets under its strict policy; printed, it is black on white whatever the screen's theme.
 * Screenshots of screen and print go to a temporary folder for a person to look at.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { createProvenanceStore } from '../../../server/store/provenance';
import { startTestApp, type TestApp } from '../../helpers/app';
import { collectCspViolations, launchBrowser } from './support';

jest.setTimeout(60_000);

const DAY = '2026-03-24';
const HACIENDA_AT = new Date('2026-03-23T15:00:02.000Z');
const BCCR_AT = new Date('2026-03-23T20:05:12.000Z');
const CONFIRMED_AT = new Date('2026-03-30T20:05:09.000Z');
const SDDE = { buy: 'BCCR SDDE indicator 317', sell: 'BCCR SDDE indicator 318' };
const DIGEST = 'sha256:2e42939890286c0b83764265b5389ee7dd6c5248abef84d43174375ca6797d3d';

let t: TestApp;
let browser: Browser;
let shots: string;
const written: string[] = [];

beforeAll(async () => {
  [t, browser] = await Promise.all([startTestApp({ clock: () => new Date('2026-03-31T18:00:00Z') }), launchBrowser()]);
  shots = fs.mkdtempSync(path.join(os.tmpdir(), 'crc-rates-provenance-'));
  // The day as syncs would have left it: Hacienda's value first, then the central bank's, confirmed a week later.
  const log = createProvenanceStore(t.database.db);
  const hacienda = { date: DAY, buy: 462.5, sell: 468.1 };
  await t.rates.upsert([{ ...hacienda, source: 'Hacienda', fetchedAt: HACIENDA_AT }]);
  await log.observe({
    route: 'hacienda',
    source: 'Hacienda',
    upstream: { buy: 'Hacienda /indicadores/tc/dolar (compra)', sell: 'Hacienda /indicadores/tc/dolar (venta)' },
    observedAt: HACIENDA_AT,
    rates: [hacienda],
  });
  const official = { date: DAY, buy: 462.69, sell: 468.29 };
  await t.rates.upsert([{ ...official, source: 'BCCR', fetchedAt: BCCR_AT }]);
  for (const observedAt of [BCCR_AT, CONFIRMED_AT]) await log.observe({ route: 'bccr-sdde', source: 'BCCR', upstream: SDDE, observedAt, rates: [official] });
  await t.changes.ratesChanged();
});

afterAll(async () => {
  await browser?.close();
  await t?.close();
  if (written.length) console.log(`Provenance page screenshots (${written.length}):\n${written.join('\n')}`);
});

async function withPage<T>(options: { colorScheme?: 'light' | 'dark'; width?: number }, use: (page: Page) => Promise<T>): Promise<T> {
  const context = await browser.newContext({
    extraHTTPHeaders: { 'x-api-key': t.key },
    colorScheme: options.colorScheme ?? 'light',
    viewport: { width: options.width ?? 1000, height: 900 },
  });
  try {
    return await use(await context.newPage());
  } finally {
    await context.close();
  }
}

const visibleText = async (page: Page, selector: string) => {
  const locator = page.locator(selector);
  expect([selector, await locator.isVisible()]).toEqual([selector, true]);
  return ((await locator.textContent()) ?? '').replace(/\s+/g, ' ').trim();
};

async function shoot(page: Page, name: string): Promise<void> {
  const file = path.join(shots, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  written.push(file);
}

it.each([
  {
    lang: 'es',
    heading: 'Procedencia del tipo de cambio oficial del 24 de marzo de 2026',
    buy: '₡462,69',
    sell: '₡468,29',
    firstSeen: '23 de marzo de 2026, 14:05:12',
    confirmed: '30 de marzo de 2026, 14:05:09',
    revision: ['₡462,50', '₡468,10', 'Hacienda', '23 de marzo de 2026, 09:00:02', '23 de marzo de 2026, 14:05:12'],
  },
  {
    lang: 'en',
    heading: 'Provenance of the official exchange rate of March 24, 2026',
    buy: '₡462.69',
    sell: '₡468.29',
    firstSeen: 'March 23, 2026, 14:05:12',
    confirmed: 'March 30, 2026, 14:05:09',
    revision: ['₡462.50', '₡468.10', 'Hacienda', 'March 23, 2026, 09:00:02', 'March 23, 2026, 14:05:12'],
  },
])('shows every fact of the provenance, visibly, in $lang', async ({ lang, heading, buy, sell, firstSeen, confirmed, revision }) => {
  await withPage({}, async (page) => {
    const violations = collectCspViolations(page);
    const response = await page.goto(`${t.api}/exchange-rate/provenance?date=${DAY}&format=html&locale=${lang}`);
    expect(response?.status()).toBe(200);
    expect(await page.getAttribute('html', 'lang')).toBe(lang);
    expect(await visibleText(page, 'h1')).toBe(heading);
    expect(await visibleText(page, '[data-fact="buy"] dd')).toBe(buy);
    expect(await visibleText(page, '[data-fact="sell"] dd')).toBe(sell);
    expect(await visibleText(page, '[data-fact="source"] dd')).toBe('BCCR');
    expect(await visibleText(page, '[data-fact="pair"] dd')).toBe('USD/CRC');
    expect(await visibleText(page, '[data-fact="upstreamBuy"] dd')).toBe(SDDE.buy);
    expect(await visibleText(page, '[data-fact="upstreamSell"] dd')).toBe(SDDE.sell);
    expect(await visibleText(page, '[data-fact="firstSeenAt"] dd')).toBe(firstSeen);
    expect(await visibleText(page, '[data-fact="lastConfirmedAt"] dd')).toBe(confirmed);
    expect(await visibleText(page, '[data-fact="observations"] dd')).toBe('3');
    expect(await page.locator('[data-revision] td').allTextContents()).toEqual(revision);
    expect(await page.locator('[data-revision]').isVisible()).toBe(true);
    expect(await visibleText(page, '[data-fact="digest"] dd')).toBe(DIGEST);
    expect(await visibleText(page, '[data-fact="digestText"] dd')).toBe('2026-03-24|USD|CRC|462.69|468.29|BCCR');
    // The site's stylesheets applied (a policy refusing them would leave a bare page).
    expect(
      await page
        .locator('.facts > div')
        .first()
        .evaluate((el) => getComputedStyle(el).display),
    ).toBe('grid');
    await shoot(page, `screen-${lang}`);
    expect(violations).toEqual([]);
  });
});

it('prints black on white, even from a dark screen, with nothing but the facts', async () => {
  await withPage({ colorScheme: 'dark' }, async (page) => {
    await page.goto(`${t.api}/exchange-rate/provenance?date=${DAY}&format=html&locale=es`);
    const colours = () =>
      page.evaluate(() => ({
        text: getComputedStyle(document.body).color,
        background: getComputedStyle(document.body).backgroundColor,
        skip: getComputedStyle(document.querySelector('.skip') as Element).display,
      }));
    expect((await colours()).background).not.toBe('rgb(255, 255, 255)');
    await shoot(page, 'screen-es-dark');

    await page.emulateMedia({ media: 'print', colorScheme: 'dark' });
    expect(await colours()).toEqual({ text: 'rgb(0, 0, 0)', background: 'rgb(255, 255, 255)', skip: 'none' });
    expect(await visibleText(page, '[data-fact="digest"] dd')).toBe(DIGEST);
    await page.setViewportSize({ width: 794, height: 1123 });
    await shoot(page, 'print-es');
    // Printed for real (the @page margins apply): the whole record fits one A4 sheet.
    const file = path.join(shots, 'print-es.pdf');
    const pdf = await page.pdf({ path: file, format: 'A4' });
    written.push(file);
    expect(pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g)).toHaveLength(1);
  });
});

it('reads on a phone too', async () => {
  await withPage({ width: 390 }, async (page) => {
    await page.goto(`${t.api}/exchange-rate/provenance?date=${DAY}&format=html&locale=en`);
    await shoot(page, 'phone-en');
    expect(await visibleText(page, '[data-fact="digest"] dd')).toBe(DIGEST);
    // Nothing sticks out sideways: the page is read by scrolling down only.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});

it('keeps its look when the saved page is opened offline: it loads nothing, its styles are in it', async () => {
  const saved = (await t.get(`/exchange-rate/provenance?date=${DAY}&format=html&locale=en`)).text;
  await withPage({}, async (page) => {
    // Offline: every request the page would make fails, and is noted.
    const requested: string[] = [];
    await page.route('**/*', (route) => {
      requested.push(route.request().url());
      return route.abort();
    });
    await page.setContent(saved);
    expect(
      await page
        .locator('.facts > div')
        .first()
        .evaluate((el) => getComputedStyle(el).display),
    ).toBe('grid');
    // Nothing it needs to look right was asked for (a browser may still try the icon).
    expect(requested.filter((url) => !url.endsWith('/favicon.svg'))).toEqual([]);
  });
});
