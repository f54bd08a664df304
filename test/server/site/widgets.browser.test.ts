/**
 * The widgets in a real browser (headless Chromium), framed by a page of another origin as people
 * embed them: both kinds, both languages, every theme, at their suggested size; they refresh by
 * themselves when the rate changes, and show the rate with JavaScript off. Screenshots of each
 * variant go to a temporary folder whose files are logged at the end.
 */
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { rate, startTestApp, type TestApp } from '../../helpers/app';
import { WIDGETS, type WidgetKind } from '../../../server/site/pages/widget';
import type { Lang } from '../../../server/site/i18n';
import {
  collectCspViolations,
  contrastRatio,
  launchBrowser,
  parseColor,
  screenshotDir,
  startEmbedHost,
  textColors,
  waitUntil,
  widgetFrame,
  type EmbedHost,
} from './support';

jest.setTimeout(120_000);

// 23:30 on 2025-09-30 in Costa Rica, already October in UTC: the longest month name of the year.
const clock = () => new Date('2025-10-01T05:30:00Z');
const SHOWN: Record<Lang, { buy: string; sell: string; date: string; empty: RegExp }> = {
  es: { buy: '₡468,29', sell: '₡474,10', date: '30 de septiembre de 2025', empty: /Aún no hay datos/ },
  en: { buy: '₡468.29', sell: '₡474.10', date: 'September 30, 2025', empty: /No exchange rate data yet/ },
};
const BACKGROUND = { light: 'rgb(255, 255, 255)', dark: 'rgb(15, 23, 42)' };

let t: TestApp;
let browser: Browser;
let host: EmbedHost;
let shots: string;
const written: string[] = [];

beforeAll(async () => {
  [t, browser, host] = await Promise.all([startTestApp({ clock }), launchBrowser(), startEmbedHost()]);
  await t.seed([rate('2025-09-29', 467.5, 473.9), rate('2025-09-30', 468.29, 474.1), rate('2025-10-01', 470, 476)]);
  shots = screenshotDir();
});

afterAll(async () => {
  await browser?.close();
  await host?.close();
  await t?.close();
  if (written.length) console.log(`Widget screenshots (${written.length}):\n${written.join('\n')}`);
});

/** Opens the embedding page of another origin and returns the widget's frame. */
async function openEmbedded(page: Page, base: string, lang: Lang, kind: WidgetKind, query = '') {
  const { path: widgetPath, width, height } = WIDGETS[kind];
  await page.goto(host.pageFor(`${base}/${lang}/${widgetPath}${query}`, width, height));
  return widgetFrame(page);
}

const text = (frame: { locator(s: string): { textContent(): Promise<string | null> } }, field: string) =>
  frame.locator(`[data-field="${field}"]`).textContent();

describe.each(['es', 'en'] as const)('in %s', (lang) => {
  describe.each(['card', 'banner'] as const)('the %s', (kind) => {
    it.each([
      { variant: 'auto, system light', query: '', system: 'light', theme: 'light' },
      { variant: 'auto, system dark', query: '?theme=auto', system: 'dark', theme: 'dark' },
      { variant: 'light on a dark system', query: '?theme=light', system: 'dark', theme: 'light' },
      { variant: 'dark on a light system', query: '?theme=dark', system: 'light', theme: 'dark' },
    ] as const)('shows the rate framed by another site: $variant', async ({ variant, query, system, theme }) => {
      const { width, height } = WIDGETS[kind];
      const page = await browser.newPage();
      const violations = collectCspViolations(page);
      try {
        await page.emulateMedia({ colorScheme: system });
        const frame = await openEmbedded(page, t.url, lang, kind, query);
        expect(new URL(frame.url()).origin).toBe(t.url);
        expect(new URL(page.url()).origin).not.toBe(t.url);

        // The official values, formatted for the language, with their date and source.
        expect(await text(frame, 'buy')).toBe(SHOWN[lang].buy);
        expect(await text(frame, 'sell')).toBe(SHOWN[lang].sell);
        expect(await text(frame, 'date')).toBe(SHOWN[lang].date);
        expect(await text(frame, 'source')).toBe('BCCR');
        await expect(frame.locator('[data-state="empty"]').isHidden()).resolves.toBe(true);

        // Accessible: the values are in a polite live region; the link opens the site safely.
        expect(await frame.locator('[aria-live="polite"] [data-field="buy"]').count()).toBe(1);
        const link = frame.locator('a');
        expect(await link.getAttribute('target')).toBe('_blank');
        expect(await link.getAttribute('rel')).toContain('noopener');
        expect(await link.evaluate((a) => (a as HTMLAnchorElement).href)).toBe(`${t.url}/${lang}`);

        // At its suggested size, nothing spills out of the frame.
        const box = await frame.evaluate(() => {
          const root = document.documentElement;
          const outside = Array.from(document.querySelectorAll('main *')).filter((el) => {
            const r = el.getBoundingClientRect();
            return r.width > 1 && (r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5 || r.left < -0.5 || r.top < -0.5);
          });
          return {
            width: innerWidth,
            height: innerHeight,
            scrollWidth: root.scrollWidth,
            scrollHeight: root.scrollHeight,
            outside: outside.map((el) => el.outerHTML.slice(0, 80)),
          };
        });
        expect({ width: box.width, height: box.height }).toEqual({ width, height });
        expect(box.scrollWidth).toBeLessThanOrEqual(width);
        expect(box.scrollHeight).toBeLessThanOrEqual(height);
        expect(box.outside).toEqual([]);

        // The theme asked for (or the system's, for auto), with readable text in it.
        expect(await frame.locator('.widget').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(BACKGROUND[theme]);
        const colors = await textColors(frame, '.widget__title, .widget__pair, dt, dd, .widget__date, time, .widget__foot, .widget__foot a');
        expect(colors.length).toBeGreaterThanOrEqual(9);
        for (const { text: label, color, background } of colors) {
          const ratio = contrastRatio(parseColor(color), parseColor(background));
          if (ratio < 4.5) throw new Error(`"${label}" has contrast ${ratio.toFixed(2)}:1 (${color} on ${background})`);
        }

        const file = path.join(shots, `${kind}-${lang}-${variant.replace(/[^a-z]+/g, '-')}.png`);
        await page.locator('iframe').screenshot({ path: file });
        written.push(file);
        expect(violations).toEqual([]);
      } finally {
        await page.close();
      }
    });
  });
});

it('shows the rate with JavaScript turned off', async () => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  try {
    for (const lang of ['es', 'en'] as const) {
      for (const kind of ['card', 'banner'] as const) {
        const page = await context.newPage();
        const frame = await openEmbedded(page, t.url, lang, kind);
        expect(await text(frame, 'buy')).toBe(SHOWN[lang].buy);
        expect(await text(frame, 'sell')).toBe(SHOWN[lang].sell);
        expect(await text(frame, 'date')).toBe(SHOWN[lang].date);
        // The server's rendering, not the script's: the script never ran.
        expect(await frame.evaluate(() => typeof (window as unknown as { CrcFormat?: unknown }).CrcFormat)).toBe('undefined');
        await page.close();
      }
    }
  } finally {
    await context.close();
  }
});

