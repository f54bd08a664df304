/**
 * The widgets of currencies other than the dollar in a real browser (headless Chromium): framed
 * by another origin, both kinds in both languages with the euro's derived rate and the words that
 * say where it comes from; every currency of the catalog whole at the suggested sizes (the longest
 * name cut with an ellipsis, never the code nor those words); the banner whole at every width;
 * refreshing by itself from the same currency's data; and the page a misconfigured one shows.
 * Screenshots go to a temporary folder listed at the end.
 */
import path from 'node:path';
import type { Browser, Frame, Page } from 'playwright-core';
import { DERIVED_CURRENCIES } from '../../../shared/currency-catalog';
import { WIDGETS, type WidgetKind } from '../../../server/site/pages/widget';
import type { Lang } from '../../../server/site/i18n';
import { crossRate, rate, startTestApp, type TestApp } from '../../helpers/app';
import {
  collectCspViolations,
  contrastRatio,
  launchBrowser,
  parseColor,
  screenshotDir,
  startEmbedHost,
  startSite,
  textColors,
  waitUntil,
  widgetFrame,
  type EmbedHost,
  type SiteOnly,
} from './support';

jest.setTimeout(180_000);

// 23:30 on 2025-09-30 in Costa Rica: the longest month name of the year.
const clock = () => new Date('2025-10-01T05:30:00Z');
const DAY = '2025-09-30';
const DOLLAR = rate(DAY, 468.29, 474.1);
/** A plausible cross rate for every currency: the middle of its band (6 significant digits), the euro's a real one. */
const CROSS = DERIVED_CURRENCIES.map((c) => crossRate(c.code, DAY, c.code === 'EUR' ? 1.1734 : Number(Math.sqrt(c.bounds[0] * c.bounds[1]).toPrecision(6))));
// 468.29 × 1.1734 = 549.491… and 474.1 × 1.1734 = 556.308…
const SHOWN: Record<Lang, { buy: string; sell: string; date: string; derived: string }> = {
  es: { buy: '₡549,49', sell: '₡556,31', date: '30 de septiembre de 2025', derived: 'Derivado del tipo cruzado del BCCR' },
  en: { buy: '₡549.49', sell: '₡556.31', date: 'September 30, 2025', derived: 'Derived from the BCCR cross rate' },
};
const BACKGROUND = { light: 'rgb(255, 255, 255)', dark: 'rgb(15, 23, 42)' };

let t: TestApp;
let demo: SiteOnly;
let browser: Browser;
let host: EmbedHost;
let shots: string;
const written: string[] = [];

beforeAll(async () => {
  [browser, host] = await Promise.all([launchBrowser(), startEmbedHost()]);
  // One database after another: two embedded ones starting at once strain a busy machine.
  t = await startTestApp({ clock });
  demo = await startSite({ clock, demo: true });
  await t.seed([DOLLAR]);
  await t.seedCross(CROSS);
  await demo.seed([DOLLAR]);
  await demo.seedCross(CROSS);
  shots = screenshotDir();
});

afterAll(async () => {
  await browser?.close();
  await host?.close();
  await Promise.all([t?.close(), demo?.close()]);
  if (written.length) console.log(`Currency widget screenshots (${written.length}):\n${written.join('\n')}`);
});

async function screenshot(target: Page, name: string, selector?: string) {
  const file = path.join(shots, `${name}.png`);
  if (selector) await target.locator(selector).screenshot({ path: file });
  else await target.screenshot({ path: file });
  written.push(file);
}

const text = (frame: Frame | Page, field: string) => frame.locator(`[data-field="${field}"]`).textContent();

interface Part {
  name: string;
  left: number;
  top: number;
  right: number;
  bottom: number;
  /** Cut short by an ellipsis (its text is wider than what shows of it). */
  cut: boolean;
}

interface Geometry {
  width: number;
  height: number;
  scrollWidth: number;
  scrollHeight: number;
  parts: Part[];
  overlaps: string[];
  /** Parts reaching past the frame's edges. */
  clipped: string[];
  /** The words of the title that show: the long or the short form of "derived". */
  derived: string;
}

