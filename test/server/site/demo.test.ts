/**
 * The "demo data" badge: an instance told that it serves simulated data (`npm run demo`) says so
 * on the landing page and on both widgets, in the page's language; by default, and when told
 * `demo: false`, nothing of it is in any page. (That it shows, whole, at every banner width is
 * banner.browser.test.ts's part.)
 */
import { rate } from '../../helpers/app';
import { startSite, type SiteOnly } from './support';

const clock = () => new Date('2025-01-16T05:30:00Z');
const PAGES = ['/es', '/en', '/es/widget', '/en/widget', '/es/banner', '/en/banner'];

async function pages(site: SiteOnly): Promise<Record<string, string>> {
  const entries = await Promise.all(
    PAGES.map(async (path) => {
      const response = await fetch(`${site.url}${path}`);
      expect(response.status).toBe(200);
      return [path, await response.text()] as const;
    }),
  );
  return Object.fromEntries(entries);
}

const occurrences = (text: string, part: string) => text.split(part).length - 1;

describe.each([
  ['not told', {}],
  ['told demo: false', { demo: false }],
])('a site %s', (_, options) => {
  let site: SiteOnly;
  beforeAll(async () => {
    site = await startSite({ clock, ...options });
    await site.seed([rate('2025-01-15', 506.47, 512.82)]);
  });
  afterAll(() => site?.close());

  it('shows no badge anywhere', async () => {
    for (const [path, text] of Object.entries(await pages(site))) {
      expect({ path, badge: occurrences(text, 'data-demo') }).toEqual({ path, badge: 0 });
      expect(text).not.toMatch(/datos de demostración|demo data/);
    }
  });
});

describe('a site told demo: true', () => {
  let site: SiteOnly;
  let shown: Record<string, string>;
  beforeAll(async () => {
    site = await startSite({ clock, demo: true });
    await site.seed([rate('2025-01-15', 506.47, 512.82)]);
    shown = await pages(site);
  });
  afterAll(() => site?.close());

  it.each([
    ['/es', 'datos de demostración'],
    ['/en', 'demo data'],
  ])('says so once on the landing page %s, beside the name', (path, words) => {
    const text = shown[path] ?? '';
    expect(occurrences(text, 'data-demo')).toBe(1);
    expect(text).toContain(`<a class="brand" href="${path}">crc-rates</a>\n    <span class="demo-badge" data-demo>${words}</span>`);
  });

  it.each([
    ['/es/widget', 'datos de demostración'],
    ['/en/widget', 'demo data'],
    ['/es/banner', 'datos de demostración'],
    ['/en/banner', 'demo data'],
  ])('says so once in the title of %s, with a short form for the narrowest banners', (path, words) => {
    const text = shown[path] ?? '';
    expect(occurrences(text, 'data-demo')).toBe(1);
    expect(text).toContain(
      `<span class="widget__pair">USD/CRC</span> <span class="demo-badge" data-demo><span class="demo-badge__long">${words}</span><span class="demo-badge__short" aria-hidden="true">demo</span></span></h1>`,
    );
  });

  it('still shows the rate', () => {
    expect(shown['/es']).toContain('<dd>₡506,47</dd>');
    expect(shown['/en/banner']).toContain('<dd data-field="buy">₡506.47</dd>');
  });
});
