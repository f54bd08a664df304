/**
 * The settings sidebar in headless Chromium: the HTML is the built Sidebar.html as the built
 * `showSettings` renders it (Code.js in node:vm), and `google.script.run` is a shim whose server
 * functions each test fakes (success and failure handlers, as in Sheets) — or, for the usage
 * meter, answers with what the built `getUsage` returns from a real API server.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CURRENCY_CODES } from '../../shared/currency-catalog';
import type { Usage } from '../../shared/types';
import { startApiServer, type ApiServer } from './support/api-server';
import { loadGas } from './support/gas';

const ROOT = path.resolve(__dirname, '../..');
const KEY = `crc_live_AbCd${'x'.repeat(35)}wxyz`;
const MASKED = 'crc_live_AbCd…wxyz';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
];
const PAGE_URL = 'http://sidebar.test/';

let dist: string;
let browser: Browser;
let server: ApiServer;

beforeAll(async () => {
  dist = mkdtempSync(path.join(os.tmpdir(), 'crc-addon-'));
  const [, launched, started] = await Promise.all([
    promisify(execFile)(process.execPath, [path.join(ROOT, 'appsscript/build.mjs'), '--out', dist], { cwd: ROOT }),
    chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS }),
    startApiServer(),
  ]);
  browser = launched;
  server = started;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (dist) rmSync(dist, { recursive: true, force: true });
});

/** The sidebar's HTML as showSettings hands it to Sheets, for a document with these properties. */
function renderSidebar(properties: Record<string, string>, locale = 'en_US'): string {
  const gas = loadGas({
    dist,
    locale,
    properties,
    fetch: () => {
      throw new Error('showSettings must not call the API');
    },
  });
  gas.run('showSettings');
  return gas.sidebars[0]!.html;
}

/**
 * google.script.run: each call is recorded in `__calls` and answered, asynchronously like the
 * real one, by `__server[name]` (a value, a promise, or a throw for the failure handler).
 */
function installRunShim() {
  const w = window as unknown as {
    __calls: unknown[][];
    __server: Record<string, (...args: unknown[]) => unknown>;
    google: unknown;
  };
  w.__calls = [];
  w.__server = {};
  type Handler = ((value: unknown) => void) | null;
  const runner = (success: Handler, failure: Handler): unknown =>
    new Proxy(
      {},
      {
        get(_, name: string) {
          if (name === 'withSuccessHandler') return (fn: Handler) => runner(fn, failure);
          if (name === 'withFailureHandler') return (fn: Handler) => runner(success, fn);
          return (...args: unknown[]) => {
            w.__calls.push([name, ...args]);
            setTimeout(async () => {
              try {
                const impl = w.__server[name];
                if (!impl) throw new Error(`ScriptError: no server function ${name}`);
                const value = await impl(...args);
                success?.(value);
              } catch (error) {
                failure?.(error);
              }
            }, 5);
          };
        },
      },
    );
  w.google = { script: { run: runner(null, null) } };
}

async function open(html: string, server: string = '{}'): Promise<Page> {
  // The width of a Sheets sidebar.
  const page = await browser.newPage({ viewport: { width: 300, height: 720 } });
  await page.addInitScript(installRunShim);
  // Fake server functions, installed before the sidebar's script runs.
  await page.addInitScript(`window.__server = Object.assign(window.__server || {}, ${server});`);
  await page.route(PAGE_URL, (route) => route.fulfill({ contentType: 'text/html; charset=utf-8', body: html }));
  await page.goto(PAGE_URL);
  await page.waitForSelector('#app:not([hidden])');
  return page;
}

const text = (page: Page, selector: string) => page.locator(selector).innerText();
const calls = (page: Page) => page.evaluate(() => (window as unknown as { __calls: unknown[][] }).__calls);
const setServer = (page: Page, source: string) => page.evaluate(`Object.assign(window.__server, ${source})`);