/**
 * What the reader sees of each part of a derived currency's widget: the box of its text, less
 * what an ancestor that hides its overflow (the name's and the origin's ellipsis) cuts off.
 */
function geometry(target: Frame | Page): Promise<Geometry> {
  return target.evaluate(() => {
    const shown = (el: Element | null) => (el && getComputedStyle(el).display !== 'none' ? el : null);
    const short = shown(document.querySelector('.widget__derived-short'));
    const parts: Array<[string, Element | null]> = [
      ['name', document.querySelector('.widget__name')],
      ['pair', document.querySelector('.widget__pair')],
      ['badge', document.querySelector('.demo-badge')],
      ['derived', short ?? document.querySelector('.widget__derived-long')],
      ['empty', document.querySelector('.widget__empty')],
      ['buy label', document.querySelectorAll('.widget__value dt')[0] ?? null],
      ['buy', document.querySelector('[data-field="buy"]')],
      ['sell label', document.querySelectorAll('.widget__value dt')[1] ?? null],
      ['sell', document.querySelector('[data-field="sell"]')],
      ['date', document.querySelector('.widget__date')],
      ['source', document.querySelector('.widget__foot > span')],
      ['link', document.querySelector('.widget__foot a')],
    ];
    const out: Part[] = [];
    for (const [name, el] of parts) {
      if (!el) continue;
      let r: DOMRect;
      if (el.matches('a, .demo-badge')) r = el.getBoundingClientRect();
      else {
        const range = document.createRange();
        range.selectNodeContents(el);
        r = range.getBoundingClientRect();
      }
      if (r.width < 0.5 || r.height < 0.5) continue; // not shown (the empty state, no badge)
      let { left, top, right, bottom } = r;
      for (let node: Element | null = el; node && node.tagName !== 'MAIN'; node = node.parentElement) {
        if (getComputedStyle(node).overflowX === 'visible') continue;
        const c = node.getBoundingClientRect();
        left = Math.max(left, c.left);
        right = Math.min(right, c.right);
        top = Math.max(top, c.top);
        bottom = Math.min(bottom, c.bottom);
      }
      out.push({ name, left, top, right, bottom, cut: right < r.right - 0.5 });
    }
    const overlaps: string[] = [];
    out.forEach((a, i) => {
      for (const b of out.slice(i + 1)) {
        const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
        const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
        if (x > 0.5 && y > 0.5) overlaps.push(`${a.name} × ${b.name}`);
      }
    });
    const clipped = out.filter((b) => b.left < -0.5 || b.top < -0.5 || b.right > innerWidth + 0.5 || b.bottom > innerHeight + 0.5).map((b) => b.name);
    const root = document.documentElement;
    return {
      width: innerWidth,
      height: innerHeight,
      scrollWidth: root.scrollWidth,
      scrollHeight: root.scrollHeight,
      parts: out,
      overlaps,
      clipped,
      derived: (short ?? document.querySelector('.widget__derived-long'))?.textContent ?? '',
    };
  });
}

/** Everything inside the frame and apart; the code and the words of origin whole; the name cut only when `nameMayBeCut`. */
function expectWhole(g: Geometry, size: { width: number; height: number }, nameMayBeCut: boolean) {
  expect({ width: g.width, height: g.height }).toEqual(size);
  expect(g.overlaps).toEqual([]);
  expect(g.clipped).toEqual([]);
  expect(g.scrollWidth).toBeLessThanOrEqual(size.width);
  expect(g.scrollHeight).toBeLessThanOrEqual(size.height);
  const cut = g.parts.filter((p) => p.cut).map((p) => p.name);
  expect(cut).toEqual(nameMayBeCut && cut.includes('name') ? ['name'] : []);
  const name = g.parts.find((p) => p.name === 'name');
  // Cut or not, enough of the name shows to start reading it.
  expect(name && name.right - name.left).toBeGreaterThanOrEqual(24);
  expect(g.parts.map((p) => p.name)).toEqual(expect.arrayContaining(['name', 'pair', 'derived']));
}

