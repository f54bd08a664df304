/**
 * The banner is fluid: at its 90 px height and any width from 280 to 1200 px, in both languages,
 * with the rate, with the demo badge and with no data yet, nothing overlaps, nothing is cut off
 * and the title never wraps (measured from the browser's own boxes, not from pixels). Screenshots
 * at 320, 400, 640 and 1000 px, and of the landing page on a phone, whose widget previews shrink
 * to the column instead of being cut, go to a temporary folder listed at the end.
 */
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { rate, startTestApp, type TestApp } from '../../helpers/app';
import type { Lang } from '../../../server/site/i18n';
import { launchBrowser, screenshotDir, startSite, widgetGeometry, type Box, type SiteOnly, type WidgetGeometry } from './support';

jest.setTimeout(120_000);

// 23:30 on 2025-09-30 in Costa Rica: the longest month name of the year.
const clock = () => new Date('2025-10-01T05:30:00Z');
const HEIGHT = 90;
/** Every 20 px, and both sides of each width where the layout changes. */
const WIDTHS = [...Array.from({ length: 47 }, (_, i) => 280 + i * 20), 319, 339, 439, 559].sort((a, b) => a - b);
const SHOWN = ['title', 'pair', 'buy label', 'buy', 'sell label', 'sell', 'date', 'source', 'link'];
const WITH_BADGE = ['title', 'pair', 'badge', 'buy label', 'buy', 'sell label', 'sell', 'date', 'source', 'link'];

let t: TestApp;
let demo: SiteOnly;
let empty: SiteOnly;
let browser: Browser;
let shots: string;
const written: string[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
  // One database after another: three embedded ones starting at once strain a busy machine.
  t = await startTestApp({ clock });
  demo = await startSite({ clock, demo: true });
  empty = await startSite({ clock });
  await t.seed([rate('2025-09-30', 468.29, 474.1)]);
  await demo.seed([rate('2025-09-30', 468.29, 474.1)]);
  shots = screenshotDir();
});

afterAll(async () => {
  await browser?.close();
  await Promise.all([t?.close(), demo?.close(), empty?.close()]);
  if (written.length) console.log(`Banner and phone screenshots (${written.length}):\n${written.join('\n')}`);
});

const MODES = {
  rate: { base: () => t.url, shown: SHOWN },
  demo: { base: () => demo.url, shown: WITH_BADGE },
  'no data': { base: () => empty.url, shown: ['title', 'pair', 'empty', 'source', 'link'] },
} as const;
type Mode = keyof typeof MODES;

async function withBanner<T>(mode: Mode, lang: Lang, width: number, use: (page: Page) => Promise<T>): Promise<T> {
  const page = await browser.newPage({ viewport: { width, height: HEIGHT } });
  try {
    await page.goto(`${MODES[mode].base()}/${lang}/banner`);
    return await use(page);
  } finally {
    await page.close();
  }
}

/** Everything shown, inside the frame, apart, the title on one line, and no scrolling. */
function expectWhole(g: WidgetGeometry, mode: Mode, width: number) {
  expect({ width: g.width, height: g.height }).toEqual({ width, height: HEIGHT });
  expect(g.boxes.map((b) => b.name)).toEqual(MODES[mode].shown);
  expect(g.overlaps).toEqual([]);
  expect(g.clipped).toEqual([]);
  expect(g.titleLines).toBe(1);
  expect(g.scrollWidth).toBeLessThanOrEqual(width);
  expect(g.scrollHeight).toBeLessThanOrEqual(HEIGHT);
}

const box = (g: WidgetGeometry, name: string): Box => {
  const found = g.boxes.find((b) => b.name === name);
  if (!found) throw new Error(`no ${name} in ${g.boxes.map((b) => b.name).join(', ')}`);
  return found;
};

