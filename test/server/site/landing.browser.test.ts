/**
 * The landing page in a real browser: both languages, today's rate, the live widgets and their
 * embed code, and the request-access form with and without JavaScript (the confirmation in place,
 * the server's field error next to the field, the plain form post's pages).
 */
import type { Browser, Page } from 'playwright-core';
import { rate, startTestApp, type TestApp } from '../../helpers/app';
import { createAccessRequestsStore } from '../../../server/store/access-requests';
import { collectCspViolations, launchBrowser } from './support';

jest.setTimeout(60_000);

let t: TestApp;
let browser: Browser;

beforeAll(async () => {
  [t, browser] = await Promise.all([startTestApp({ clock: () => new Date('2025-01-16T05:30:00Z') }), launchBrowser()]);
  await t.seed([rate('2025-01-15', 506.47, 512.82)]);
});

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

const stored = () => createAccessRequestsStore(t.database.db).list();

async function withPage<T>(options: { javaScriptEnabled?: boolean; locale?: string }, use: (page: Page) => Promise<T>): Promise<T> {
  const context = await browser.newContext(options);
  try {
    return await use(await context.newPage());
  } finally {
    await context.close();
  }
}

it.each([
  { lang: 'es', buy: '₡506,47', date: '15 de enero de 2025', price: '2,99 USD', docs: 'Referencia de la API' },
  { lang: 'en', buy: '₡506.47', date: 'January 15, 2025', price: '2.99 USD', docs: 'API reference' },
])('shows the service, the rate, live widgets with their code, pricing and the API links in $lang', async ({ lang, buy, date, price, docs }) => {
  await withPage({}, async (page) => {
    const violations = collectCspViolations(page);
    await page.goto(`${t.url}/${lang}`);
    expect(await page.getAttribute('html', 'lang')).toBe(lang);
    expect(await page.locator('#rate dd').first().textContent()).toBe(buy);
    expect(await page.locator('#rate time').textContent()).toBe(date);

    // Each example is the real widget in an iframe, and its code frames it from this host.
    for (const [kind, path, size] of [
      ['card', 'widget', 'width="360" height="150"'],
      ['banner', 'banner', 'width="640" height="90"'],
    ] as const) {
      const iframe = page.locator(`iframe[src="/${lang}/${path}"]`);
      await iframe.scrollIntoViewIfNeeded();
      const frame = await (await iframe.elementHandle())?.contentFrame();
      await frame?.waitForSelector('[data-field="buy"]');
      expect(await frame?.locator('[data-field="buy"]').textContent()).toBe(buy);
      expect(await page.locator(`#snippet-${kind}`).textContent()).toContain(`<iframe src="${t.url}/${lang}/${path}" ${size}`);
    }

    const pricing = await page.locator('#pricing').innerText();
    expect(pricing).toContain(price);
    expect(pricing).toMatch(/5[,\s\u00a0\u202f]?000/);
    expect(pricing).toContain('60');
    expect(pricing).toContain('Custom');
    expect(await page.getAttribute(`a:text("${docs}")`, 'href')).toBe('/docs');
    expect(await page.locator('a[href="/api/v1/openapi.json"]').count()).toBe(1);
    expect(violations).toEqual([]);
  });
});

it('answers / in the browser language, Spanish by default', async () => {
  expect(
    await withPage({ locale: 'en-US' }, async (page) => {
      await page.goto(t.url);
      return page.getAttribute('html', 'lang');
    }),
  ).toBe('en');
  expect(
    await withPage({ locale: 'fr-FR' }, async (page) => {
      await page.goto(t.url);
      return page.getAttribute('html', 'lang');
    }),
  ).toBe('es');
});

describe('the request-access form with JavaScript', () => {
  it('posts JSON and shows the confirmation in place', async () => {
    await withPage({}, async (page) => {
      const posted: string[] = [];
      page.on('request', (request) => {
        if (request.url().endsWith('/request-access')) posted.push(request.headers()['content-type'] ?? '');
      });
      await page.goto(`${t.url}/es?plan=custom#request`);
      expect(await page.locator('#f-plan').inputValue()).toBe('custom');
      await page.fill('#f-name', 'Ana Mora');
      await page.fill('#f-email', 'ana@example.com');
      await page.fill('#f-company', 'Finca Sol');
      await page.fill('#f-message', 'Para nuestras facturas.');
      await page.click('#request button[type="submit"]');

      const done = page.locator('.form__done');
      await done.waitFor();
      expect(await done.textContent()).toMatch(/Gracias/);
      expect(page.url()).toBe(`${t.url}/es?plan=custom#request`); // no navigation
      expect(await page.locator('form[data-request-form]').count()).toBe(0);
      expect(posted).toEqual(['application/json']);
      expect((await stored()).at(-1)).toMatchObject({ name: 'Ana Mora', email: 'ana@example.com', company: 'Finca Sol', plan: 'custom' });
    });
  });

  it("shows the server's error next to the email field, then sends once it is fixed", async () => {
    await withPage({}, async (page) => {
      const before = (await stored()).length;
      await page.goto(`${t.url}/en#request`);
      await page.fill('#f-name', 'Luis');
      // The browser's own check lets it through (no dot needed); the server's refuses it.
      await page.fill('#f-email', 'luis@example');
      await page.click('#request button[type="submit"]');

      const error = page.locator('#f-email-error');
      await error.waitFor({ state: 'visible' });
      expect(await error.textContent()).toBe('Enter a valid email address.');
      expect(await page.getAttribute('#f-email', 'aria-invalid')).toBe('true');
      expect(await page.getAttribute('#f-email', 'aria-describedby')).toBe('f-email-error');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('f-email');
      expect(await page.locator('#f-name-error').isHidden()).toBe(true);
      expect((await stored()).length).toBe(before);

      await page.fill('#f-email', 'luis@example.org');
      await page.click('#request button[type="submit"]');
      await page.locator('.form__done').waitFor();
      expect((await stored()).at(-1)).toMatchObject({ name: 'Luis', email: 'luis@example.org', plan: 'pro' });
    });
  });
});

describe('the request-access form without JavaScript', () => {
  it('is a plain form post answered by a thank-you page', async () => {
    await withPage({ javaScriptEnabled: false }, async (page) => {
      await page.goto(`${t.url}/es#request`);
      await page.fill('#f-name', 'Marta');
      await page.fill('#f-email', 'marta@example.com');
      const [response] = await Promise.all([page.waitForNavigation(), page.click('#request button[type="submit"]')]);
      expect(response?.status()).toBe(201);
      expect(await page.locator('h1').textContent()).toContain('Marta');
      expect((await stored()).at(-1)).toMatchObject({ name: 'Marta', email: 'marta@example.com', plan: 'pro' });
    });
  });

  it('answers a refused field with a page in the form language', async () => {
    await withPage({ javaScriptEnabled: false }, async (page) => {
      await page.goto(`${t.url}/es#request`);
      await page.fill('#f-name', 'Marta');
      await page.fill('#f-email', 'marta@example');
      const [response] = await Promise.all([page.waitForNavigation(), page.click('#request button[type="submit"]')]);
      expect(response?.status()).toBe(400);
      expect(await page.locator('[role="alert"]').textContent()).toBe('Correo electrónico: Escriba un correo electrónico válido.');
      expect(await page.getAttribute('a.button', 'href')).toBe('/es#request');
    });
  });
});