describe('on a fresh installation', () => {
  // Its own, empty database: the steps below run in order, from no data to a corrected rate.
  let fresh: TestApp;
  let page: Page;
  beforeAll(async () => {
    fresh = await startTestApp({ clock });
    page = await browser.newPage();
  });
  afterAll(async () => {
    await page?.close();
    await fresh?.close();
  });

  it('shows a friendly "no data yet" state, then the rate once one is stored, without a reload', async () => {
    const frame = await openEmbedded(page, fresh.url, 'es', 'card', '?refresh=1');
    expect(await frame.locator('[data-state="empty"]').textContent()).toMatch(SHOWN.es.empty);
    await expect(frame.locator('[data-state="rate"]').isHidden()).resolves.toBe(true);
    const file = path.join(shots, 'card-es-no-data.png');
    await page.locator('iframe').screenshot({ path: file });
    written.push(file);

    await frame.evaluate(() => ((window as unknown as { loadedOnce: boolean }).loadedOnce = true));
    await fresh.seed([rate('2025-09-30', 468.29, 474.1)]);
    const shown = await waitUntil(async () => (await text(frame, 'buy')) === SHOWN.es.buy, 10_000);
    expect(shown).toBe(true);
    await expect(frame.locator('[data-state="empty"]').isHidden()).resolves.toBe(true);
    expect(await text(frame, 'date')).toBe(SHOWN.es.date);
    expect(await frame.evaluate(() => (window as unknown as { loadedOnce?: boolean }).loadedOnce)).toBe(true);
  });

  it('updates both widgets by itself after the rate changes in the database', async () => {
    const card = await openEmbedded(page, fresh.url, 'es', 'card', '?refresh=1');
    const other = await browser.newPage();
    try {
      const banner = await openEmbedded(other, fresh.url, 'en', 'banner', '?refresh=1&theme=dark');
      expect(await text(banner, 'sell')).toBe(SHOWN.en.sell);
      for (const frame of [card, banner]) await frame.evaluate(() => ((window as unknown as { loadedOnce: boolean }).loadedOnce = true));

      // The central bank corrects the day's values, and the next day's rate appears too.
      await fresh.seed([rate('2025-09-30', 470.05, 476.6)]);
      const updated = await waitUntil(async () => (await text(card, 'buy')) === '₡470,05' && (await text(banner, 'buy')) === '₡470.05', 10_000);
      expect(updated).toBe(true);
      expect(await text(card, 'sell')).toBe('₡476,60');
      expect(await text(banner, 'sell')).toBe('₡476.60');
      for (const frame of [card, banner]) expect(await frame.evaluate(() => (window as unknown as { loadedOnce?: boolean }).loadedOnce)).toBe(true);
    } finally {
      await other.close();
    }
  });
});
