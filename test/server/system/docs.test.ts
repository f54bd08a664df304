/**
 * /docs in a real browser: Swagger UI, served from our own origin, loads the live document and
 * shows every route, and the page asks nothing of any other host (no CDN, no online validator).
 *
 * The page is opened under a host name that is not localhost (resolved to the test server by
 * Chromium itself), as a reader of the deployed site would: Swagger UI behaves differently on
 * localhost (it skips its online validator badge there).
 */
import { WEBHOOK_OPERATIONS } from '../../../server/http/routes/webhook-operations';
import { chromium, type Browser } from 'playwright-core';
import { startTestApp, type TestApp } from '../../helpers/app';

const HOST = 'docs.crc-rates.test';

describe('/docs in Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  let origin: string;

  beforeAll(async () => {
    t = await startTestApp();
    origin = `http://${HOST}:${new URL(t.url).port}`;
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-quic',
        `--host-resolver-rules=MAP ${HOST} 127.0.0.1`,
      ],
    });
  }, 30_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('shows every route and loads nothing from another origin', async () => {
    const page = await browser.newPage();
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    // Anything bound elsewhere is recorded above and never leaves the machine.
    await page.route('**/*', (route) => (route.request().url().startsWith(`${origin}/`) ? route.continue() : route.abort()));
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));

    const response = await page.goto(`${origin}/docs`, { waitUntil: 'load' });
    expect(response?.status()).toBe(200);
    // Swagger UI fetched the spec and rendered one block per operation.
    await page.waitForFunction((count) => document.querySelectorAll('.opblock').length >= count, t.app.routes.length, { timeout: 20_000 });
    await page.waitForLoadState('networkidle');

    // Swagger UI breaks long paths with zero-width spaces.
    const text = (await page.locator('body').innerText()).replace(/\u200b/g, '');
    for (const route of t.app.routes) expect([route.path, text.includes(route.path)]).toEqual([route.path, true]);
    expect(await page.locator('.opblock').count()).toBe(t.app.routes.length + WEBHOOK_OPERATIONS.length);
    expect(text).toContain('crc-rates API');

    expect(requested).toContain(`${origin}/api/v1/openapi.json`);
    const elsewhere = requested.filter((url) => !url.startsWith(`${origin}/`) && !/^(data|blob):/.test(url));
    expect(elsewhere).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  }, 40_000);
});