describe.each(['es', 'en'] as const)('in %s', (lang) => {
  it.each(['card', 'banner'] as const)('the %s shows the euro framed by another site, derived and said to be', async (kind: WidgetKind) => {
    const { path: widgetPath, width, height } = WIDGETS[kind];
    for (const theme of ['light', 'dark'] as const) {
      const page = await browser.newPage();
      const violations = collectCspViolations(page);
      try {
        await page.goto(host.pageFor(`${t.url}/${lang}/${widgetPath}?currency=eur&theme=${theme}`, width, height));
        const frame = await widgetFrame(page);
        expect(new URL(page.url()).origin).not.toBe(t.url);
        expect(await text(frame, 'buy')).toBe(SHOWN[lang].buy);
        expect(await text(frame, 'sell')).toBe(SHOWN[lang].sell);
        expect(await text(frame, 'date')).toBe(SHOWN[lang].date);
        expect(await frame.locator('.widget__name').textContent()).toBe('Euro');
        expect(await frame.locator('.widget__pair').textContent()).toBe('EUR/CRC');
        // At the suggested size there is room for the words themselves, not the short form.
        await expect(frame.locator('.widget__derived-long').isVisible()).resolves.toBe(true);
        expect((await frame.locator('main').innerText()).toLowerCase()).not.toMatch(/official|oficial/);

        const g = await geometry(frame);
        expectWhole(g, { width, height }, false);
        expect(g.derived).toBe(SHOWN[lang].derived);

        expect(await frame.locator('.widget').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(BACKGROUND[theme]);
        const colors = await textColors(frame, '.widget__name, .widget__pair, .widget__derived, dt, dd, .widget__date, time, .widget__foot, .widget__foot a');
        expect(colors.length).toBeGreaterThanOrEqual(10);
        for (const { text: label, color, background } of colors) {
          const ratio = contrastRatio(parseColor(color), parseColor(background));
          if (ratio < 4.5) throw new Error(`"${label}" has contrast ${ratio.toFixed(2)}:1 (${color} on ${background})`);
        }
        await screenshot(page, `${kind}-${lang}-eur-${theme}`, 'iframe');
        expect(violations).toEqual([]);
      } finally {
        await page.close();
      }
    }
  });

  it.each(['card', 'banner'] as const)('the %s of every currency of the catalog is whole at its suggested size', async (kind: WidgetKind) => {
    const { path: widgetPath, width, height } = WIDGETS[kind];
    const page = await browser.newPage({ viewport: { width, height } });
    const broken: string[] = [];
    try {
      for (const { code } of DERIVED_CURRENCIES) {
        await page.goto(`${t.url}/${lang}/${widgetPath}?currency=${code}`);
        try {
          expect(await page.locator('.widget__pair').textContent()).toBe(`${code}/CRC`);
          expectWhole(await geometry(page), { width, height }, true);
        } catch (error) {
          broken.push(`${code}: ${(error as Error).message.split('\n').filter(Boolean).slice(0, 12).join(' ')}`);
          await screenshot(page, `broken-${kind}-${lang}-${code}`);
        }
      }
    } finally {
      await page.close();
    }
    expect(broken).toEqual([]);
  });
});

/** Every 40 px, and both sides of each width where the banner's layout changes. */
const WIDTHS = [...Array.from({ length: 24 }, (_, i) => 280 + i * 40), 1200, 319, 320, 339, 340, 439, 440, 559, 560].sort((a, b) => a - b);
const BANNERS = {
  // The euro's name is short; the dirham's is the longest in Spanish, the dong's rate the longest number.
  EUR: { base: () => t.url, code: 'EUR', nameMayBeCut: false },
  AED: { base: () => t.url, code: 'AED', nameMayBeCut: true },
  VND: { base: () => t.url, code: 'VND', nameMayBeCut: true },
  'EUR with the demo badge': { base: () => demo.url, code: 'EUR', nameMayBeCut: true },
} as const;

describe.each(['es', 'en'] as const)('the banner in %s', (lang) => {
  it.each(Object.keys(BANNERS) as Array<keyof typeof BANNERS>)('stays whole at every width from 280 to 1200 px: %s', async (mode) => {
    const { base, code, nameMayBeCut } = BANNERS[mode];
    const page = await browser.newPage({ viewport: { width: 280, height: 90 } });
    const broken: string[] = [];
    try {
      await page.goto(`${base()}/${lang}/banner?currency=${code}`);
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 90 });
        try {
          expectWhole(await geometry(page), { width, height: 90 }, nameMayBeCut);
        } catch (error) {
          broken.push(`${width} px: ${(error as Error).message.split('\n').filter(Boolean).slice(0, 12).join(' ')}`);
        }
        if ([280, 400, 640, 1000].includes(width)) await screenshot(page, `banner-${lang}-${code}${mode === code ? '' : '-demo'}-${width}`);
      }
    } finally {
      await page.close();
    }
    expect(broken).toEqual([]);
  });
});