describe.each(['es', 'en'] as const)('the banner in %s', (lang) => {
  describe.each(['rate', 'demo'] as const)('with %s', (mode) => {
    it.each([320, 400, 640, 1000])('is whole at %i px wide', async (width) => {
      await withBanner(mode, lang, width, async (page) => {
        const g = await widgetGeometry(page);
        expectWhole(g, mode, width);
        if (width >= 640) {
          // The default look: title, values (the date under them), then source and link, left to right.
          expect(box(g, 'pair').top).toBeGreaterThanOrEqual(box(g, 'title').bottom);
          expect(box(g, 'title').right).toBeLessThan(box(g, 'buy').left);
          expect(box(g, 'date').top).toBeGreaterThanOrEqual(box(g, 'buy').bottom);
          expect(box(g, 'sell').right).toBeLessThan(box(g, 'source').left);
        } else {
          // Three lines: the title; the values beside source and link; the date.
          expect(box(g, 'pair').top).toBeLessThan(box(g, 'title').bottom);
          expect(box(g, 'buy label').top).toBeGreaterThanOrEqual(box(g, 'title').bottom);
          expect(box(g, 'sell').right).toBeLessThan(box(g, 'source').left);
          expect(box(g, 'date').top).toBeGreaterThanOrEqual(Math.max(box(g, 'buy').bottom, box(g, 'link').bottom));
        }
        const file = path.join(shots, `banner-${lang}-${mode}-${width}.png`);
        await page.screenshot({ path: file });
        written.push(file);
      });
    });
  });

  it.each(Object.keys(MODES) as Mode[])('stays whole at every width from 280 to 1200 px, %s', async (mode) => {
    await withBanner(mode, lang, 280, async (page) => {
      const broken: string[] = [];
      for (const width of WIDTHS) {
        // The layout follows the frame's width as it changes: no reload needed.
        await page.setViewportSize({ width, height: HEIGHT });
        try {
          expectWhole(await widgetGeometry(page), mode, width);
        } catch (error) {
          broken.push(`${width} px: ${(error as Error).message.split('\n').slice(0, 6).join(' ')}`);
        }
      }
      expect(broken).toEqual([]);
    });
  });
});

describe('the landing page on a phone (375 px)', () => {
  it.each([
    ['es', 'rate'],
    ['en', 'demo'],
  ] as const)('in %s, %s: shows both widgets whole, shrunk to the column', async (lang, mode) => {
    const page = await browser.newPage({ viewport: { width: 375, height: 812 } });
    try {
      await page.goto(`${MODES[mode].base()}/${lang}`);
      // No sideways scrolling of the page.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(375);
      expect(await page.locator('[data-demo]').isVisible()).toBe(mode === 'demo');

      const column = await page.locator('#widgets .wrap').evaluate((el) => {
        const style = getComputedStyle(el);
        const r = el.getBoundingClientRect();
        return { left: r.left + Number.parseFloat(style.paddingLeft), right: r.right - Number.parseFloat(style.paddingRight) };
      });
      for (const [kind, frameHeight] of [
        ['card', 150],
        ['banner', HEIGHT],
      ] as const) {
        const iframe = page.locator(`iframe.example__${kind}`);
        await iframe.scrollIntoViewIfNeeded();
        const frameBox = await iframe.boundingBox();
        expect(frameBox).toEqual({ x: column.left, y: expect.any(Number), width: column.right - column.left, height: frameHeight });
        const frame = await (await iframe.elementHandle())?.contentFrame();
        if (!frame) throw new Error(`the ${kind} has no frame`);
        await frame.waitForSelector('[data-widget]');
        const g = await widgetGeometry(frame);
        expect({ width: g.width, height: g.height }).toEqual({ width: column.right - column.left, height: frameHeight });
        expect(g.boxes.map((b) => b.name)).toEqual(MODES[mode].shown);
        expect(g.overlaps).toEqual([]);
        expect(g.clipped).toEqual([]);
        expect(g.scrollWidth).toBeLessThanOrEqual(g.width);
        expect(g.scrollHeight).toBeLessThanOrEqual(frameHeight);
      }
      const file = path.join(shots, `landing-phone-${lang}-${mode}.png`);
      await page.locator('#widgets').screenshot({ path: file });
      written.push(file);
    } finally {
      await page.close();
    }
  });
});
