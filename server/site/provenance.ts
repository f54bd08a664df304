/**
 * The provenance page as the API's `format=html` answer: the route list serves it (same key,
 * limits, quota, cache and ETag as the JSON), and this module gives it the site's look and the
 * content policy a page needs (the site's own stylesheets, no inline script or style).
 */
import type { Provenance } from '../../shared/types';
import { type Assets, loadAssets } from './assets';
import type { Lang } from './i18n';
import { provenancePage } from './pages/provenance';
import { pagePolicy } from './respond';

/** A page of ours, only on its own: the API's default policy (`default-src 'none'`) would refuse its stylesheets. */
export const PROVENANCE_PAGE_HEADERS: Readonly<Record<string, string>> = { 'Content-Security-Policy': pagePolicy('nowhere') };

// Read on the first page rendered rather than when the routes are built: building the route list
// (the SDK's generator does it too) then reads no files, and most instances never render one.
let assets: Assets | null = null;

export function provenanceHtml(provenance: Provenance, lang: Lang): string {
  assets ??= loadAssets();
  return provenancePage({ lang, provenance, assets: { css: assets.url('site.css'), pageCss: assets.url('provenance.css') } }).value;
}
