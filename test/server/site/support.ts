/**
 * Shared pieces of the site's browser tests: headless Chromium through playwright-core, a second
 * tiny server on another origin (localhost instead of 127.0.0.1: another site, as a real embedder
 * is) whose pages frame a widget, the site alone with its own options (demo data), WCAG contrast
 * from computed styles, and a folder for screenshots.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import Koa from 'koa';
import pino from 'pino';
import { chromium, type Browser, type Frame, type Page } from 'playwright-core';
import { createLocalChangeFeed } from '../../../server/changes';
import { mountSite, type SiteDeps } from '../../../server/site';
import { createCrossRatesStore, type CrossInput } from '../../../server/store/cross-rates';
import { createCurrencySeries } from '../../../server/store/currency-series';
import { createRatesStore, type RateInput } from '../../../server/store/rates';
import { createRatesInMemory } from '../../../server/store/rates-in-memory';
import { createTestDatabase } from '../../helpers/database';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
}

export interface EmbedHost {
  /** The address of a page on the other origin that frames `src` at `width`×`height`. */
  pageFor(src: string, width: number, height: number): string;
  close(): Promise<void>;
}

/** Another origin that embeds widgets the way the landing page's snippet tells people to. */
export async function startEmbedHost(): Promise<EmbedHost> {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const src = url.searchParams.get('src') ?? '';
    const width = Number(url.searchParams.get('width'));
    const height = Number(url.searchParams.get('height'));
    const attr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Someone else's page</title>
<style>body{margin:24px;background:#e9e3d5;font-family:sans-serif}</style></head>
<body><p>A page on another site</p>
<iframe id="widget" src="${attr(src)}" width="${width}" height="${height}" title="USD/CRC" style="border:0"></iframe></body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    pageFor: (src, width, height) => `http://localhost:${port}/?${new URLSearchParams({ src, width: String(width), height: String(height) })}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export interface SiteOnly {
  url: string;
  /** Writes rows and announces the change, as a sync does. */
  seed(rows: readonly RateInput[]): Promise<void>;
  /** Writes cross rates against the dollar and announces the change, as the currencies' sync does. */
  seedCross(rows: readonly CrossInput[]): Promise<void>;
  close(): Promise<void>;
}

/**
 * The site alone (no API) on a database of its own, mounted with the options the app does not
 * pass yet (`demo`), listening on a free port.
 */
export async function startSite(options: {
  clock: () => Date;
  demo?: boolean;
  publishing?: SiteDeps['publishing'];
  /** The address the pages name, when not the one the site listens on. */
  publicUrl?: string;
}): Promise<SiteOnly> {
  const database = await createTestDatabase();
  const changes = createLocalChangeFeed();
  const rates = createRatesStore(database.db);
  // The series as the app reads them: from memory, dropped on every change.
  const onRatesChanged = (listener: () => void) => changes.onRatesChanged(listener);
  const dollar = createRatesInMemory(rates, onRatesChanged);
  const cross = createCrossRatesStore(database.db);
  const currencies = createCurrencySeries({ dollar, cross, onRatesChanged });
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const deps: SiteDeps = {
    db: database.db,
    currencies,
    logger: pino({ level: 'silent' }),
    redis: null,
    clock: options.clock,
    publicUrl: options.publicUrl ?? url,
    onRatesChanged,
    ...(options.demo === undefined ? {} : { demo: options.demo }),
    ...(options.publishing === undefined ? {} : { publishing: options.publishing }),
  };
  const router = new Router();
  mountSite(router, deps);
  const app = new Koa();
  app.use(router.routes());
  server.on('request', app.callback());
  return {
    url,
    async seed(rows) {
      await rates.upsert(rows);
      await changes.ratesChanged();
    },
    async seedCross(rows) {
      await cross.upsert(rows);
      await changes.ratesChanged();
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await database.drop();
    },
  };
}

/** The frame of the page's first iframe, once its document has loaded. */
export async function widgetFrame(page: Page): Promise<Frame> {
  const element = await page.waitForSelector('iframe');
  const frame = await element.contentFrame();
  if (!frame) throw new Error('the iframe has no frame');
  await frame.waitForSelector('[data-widget]');
  return frame;
}

/** Fails a test on any Content-Security-Policy refusal the page or its frames report. */
export function collectCspViolations(page: Page): string[] {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}

type Rgba = [number, number, number, number];

export function parseColor(css: string): Rgba {
  const m = /rgba?\(([^)]+)\)/.exec(css);
  if (!m) throw new Error(`not an rgb() colour: ${css}`);
  const parts = (m[1] ?? '')
    .split(/[\s,/]+/)
    .filter(Boolean)
    .map(Number);
  return [parts[0] ?? 0, parts[1] ?? 0, parts[2] ?? 0, parts[3] ?? 1];
}

/** WCAG 2 contrast ratio of two opaque sRGB colours. */
export function contrastRatio(a: Rgba, b: Rgba): number {
  const luminance = ([r, g, b]: Rgba) => {
    const channel = (c: number) => {
      const s = c / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * For each element matching `selector` in `frame`: its text, its colour and the colour of the
 * first opaque background among itself and its ancestors.
 */
export function textColors(frame: Frame, selector: string): Promise<Array<{ text: string; color: string; background: string }>> {
  return frame.$$eval(selector, (elements) =>
    elements.map((element) => {
      let node: Element | null = element;
      let background = 'rgb(255, 255, 255)';
      while (node) {
        const bg = getComputedStyle(node).backgroundColor;
        if (bg && bg !== 'transparent' && !/rgba\([^)]*,\s*0\)$/.test(bg)) {
          background = bg;
          break;
        }
        node = node.parentElement;
      }
      return { text: (element.textContent ?? '').trim(), color: getComputedStyle(element).color, background };
    }),
  );
}

/** A fresh folder under the system's temporary directory (never in the repository). */
export function screenshotDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'crc-rates-widgets-'));
}

/** Polls `check` until it returns true or `ms` pass; the last value is returned either way. */
export async function waitUntil(check: () => Promise<boolean>, ms: number, every = 100): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, every));
  }
}

export interface Box {
  name: string;
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export interface WidgetGeometry {
  width: number;
  height: number;
  scrollWidth: number;
  scrollHeight: number;
  /** What the reader sees, each piece of text (or the badge) as the box its glyphs cover. */
  boxes: Box[];
  /** Pairs of pieces that cover each other. */
  overlaps: string[];
  /** Pieces that reach past the frame's edges, where they are cut off. */
  clipped: string[];
  /** Line boxes of the title's words ("Official exchange rate"): one unless it wraps. */
  titleLines: number;
}

/**
 * The geometry of the widget in `frame`, from the browser's own boxes: the text of each part
 * (a Range around it, so a block's empty width does not count), the badge's border box, and the
 * link's inline box (its hidden "opens in a new tab" is clipped to a pixel and is no ink).
 */
export function widgetGeometry(frame: Frame | Page): Promise<WidgetGeometry> {
  return frame.evaluate(() => {
    const rectOf = (target: Node | Element): DOMRect => {
      if (target instanceof Element && (target.matches('a, .demo-badge') || target.closest('.demo-badge'))) return target.getBoundingClientRect();
      const range = document.createRange();
      range.selectNodeContents(target);
      return range.getBoundingClientRect();
    };
    const parts: Array<[string, Node | Element | null]> = [
      ['title', document.querySelector('.widget__title')?.firstChild ?? null],
      ['pair', document.querySelector('.widget__pair')],
      ['badge', document.querySelector('.demo-badge')],
      ['empty', document.querySelector('.widget__empty')],
      ['buy label', document.querySelectorAll('.widget__value dt')[0] ?? null],
      ['buy', document.querySelector('[data-field="buy"]')],
      ['sell label', document.querySelectorAll('.widget__value dt')[1] ?? null],
      ['sell', document.querySelector('[data-field="sell"]')],
      ['date', document.querySelector('.widget__date')],
      ['source', document.querySelector('.widget__foot > span')],
      ['link', document.querySelector('.widget__foot a')],
    ];
    const boxes: Box[] = [];
    for (const [name, node] of parts) {
      if (!node) continue;
      const r = rectOf(node);
      if (r.width < 0.5 || r.height < 0.5) continue; // not shown (the empty state, no badge)
      boxes.push({ name, left: r.left, top: r.top, right: r.right, bottom: r.bottom });
    }
    const overlaps: string[] = [];
    boxes.forEach((a, i) => {
      for (const b of boxes.slice(i + 1)) {
        const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
        const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
        if (x > 0.5 && y > 0.5) overlaps.push(`${a.name} × ${b.name}`);
      }
    });
    const clipped = boxes.filter((b) => b.left < -0.5 || b.top < -0.5 || b.right > innerWidth + 0.5 || b.bottom > innerHeight + 0.5).map((b) => b.name);
    const title = document.querySelector('.widget__title')?.firstChild;
    let titleLines = 0;
    if (title) {
      const range = document.createRange();
      range.selectNodeContents(title);
      // A range reports one rectangle per line box it crosses (trailing space aside).
      titleLines = new Set(
        Array.from(range.getClientRects())
          .filter((r) => r.width > 1)
          .map((r) => Math.round(r.top)),
      ).size;
    }
    const root = document.documentElement;
    return { width: innerWidth, height: innerHeight, scrollWidth: root.scrollWidth, scrollHeight: root.scrollHeight, boxes, overlaps, clipped, titleLines };
  });
}
