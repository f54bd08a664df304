#!/usr/bin/env node
/**
 * `npm run addon:icons`: the Marketplace images from the SVGs beside this file, drawn by Chromium
 * (playwright-core, /usr/bin/chromium or CHROMIUM_PATH) at the sizes Google asks for: the
 * application icon at 32×32 and 128×128, and the 220×140 card banner. The PNGs are committed:
 * run this again after changing an SVG.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
export const IMAGES = [
  { svg: 'icon.svg', png: 'icon-32.png', width: 32, height: 32 },
  { svg: 'icon.svg', png: 'icon-128.png', width: 128, height: 128 },
  { svg: 'banner.svg', png: 'banner-220x140.png', width: 220, height: 140 },
];

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu'],
});
try {
  for (const image of IMAGES) {
    const page = await browser.newPage({ viewport: { width: image.width, height: image.height }, deviceScaleFactor: 1 });
    const svg = readFileSync(path.join(here, image.svg), 'utf8').replace(/width="\d+" height="\d+"/, `width="${image.width}" height="${image.height}"`);
    await page.setContent(`<!doctype html><html><body style="margin:0;background:transparent">${svg}</body></html>`);
    await page.screenshot({ path: path.join(here, image.png), omitBackground: true, clip: { x: 0, y: 0, width: image.width, height: image.height } });
    await page.close();
    console.log(`addon:icons: ${path.join('appsscript/listing', image.png)} (${image.width}×${image.height})`);
  }
} finally {
  await browser.close();
}
