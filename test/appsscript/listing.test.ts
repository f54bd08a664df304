/**
 * The add-on as the Marketplace sees it: the OAuth scopes of the manifest, the listing, the
 * README and the privacy notice are one list; the images are PNGs at the sizes Google asks for;
 * the listing's addresses are the service's pages, built from PUBLIC_URL.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { ADDON_SCOPES } from '../../shared/addon-scopes';
import { rate, startTestApp } from '../helpers/app';

const ROOT = path.resolve(__dirname, '../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
const listing = JSON.parse(read('appsscript/listing/listing.json')) as {
  oauthScopes: string[];
  graphics: Record<string, string>;
  urls: Record<string, string>;
  es: { shortDescription: string; detailedDescription: string };
  en: { shortDescription: string; detailedDescription: string };
};

describe('OAuth scopes', () => {
  const manifest = (JSON.parse(read('appsscript/appsscript.json')) as { oauthScopes: string[] }).oauthScopes;

  it('are the same in the manifest, the listing, the README and the privacy notice', () => {
    const section = /## OAuth scopes\n([\s\S]*?)\n## /.exec(read('appsscript/README.md'))?.[1] ?? '';
    const documented = [...section.matchAll(/^\| `(https:\/\/www\.googleapis\.com\/auth\/[\w.]+)`/gm)].map((m) => m[1]);
    const sorted = (list: readonly (string | undefined)[]) => [...list].sort();
    expect(manifest.length).toBeGreaterThan(0);
    expect(sorted(listing.oauthScopes)).toEqual(sorted(manifest));
    expect(sorted(documented)).toEqual(sorted(manifest));
    expect(sorted(ADDON_SCOPES.map((s) => s.scope))).toEqual(sorted(manifest));
  });

  it('are each named in both languages of the listing text', () => {
    for (const scope of manifest) {
      const short = scope.replace('https://www.googleapis.com/auth/', '');
      expect(listing.es.detailedDescription).toContain(short);
      expect(listing.en.detailedDescription).toContain(short);
    }
  });
});

describe('the listing', () => {
  it('has images at the sizes Google asks for', () => {
    const sizes = Object.values(listing.graphics).map((file) => {
      const png = readFileSync(path.join(ROOT, 'appsscript/listing', file));
      expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
      // IHDR: width and height, big-endian, at bytes 16 and 20.
      return `${file} ${png.readUInt32BE(16)}x${png.readUInt32BE(20)}`;
    });
    expect(sizes).toEqual(['icon-32.png 32x32', 'icon-128.png 128x128', 'banner-220x140.png 220x140']);
  });

  it('keeps the short descriptions within the Marketplace limit (200 characters)', () => {
    expect(listing.es.shortDescription.length).toBeLessThanOrEqual(200);
    expect(listing.en.shortDescription.length).toBeLessThanOrEqual(200);
  });

  it('points at pages the server serves, built from PUBLIC_URL', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [path.join(ROOT, 'appsscript/listing.mjs')], {
      cwd: ROOT,
      env: { ...process.env, PUBLIC_URL: 'https://rates.example.com/' },
    });
    const urls = [...stdout.matchAll(/ URL: (\S+)/g)].map((m) => m[1] ?? '');
    expect(urls).toContain('https://rates.example.com/en/privacy');
    expect(urls).toContain('https://rates.example.com/es/terms');
    expect(urls).toHaveLength(8);
    const t = await startTestApp();
    try {
      await t.seed([rate('2025-01-15', 506.47, 512.82)]);
      for (const url of urls) {
        const response = await fetch(`${t.url}${new URL(url).pathname}`);
        expect({ url, status: response.status }).toEqual({ url, status: 200 });
      }
    } finally {
      await t.close();
    }
  });

  it('refuses an address that is not https', async () => {
    const run = promisify(execFile)(process.execPath, [path.join(ROOT, 'appsscript/listing.mjs'), '--public-url', 'http://rates.example.com'], { cwd: ROOT });
    await expect(run).rejects.toThrow(/PUBLIC_URL must be an https:\/\/ address/);
  });
});
