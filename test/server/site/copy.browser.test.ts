/**
 * The copy buttons of the landing page's code blocks, in a real browser under the page's content
 * policy: one per block, named for what it copies, reachable and pressed from the keyboard; they
 * copy the block's exact text and say so, then read "Copy" again. Where the Clipboard API is
 * missing or refuses, the older copy command is tried, and when that fails too the code is left
 * selected with a request to press Ctrl+C. Without JavaScript there are no buttons to press. The
 * clipboard is the outside world here: each test puts a stand-in for it in the page.
 */
import type { Browser, Page } from 'playwright-core';
import { rate, startTestApp, type TestApp } from '../../helpers/app';
import { embedSnippet } from '../../../server/site/pages/landing';
import { collectCspViolations, launchBrowser } from './support';

jest.setTimeout(60_000);

let t: TestApp;
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
  t = await startTestApp({ clock: () => new Date('2025-01-16T05:30:00Z') });
  await t.seed([rate('2025-01-15', 506.47, 512.82)]);
});

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

/** What the page's window holds once a stand-in clipboard is installed. */
interface Recorded {
  copied: string[];
  /** The selection when the older copy command was called. */
  commanded: string[];
}

/** A clipboard that records what it is given, refuses, or is missing; and an old copy command that works or not. */
type Stand = { clipboard: 'records' | 'refuses' | 'missing'; command: boolean };

async function open(lang: 'es' | 'en', stand: Stand, use: (page: Page, violations: string[]) => Promise<void>, options: { javaScriptEnabled?: boolean } = {}) {
  const context = await browser.newContext(options);
  try {
    const page = await context.newPage();
    const violations = collectCspViolations(page);
    await page.addInitScript((s: Stand) => {
      const recorded = { copied: [] as string[], commanded: [] as string[] };
      (window as unknown as { recorded: Recorded }).recorded = recorded;
      const clipboard =
        s.clipboard === 'missing'
          ? undefined
          : {
              writeText: (text: string) => {
                if (s.clipboard === 'refuses') return Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError'));
                recorded.copied.push(text);
                return Promise.resolve();
              },
            };
      Object.defineProperty(navigator, 'clipboard', { value: clipboard, configurable: true });
      document.execCommand = (command: string) => {
        recorded.commanded.push(`${command}: ${String(window.getSelection())}`);
        return s.command;
      };
    }, stand);
    await page.clock.install();
    await page.goto(`${t.url}/${lang}`);
    await use(page, violations);
  } finally {
    await context.close();
  }
}

const recorded = (page: Page) => page.evaluate(() => (window as unknown as { recorded: Recorded }).recorded);
const statusOf = (page: Page, id: string) => page.locator(`[data-copy-status="${id}"]`);

const BLOCKS = {
  es: {
    names: { card: 'Copiar el código de la tarjeta', banner: 'Copiar el código del banner', api: 'Copiar el ejemplo' },
    done: 'Copiado',
    idle: 'Copiar',
    manual: 'Seleccionado: pulse Ctrl+C (⌘C en Mac) para copiarlo.',
    key: 'SU_LLAVE',
  },
  en: {
    names: { card: 'Copy the card code', banner: 'Copy the banner code', api: 'Copy the example' },
    done: 'Copied',
    idle: 'Copy',
    manual: 'Selected: press Ctrl+C (⌘C on a Mac) to copy it.',
    key: 'YOUR_KEY',
  },
} as const;

const expectedText = (lang: 'es' | 'en', block: 'card' | 'banner' | 'api') =>
  block === 'api' ? `curl -H "x-api-key: ${BLOCKS[lang].key}" ${t.url}/api/v1/exchange-rate/latest` : embedSnippet(t.url, lang, block);

