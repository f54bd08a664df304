/**
 * The privacy, terms, Google Sheets and Excel pages in a real browser, in both languages, at a
 * desktop and a phone width: their text, the operator's contact and install paths from the
 * configuration, no sideways scrolling, no content-policy refusal, and the landing page's links.
 */
import type { Browser, Page } from 'playwright-core';
import { ADDON_SCOPES } from '../../../shared/addon-scopes';
import { collectCspViolations, launchBrowser, type SiteOnly, startSite } from './support';

jest.setTimeout(90_000);

const LISTING = 'https://workspace.google.com/marketplace/app/crc_rates/123456789';
const TEMPLATE = 'https://docs.google.com/spreadsheets/d/1AbC/copy';
const CONTACT = 'privacy@rates.example.com';

let browser: Browser;
let published: SiteOnly;
let bare: SiteOnly;
let selfHosted: SiteOnly;

beforeAll(async () => {
  const clock = () => new Date('2025-02-10T18:00:00Z');
  [browser, published, bare, selfHosted] = await Promise.all([
    launchBrowser(),
    startSite({ clock, publishing: { contactEmail: CONTACT, addonListingUrl: LISTING, addonTemplateUrl: TEMPLATE } }),
    startSite({ clock }),
    startSite({ clock, publicUrl: 'https://rates.example.com' }),
  ]);
});

afterAll(async () => {
  await browser?.close();
  await Promise.all([published?.close(), bare?.close(), selfHosted?.close()]);
});

const WIDTHS = [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'phone', width: 375, height: 812 },
];

async function open<T>(url: string, width: number, height: number, use: (page: Page) => Promise<T>): Promise<T> {
  const context = await browser.newContext({ viewport: { width, height } });
  try {
    const page = await context.newPage();
    const violations = collectCspViolations(page);
    const response = await page.goto(url);
    expect(response?.status()).toBe(200);
    const result = await use(page);
    // Nothing wider than the screen: no sideways scrolling on a phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    expect(violations).toEqual([]);
    return result;
  } finally {
    await context.close();
  }
}

const PAGES = [
  { path: 'privacy', es: 'Aviso de privacidad', en: 'Privacy notice' },
  { path: 'terms', es: 'Términos de uso', en: 'Terms of use' },
  { path: 'sheets', es: 'El tipo de cambio oficial en Google Sheets', en: 'The official exchange rate in Google Sheets' },
  { path: 'excel', es: 'El tipo de cambio oficial en Excel y Power BI', en: 'The official exchange rate in Excel and Power BI' },
];

describe.each(WIDTHS)('at $name width', ({ width, height }) => {
  it.each(PAGES.flatMap((p) => (['es', 'en'] as const).map((lang) => ({ ...p, lang, heading: p[lang] }))))(
    '/$lang/$path is in its language, links the other one and fits',
    async ({ path, lang, heading }) => {
      await open(`${published.url}/${lang}/${path}`, width, height, async (page) => {
        expect(await page.getAttribute('html', 'lang')).toBe(lang);
        expect(await page.locator('h1').textContent()).toBe(heading);
        expect(await page.getAttribute('a.lang', 'href')).toBe(`/${lang === 'es' ? 'en' : 'es'}/${path}`);
        expect(
          await page.locator('link[rel="alternate"]').evaluateAll((links) => links.map((l) => `${l.getAttribute('hreflang')} ${l.getAttribute('href')}`)),
        ).toEqual([`es /es/${path}`, `en /en/${path}`]);
        expect(await page.locator('footer .footer-links a').evaluateAll((links) => links.map((a) => a.getAttribute('href')))).toEqual(
          ['sheets', 'excel', 'privacy', 'terms'].map((p) => `/${lang}/${p}`),
        );
      });
    },
  );

  it.each(['es', 'en'] as const)('the landing page links the four pages (%s)', async (lang) => {
    await open(`${published.url}/${lang}`, width, height, async (page) => {
      for (const p of ['sheets', 'excel', 'privacy', 'terms']) {
        const target = page.locator(`footer a[href="/${lang}/${p}"]`);
        expect(await target.isVisible()).toBe(true);
      }
      // The spreadsheet pages are also among the API's links.
      expect(await page.locator(`#api a[href="/${lang}/sheets"], #api a[href="/${lang}/excel"]`).count()).toBe(2);
      await page.click(`footer a[href="/${lang}/privacy"]`);
      await page.waitForURL(`${published.url}/${lang}/privacy`);
    });
  });
});