const VIEW_AFTER_SAVE = `{ locale: 'en', hasKey: true, maskedKey: '${MASKED}', baseUrl: '', defaultBaseUrl: 'https://api.crc-rates.com/api/v1', stale: null }`;
const PRO_USAGE = `{ plan: 'pro', planLabel: 'Pro', monthlyQuota: 5000, used: 3912, remaining: 1088, resetsAt: '2026-12-01T00:00:00.000Z', resetsOn: '2026-12-01 00:00 UTC', ratePerMinute: 60, baseUrl: 'https://api.crc-rates.com/api/v1' }`;

/** The meter as the page shows it. */
const meterOf = (page: Page) =>
  page.evaluate(() => {
    const m = document.querySelector('meter') as HTMLMeterElement;
    return { value: m.value, max: m.max, low: m.low, high: m.high, optimum: m.optimum, hidden: m.hidden };
  });

describe('settings sidebar', () => {
  test('starts from the masked key; the key itself is nowhere in the page', async () => {
    const html = renderSidebar({ CRC_RATES_API_KEY: KEY });
    expect(html).not.toContain(KEY);
    const page = await open(html, `{ getUsage: () => (${PRO_USAGE}) }`);
    expect(await text(page, '#status')).toBe(`Key saved: ${MASKED}`);
    expect(await page.locator('#key').getAttribute('placeholder')).toBe(MASKED);
    expect(await page.locator('#baseUrl').getAttribute('placeholder')).toBe('https://api.crc-rates.com/api/v1');
    expect(await page.locator('h1').innerText()).toBe('CRC Rates');
    expect(await page.content()).not.toContain(KEY);
    // The only call: this month's usage, with no argument (the server uses the saved key).
    await page.waitForFunction(() => document.querySelector('#quotaUsed')?.textContent?.includes(' of '));
    expect(await calls(page)).toEqual([['getUsage']]);
    await page.close();
  });

  test('save: sends the pasted key and address, clears the input, shows the masked key', async () => {
    const page = await open(renderSidebar({}), `{ saveSettings: () => (${VIEW_AFTER_SAVE}), getUsage: () => (${PRO_USAGE}) }`);
    expect(await text(page, '#status')).toBe('No key saved yet: paste yours below.');
    expect(await page.locator('#remove').isHidden()).toBe(true);
    expect(await page.locator('#quota').isHidden()).toBe(true);
    await page.fill('#key', `  ${KEY} `);
    await page.click('#save');
    await page.waitForSelector('#message.ok');
    expect(await text(page, '#message')).toBe('Settings saved.');
    expect(await page.inputValue('#key')).toBe('');
    expect(await text(page, '#status')).toBe(`Key saved: ${MASKED}`);
    expect(await page.locator('#remove').isVisible()).toBe(true);
    // With a key saved, the meter of this month's usage.
    await page.waitForFunction(() => !(document.querySelector('#meter') as HTMLElement).hidden);
    expect(await calls(page)).toEqual([['saveSettings', { key: KEY, baseUrl: '' }], ['getUsage']]);
    await page.close();
  });

  test('test connection: the plan and the per-minute rate, and the meter of the key tested', async () => {
    const page = await open(
      renderSidebar({ CRC_RATES_API_KEY: KEY, CRC_RATES_BASE_URL: 'https://rates.example.com/api/v1' }),
      `{ getUsage: () => { throw new Error('Error: Could not reach the CRC Rates API at https://rates.example.com: timeout'); }, testConnection: () => (${PRO_USAGE.replace('3912', '12').replace('1088', '4988')}) }`,
    );
    expect(await page.inputValue('#baseUrl')).toBe('https://rates.example.com/api/v1');
    expect(await page.locator('#advanced').getAttribute('open')).not.toBeNull();
    // On opening, the usage could not be read: the meter's place says why.
    await page.waitForFunction(() => document.querySelector('#quotaUsed')?.textContent?.startsWith('This month’s usage could not'));
    expect(await text(page, '#quotaUsed')).toBe(
      'This month’s usage could not be read: Could not reach the CRC Rates API at https://rates.example.com: timeout',
    );
    expect(await page.locator('#meter').isHidden()).toBe(true);
    await page.click('#test');
    await page.waitForSelector('#usage:not([hidden])');
    expect(await calls(page)).toEqual([['getUsage'], ['testConnection', { key: '', baseUrl: 'https://rates.example.com/api/v1' }]]);
    expect(await page.locator('#usage dt, #usage dd').allInnerTexts()).toEqual(['Plan', 'Pro', 'Requests per minute', '60']);
    expect(await meterOf(page)).toEqual({ value: 12, max: 5000, low: 3750, high: 4500, optimum: 0, hidden: false });
    expect(await text(page, '#quotaUsed')).toBe('12 of 5,000 used · 4,988 left');
    expect(await text(page, '#quotaResets')).toBe('Resets on 2026-12-01 00:00 UTC');
    expect(await text(page, '#message')).toBe('Connected.');
    await page.close();
  });

  test('the usage meter: the numbers of /usage from a real server, through the built getUsage', async () => {
    const properties = { CRC_RATES_API_KEY: server.keys.main, CRC_RATES_BASE_URL: server.api };
    const gas = loadGas({ dist, properties, fetch: server.fetch });
    // Some use this month, so that the meter has something to show.
    gas.run('EXCHANGEHISTORY', 7);
    gas.run('EXCHANGEBEST', 'sell');
    const fromAddOn = gas.run<Usage>('getUsage');
    const [reply] = server.fetch([{ url: `${server.api}/usage`, headers: { 'x-api-key': server.keys.main } }]);
    const usage = (JSON.parse((reply as { body: string }).body) as { data: Usage }).data;
    expect(fromAddOn).toMatchObject(usage);

    const page = await open(renderSidebar(properties), `{ getUsage: () => (${JSON.stringify(fromAddOn)}) }`);
    await page.waitForFunction(() => !(document.querySelector('#meter') as HTMLElement).hidden);
    const meter = await meterOf(page);
    expect([meter.value, meter.max]).toEqual([usage.used, usage.monthlyQuota]);
    expect(await text(page, '#quotaUsed')).toBe(
      `${usage.used.toLocaleString('en-US')} of ${usage.monthlyQuota.toLocaleString('en-US')} used · ${usage.remaining.toLocaleString('en-US')} left`,
    );
    expect(await text(page, '#quotaResets')).toBe(`Resets on ${usage.resetsAt.slice(0, 10)} ${usage.resetsAt.slice(11, 16)} UTC`);
    expect(await page.locator('#meter').getAttribute('aria-labelledby')).toBe('quotaTitle');
    await page.close();
  });

  test('a key three quarters through its quota: the meter turns amber; a screenshot to look at', async () => {
    const page = await open(renderSidebar({ CRC_RATES_API_KEY: KEY }), `{ getUsage: () => (${PRO_USAGE}) }`);
    await page.waitForFunction(() => !(document.querySelector('#meter') as HTMLElement).hidden);
    expect(await meterOf(page)).toMatchObject({ value: 3912, max: 5000 });
    expect(await text(page, '#quotaPercent')).toBe('78%');
    expect(await text(page, '#quotaUsed')).toBe('3,912 of 5,000 used · 1,088 left');
    // Chromium colours a meter by its region: 3,912 of 5,000 is past `low` (amber), not yet `high`.
    expect(await page.locator('#meter').evaluate((m: HTMLMeterElement) => m.value > m.low && m.value < m.high)).toBe(true);
    await page.screenshot({ path: path.join(os.tmpdir(), 'crc-sidebar-meter.png'), fullPage: true });
    await page.close();
  });

  test('some cells show the last known good copy: the sidebar says the data is stale, and why', async () => {
    const stale = {
      since: Date.parse('2026-11-22T14:00:00Z'),
      at: Date.parse('2026-11-22T14:05:00Z'),
      reason: 'Could not reach the CRC Rates API at https://api.crc-rates.com: Address unavailable',
      keys: { a: Date.parse('2026-11-21T09:30:00Z'), b: Date.parse('2026-11-22T08:00:00Z') },
    };
    const page = await open(renderSidebar({ CRC_RATES_API_KEY: KEY, CRC_RATES_STALE: JSON.stringify(stale) }), `{ getUsage: () => (${PRO_USAGE}) }`);
    expect(await page.locator('#stale').isVisible()).toBe(true);
    expect(await text(page, '#stale strong')).toBe('Some values are a saved copy');
    expect(await text(page, '#staleBody')).toBe(
      '2 answers were shown from the last good copy (from 2026-11-21 09:30 UTC) because the API failed: Could not reach the CRC Rates API at https://api.crc-rates.com: Address unavailable. They update when the sheet recalculates and the API answers again.',
    );
    await page.waitForFunction(() => !(document.querySelector('#meter') as HTMLElement).hidden);
    await page.screenshot({ path: path.join(os.tmpdir(), 'crc-sidebar-stale.png'), fullPage: true });
    await page.close();

    const none = await open(renderSidebar({ CRC_RATES_API_KEY: KEY }), `{ getUsage: () => (${PRO_USAGE}) }`);
    expect(await none.locator('#stale').isHidden()).toBe(true);
    await none.close();
  });

  test('remove: the key is gone from the status and the remove button hides', async () => {
    const page = await open(
      renderSidebar({ CRC_RATES_API_KEY: KEY }),
      `{ getUsage: () => (${PRO_USAGE}), removeKey: () => ({ locale: 'en', hasKey: false, maskedKey: null, baseUrl: '', defaultBaseUrl: 'https://api.crc-rates.com/api/v1', stale: null }) }`,
    );
    await page.waitForFunction(() => !(document.querySelector('#meter') as HTMLElement).hidden);
    await page.click('#remove');
    await page.waitForSelector('#message.ok');
    expect(await text(page, '#message')).toBe('Key removed.');
    expect(await text(page, '#status')).toBe('No key saved yet: paste yours below.');
    expect(await page.locator('#remove').isHidden()).toBe(true);
    // No key, no usage to show.
    expect(await page.locator('#quota').isHidden()).toBe(true);
    expect(await calls(page)).toEqual([['getUsage'], ['removeKey']]);
    await page.close();
  });

  test('a refused key: the server’s message is shown as an alert, nothing else changes', async () => {
    const page = await open(renderSidebar({}));
    await setServer(
      page,
      `{ saveSettings: () => { throw new Error('That does not look like a CRC Rates key: it starts with crc_live_ and has no spaces.'); } }`,
    );
    await page.fill('#key', 'hello');
    await page.click('#save');
    await page.waitForSelector('#message.error');
    expect(await page.locator('#message').getAttribute('role')).toBe('alert');
    expect(await text(page, '#message')).toBe('That does not look like a CRC Rates key: it starts with crc_live_ and has no spaces.');
    expect(await text(page, '#status')).toBe('No key saved yet: paste yours below.');
    expect(await page.inputValue('#key')).toBe('hello');

    // A key the API rejects during the test, as Apps Script reports a thrown Error.
    await setServer(page, `{ testConnection: () => { throw new Error('Error: Your API key was rejected: check it in Extensions → CRC Rates → Settings'); } }`);
    await page.click('#test');
    await page.waitForFunction(() => document.querySelector('#message')?.textContent?.startsWith('Your API key'));
    expect(await text(page, '#message')).toBe('Your API key was rejected: check it in Extensions → CRC Rates → Settings');
    expect(await page.locator('#usage').isHidden()).toBe(true);
    await page.close();
  });

  test('a network failure between the sidebar and Sheets', async () => {
    const page = await open(renderSidebar({ CRC_RATES_API_KEY: KEY }));
    await setServer(
      page,
      `{ testConnection: () => { const e = new Error('NetworkError: Connection failure due to HTTP 0'); e.name = 'NetworkError'; throw e; } }`,
    );
    await page.click('#test');
    await page.waitForSelector('#message.error');
    expect(await text(page, '#message')).toBe('Lost contact with Google Sheets: check your connection and try again.');
    expect(await page.locator('#test').isEnabled()).toBe(true);
    await page.close();
  });

  test('the buttons wait for the server', async () => {
    const page = await open(renderSidebar({}));
    await setServer(page, `{ saveSettings: () => new Promise((resolve) => { window.__release = () => resolve(${VIEW_AFTER_SAVE}); }) }`);
    await page.fill('#key', KEY);
    await page.click('#save');
    await page.waitForFunction(() => typeof (window as unknown as { __release?: unknown }).__release === 'function');
    expect(await page.locator('#save').isDisabled()).toBe(true);
    expect(await page.locator('#test').isDisabled()).toBe(true);
    expect(await text(page, '#message')).toBe('Working…');
    await page.evaluate(() => (window as unknown as { __release: () => void }).__release());
    await page.waitForSelector('#message.ok');
    expect(await page.locator('#save').isEnabled()).toBe(true);
    await page.close();
  });

  test('in Spanish for a Spanish spreadsheet', async () => {
    const page = await open(renderSidebar({}, 'es_CR'));
    expect(await page.locator('html').getAttribute('lang')).toBe('es');
    expect(await page.locator('#save').innerText()).toBe('Guardar');
    expect(await page.locator('#test').innerText()).toBe('Probar conexión');
    expect(await text(page, '#status')).toBe('Aún no hay clave: pegue la suya abajo.');
    await setServer(page, `{ saveSettings: () => { throw new Error('Exception: Pegue la clave de nuevo para usarla con una dirección de API nueva.'); } }`);
    await page.click('#save');
    await page.waitForSelector('#message.error');
    expect(await text(page, '#message')).toBe('Pegue la clave de nuevo para usarla con una dirección de API nueva.');
    await page.close();
  });

  test('lists every currency the functions take, named in the sheet’s language, folded until opened', async () => {
    for (const [locale, lang, title, usd, eur, jpy] of [
      ['en_US', 'en', 'Currencies', 'US dollar', 'Euro', 'Japanese yen'],
      ['es_CR', 'es', 'Monedas', 'Dólar estadounidense', 'Euro', 'Yen japonés'],
    ] as const) {
      const page = await open(renderSidebar({}, locale));
      expect(await page.locator('#currencies summary').innerText()).toBe(title);
      expect(await page.locator('#currencyList').isVisible()).toBe(false);
      await page.click('#currencies summary');
      const cells = await page.locator('#currencyList dt, #currencyList dd').allInnerTexts();
      expect(cells.filter((_, i) => i % 2 === 0)).toEqual([...CURRENCY_CODES]);
      const names = new Map(cells.flatMap((c, i) => (i % 2 === 0 ? [[c, cells[i + 1]]] : [])));
      expect([names.get('USD'), names.get('EUR'), names.get('JPY')]).toEqual([usd, eur, jpy]);
      expect(await text(page, '.intro')).toContain(`${CURRENCY_CODES.length - 1} ${lang === 'es' ? 'monedas' : 'other currencies'}`);
      expect(await text(page, '.help')).toContain(lang === 'es' ? '=EXCHANGERATE(A2; "venta"; "EUR")' : '=EXCHANGERATE(A2, "sell", "EUR")');
      await page.close();
    }
  });

  test('an address with markup in it stays text', async () => {
    const evil = 'https://x.example.com/</script><img src=x onerror="window.__pwned=1">';
    const page = await open(renderSidebar({ CRC_RATES_API_KEY: KEY, CRC_RATES_BASE_URL: evil }));
    expect(await page.inputValue('#baseUrl')).toBe(evil);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    await page.close();
  });

  test('opened without its template evaluated, it asks the server for the settings', async () => {
    const raw = readFileSync(path.join(dist, 'Sidebar.html'), 'utf8');
    const page = await open(raw, `{ getSettings: () => (${VIEW_AFTER_SAVE}) }`);
    await page.waitForFunction(() => document.querySelector('#status')?.textContent !== '');
    expect(await text(page, '#status')).toBe(`Key saved: ${MASKED}`);
    // Then, a key being saved, its usage (which this page's server cannot give).
    expect(await calls(page)).toEqual([['getSettings'], ['getUsage']]);
    await page.close();
  });
});