describe.each(['es', 'en'] as const)('in %s', (lang) => {
  const texts = BLOCKS[lang];

  it('puts a named button on every code block, and each copies its block exactly', async () => {
    await open(lang, { clipboard: 'records', command: false }, async (page, violations) => {
      const codes = await page.locator('pre code').evaluateAll((els) => els.map((el) => el.id));
      expect(codes).toEqual(['snippet-card', 'snippet-banner', 'snippet-api']);
      expect(await page.locator('button[data-copy]').evaluateAll((els) => els.map((el) => el.getAttribute('data-copy')))).toEqual(codes);

      for (const block of ['card', 'banner', 'api'] as const) {
        const button = page.getByRole('button', { name: texts.names[block], exact: true });
        expect(await button.isVisible()).toBe(true);
        expect(await button.getAttribute('type')).toBe('button');
        await button.click();
        // The name keeps saying what was copied: "Copied the card code".
        await page.getByRole('button', { name: texts.names[block].replace(texts.idle, texts.done), exact: true }).waitFor();
        expect(await page.getAttribute(`[data-copy="snippet-${block}"]`, 'data-state')).toBe('done');
        expect(await statusOf(page, `snippet-${block}`).textContent()).toBe(texts.done);
        expect(await statusOf(page, `snippet-${block}`).getAttribute('role')).toBe('status');
      }
      expect(await recorded(page)).toEqual({ copied: [expectedText(lang, 'card'), expectedText(lang, 'banner'), expectedText(lang, 'api')], commanded: [] });

      // Two seconds on, every button reads "Copy" again and the status is quiet.
      await page.clock.runFor(2000);
      expect(await page.locator('[data-copy-label]').allTextContents()).toEqual([texts.idle, texts.idle, texts.idle]);
      expect(await page.locator('[data-copy-status]').allTextContents()).toEqual(['', '', '']);
      expect(await page.locator('button[data-state]').count()).toBe(0);
      expect(violations).toEqual([]);
    });
  });
});

it('is reached with Tab and pressed with Enter or Space', async () => {
  await open('en', { clipboard: 'records', command: false }, async (page) => {
    // The last link of the API section comes right before its copy button.
    await page.locator('#api ul.links a').last().focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-copy'))).toBe('snippet-api');
    await page.keyboard.press('Space');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => (window as unknown as { recorded: Recorded }).recorded.copied.length === 2);
    expect((await recorded(page)).copied).toEqual([expectedText('en', 'api'), expectedText('en', 'api')]);
    expect(await page.locator('[data-copy="snippet-api"] [data-copy-label]').textContent()).toBe('Copied');
  });
});

it('falls back to the older copy command when the Clipboard API refuses', async () => {
  await open('es', { clipboard: 'refuses', command: true }, async (page) => {
    await page.getByRole('button', { name: BLOCKS.es.names.banner, exact: true }).click();
    await page.locator('[data-copy="snippet-banner"][data-state="done"]').waitFor();
    expect(await recorded(page)).toEqual({ copied: [], commanded: [`copy: ${expectedText('es', 'banner')}`] });
    expect(await statusOf(page, 'snippet-banner').textContent()).toBe('Copiado');
  });
});

it.each([
  ['missing', 'es'],
  ['refuses', 'en'],
] as const)('with the Clipboard API %s and no copy command, leaves the code selected and asks for Ctrl+C (%s)', async (clipboard, lang) => {
  await open(lang, { clipboard, command: false }, async (page, violations) => {
    const button = page.getByRole('button', { name: BLOCKS[lang].names.card, exact: true });
    await button.click();
    await page.locator('[data-copy="snippet-card"][data-state="manual"]').waitFor();
    const status = statusOf(page, 'snippet-card');
    expect(await status.textContent()).toBe(BLOCKS[lang].manual);
    expect(await status.isVisible()).toBe(true);
    expect(await status.evaluate((el) => el.getBoundingClientRect().width)).toBeGreaterThan(100); // shown, not only announced
    expect(await page.evaluate(() => String(window.getSelection()))).toBe(expectedText(lang, 'card'));
    expect(await page.locator('[data-copy="snippet-card"] [data-copy-label]').textContent()).toBe(BLOCKS[lang].idle);
    expect(await recorded(page)).toEqual({ copied: [], commanded: [`copy: ${expectedText(lang, 'card')}`] });
    expect(violations).toEqual([]);
  });
});

it('shows no button without JavaScript, where it could do nothing', async () => {
  await open(
    'es',
    { clipboard: 'records', command: false },
    async (page) => {
      expect(await page.locator('pre code').count()).toBe(3);
      expect(await page.locator('button[data-copy]').count()).toBe(3);
      expect(await page.locator('button[data-copy]:visible').count()).toBe(0);
    },
    { javaScriptEnabled: false },
  );
});