describe('the privacy notice and the terms', () => {
  it.each(['es', 'en'] as const)('name the operator’s contact, what is stored and the add-on’s scopes (%s)', async (lang) => {
    await open(`${published.url}/${lang}/privacy`, 1280, 900, async (page) => {
      expect(await page.getAttribute(`main a[href="mailto:${CONTACT}"]`, 'href')).toBe(`mailto:${CONTACT}`);
      const text = await page.locator('main').innerText();
      expect(text).toContain('SHA-256');
      expect(text).toMatch(lang === 'es' ? /No vendemos/ : /We do not sell/);
      expect(text).toMatch(lang === 'es' ? /propiedades del documento/ : /document properties/);
      expect(await page.locator('[data-scopes] dt').allTextContents()).toEqual(ADDON_SCOPES.map((s) => s.scope));
    });
  });

  it('point at the request-access form when the operator gave no contact address', async () => {
    await open(`${bare.url}/en/terms`, 375, 812, async (page) => {
      expect(await page.locator('main a[href^="mailto:"]').count()).toBe(0);
      expect(await page.locator('main a[href="/en#request"]').first().textContent()).toBe('the request-access form');
      const text = await page.locator('main').innerText();
      expect(text).toContain('Banco Central de Costa Rica');
      expect(text).toContain('Hacienda');
      expect(await page.getAttribute('main a:text("terms of use")', 'href')).toMatch(/^https:\/\/www\.bccr\.fi\.cr\//);
    });
  });
});

describe('/sheets shows the install path that exists', () => {
  it.each(['es', 'en'] as const)('the Marketplace listing and the copy, which does not update (%s)', async (lang) => {
    await open(`${published.url}/${lang}/sheets`, 375, 812, async (page) => {
      expect(await page.locator('[data-install]').evaluateAll((els) => els.map((e) => e.getAttribute('data-install')))).toEqual(['listing', 'template']);
      expect(await page.getAttribute('[data-install="listing"] a.button', 'href')).toBe(LISTING);
      expect(await page.getAttribute('[data-install="template"] a.button', 'href')).toBe(TEMPLATE);
      expect(await page.locator('[data-install="template"] .note').textContent()).toMatch(
        lang === 'es' ? /no recibe las actualizaciones/ : /does not receive updates/,
      );
    });
  });

  it.each(['es', 'en'] as const)('the developer path when the operator offers neither (%s)', async (lang) => {
    await open(`${bare.url}/${lang}/sheets`, 1280, 900, async (page) => {
      expect(await page.locator('[data-install]').evaluateAll((els) => els.map((e) => e.getAttribute('data-install')))).toEqual(['developer']);
      // Served over plain http: Apps Script could not reach it, so the add-on keeps the public service.
      const steps = await page.locator('[data-install="developer"]').innerText();
      expect(steps).toContain('npm run addon:push:');
      expect(steps).not.toContain('--base-url');
      expect(await page.locator('[data-install="developer"] .note').count()).toBe(1);
      expect(await page.locator('a[href*="marketplace"], a[href*="/copy"]').count()).toBe(0);
    });
  });

  it('the developer path points the add-on at a server with a public https address', async () => {
    await open(`${selfHosted.url}/en/sheets`, 375, 812, async (page) => {
      expect(await page.locator('[data-install="developer"]').innerText()).toContain('npm run addon:push -- --base-url https://rates.example.com:');
      expect(await page.locator('[data-install="developer"] .note').count()).toBe(0);
    });
  });
});

describe('/excel', () => {
  it.each(['es', 'en'] as const)('gives four queries to copy, with the key in a parameter (%s)', async (lang) => {
    await open(`${bare.url}/${lang}/excel`, 375, 812, async (page) => {
      const queries = await page.locator('[data-queries] code').allTextContents();
      expect(queries).toHaveLength(4);
      for (const q of queries) {
        expect(q).toContain('Headers = [#"X-API-Key" = CrcRatesKey]');
        expect(q).not.toMatch(/key=/i);
      }
      // The copy button copies the query itself (the clipboard is read back through the page).
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: bare.url });
      await page.click('button[data-copy="query-close"]');
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(queries[2]);
      expect(await page.getAttribute('a[download]', 'href')).toBe('/excel/crc-rates.pq');
    });
  });
});