describe('refreshing', () => {
  // Its own database: the rate below changes.
  let fresh: TestApp;
  beforeAll(async () => {
    fresh = await startTestApp({ clock });
    await fresh.seed([DOLLAR]);
    await fresh.seedCross([crossRate('EUR', DAY, 1.1734)]);
  });
  afterAll(() => fresh?.close());

  it('a euro widget redraws itself from the euro’s data when its cross rate changes; the dollar’s keeps the dollar', async () => {
    const [eurPage, usdPage] = await Promise.all([browser.newPage(), browser.newPage()]);
    try {
      await eurPage.goto(host.pageFor(`${fresh.url}/en/widget?currency=EUR&refresh=1`, 360, 150));
      await usdPage.goto(host.pageFor(`${fresh.url}/en/banner?refresh=1`, 640, 90));
      const [eur, usd] = await Promise.all([widgetFrame(eurPage), widgetFrame(usdPage)]);
      expect(await text(eur, 'buy')).toBe(SHOWN.en.buy);
      for (const frame of [eur, usd]) await frame.evaluate(() => ((window as unknown as { loadedOnce: boolean }).loadedOnce = true));

      // 468.29 × 1.18 = 552.5822 and 474.1 × 1.18 = 559.438.
      await fresh.seedCross([crossRate('EUR', DAY, 1.18)]);
      expect(await waitUntil(async () => (await text(eur, 'buy')) === '₡552.58', 10_000)).toBe(true);
      expect(await text(eur, 'sell')).toBe('₡559.44');
      // A few more rounds of polling: the dollar's banner never takes the euro's values.
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      expect(await text(usd, 'buy')).toBe('₡468.29');
      expect(await text(usd, 'sell')).toBe('₡474.10');
      for (const frame of [eur, usd]) expect(await frame.evaluate(() => (window as unknown as { loadedOnce?: boolean }).loadedOnce)).toBe(true);
    } finally {
      await Promise.all([eurPage.close(), usdPage.close()]);
    }
  });
});

it.each([
  ['es', 'card', 360, 150],
  ['en', 'banner', 640, 90],
  ['es', 'banner', 280, 90],
] as const)('a widget with an unknown currency says so whole in its frame: %s %s at %i px', async (lang, kind, width, height) => {
  const page = await browser.newPage({ viewport: { width, height } });
  try {
    const response = await page.goto(`${t.url}/${lang}/${WIDGETS[kind].path}?currency=${'X'.repeat(40)}`);
    expect(response?.status()).toBe(400);
    const box = await page.evaluate(() => {
      const alert = document.querySelector('[role="alert"]')?.getBoundingClientRect();
      const root = document.documentElement;
      return {
        bottom: alert?.bottom ?? Number.POSITIVE_INFINITY,
        right: alert?.right ?? Number.POSITIVE_INFINITY,
        scrollWidth: root.scrollWidth,
        scrollHeight: root.scrollHeight,
      };
    });
    expect(box.bottom).toBeLessThanOrEqual(height);
    expect(box.right).toBeLessThanOrEqual(width);
    expect(box.scrollWidth).toBeLessThanOrEqual(width);
    expect(box.scrollHeight).toBeLessThanOrEqual(height);
    await expect(page.locator('[role="alert"]').innerText()).resolves.toMatch(/currency/);
    await screenshot(page, `refused-${kind}-${lang}-${width}`);
  } finally {
    await page.close();
  }
});
