/**
 * The provenance page as the API's `format=html` answer: the route list serves it (same key,
 * limits, quota, cache and ETag as the JSON), and this module gives it the site's look and the
 * content policy a page needs. The page is meant to be saved, printed and filed with the books:
 * its stylesheets (the site's, then its own print rules) are inlined, so a saved copy keeps its
 * look offline, and the policy allows exactly that text by its SHA-256 (no 'unsafe-inline', no
 * script, no stylesheet from anywhere).
 */
import { createHash } from 'node:crypto';
import type { Provenance } from '../../shared/types';
import type { ProvenancePage } from '../http/routes/provenance';
import { loadAssets } from './assets';
import type { Lang } from './i18n';
import { provenancePage } from './pages/provenance';
import { pagePolicy } from './respond';

interface PageStyle {
  readonly css: string;
  readonly headers: Readonly<Record<string, string>>;
}

// Read on the first page rendered rather than when the routes are built: building the route list
// (the SDK's generator does it too) then reads no files, and most instances never render one.
let style: PageStyle | null = null;

function pageStyle(): PageStyle {
  if (!style) {
    const assets = loadAssets();
    const css = `${assets.text('site.css')}\n${assets.text('provenance.css')}`;
    const hash = createHash('sha256').update(css).digest('base64');
    // A page of ours, only on its own: the API's default policy (`default-src 'none'`) would refuse its styles.
    style = { css, headers: { 'Content-Security-Policy': `${pagePolicy('nowhere')}; style-src 'sha256-${hash}'` } };
  }
  return style;
}

/** The page the provenance route answers `format=html` with; its headers carry the inline stylesheet's hash. */
export const provenanceHtmlPage: ProvenancePage = {
  headers: () => pageStyle().headers,
  render: (provenance: Provenance, lang: Lang) => provenancePage({ lang, provenance, assets: { inlineCss: pageStyle().css } }).value,
};
