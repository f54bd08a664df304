/** The frame of the site's own pages (not the widgets): head, header with language switch, footer. */
import { html, type Fragment, SafeHtml } from '../html';
import { FAVICON_SVG_PATH } from '../favicon';
import { LANGS, TEXTS, type Lang } from '../i18n';
import { PAGE_LINKS } from '../texts/spreadsheets';

/**
 * A page's styles: the site's stylesheet files (and a page's own after it, whose print rules then
 * win), or their text inline, for a page that is saved and filed and must keep its look offline.
 * Inline text is the site's own stylesheets, never anything from a request; it may not hold `</`,
 * which could end the `<style>` element.
 */
export type PageStyles = { css: string; pageCss?: string } | { inlineCss: string };

function styles(assets: PageStyles): SafeHtml {
  if ('inlineCss' in assets) {
    if (assets.inlineCss.includes('</')) throw new Error('An inline stylesheet may not hold "</"');
    return html`<style>${new SafeHtml(assets.inlineCss)}</style>`;
  }
  return html`<link rel="stylesheet" href="${assets.css}">
${assets.pageCss ? html`<link rel="stylesheet" href="${assets.pageCss}">` : ''}`;
}

export interface LayoutView {
  lang: Lang;
  title: string;
  description?: string;
  assets: PageStyles & { scripts?: readonly string[] };
  /** The path of this page in the other language, when there is one. */
  otherLangPath?: string;
  /** The page's path after its language (`/privacy`), for the alternates in each language; none: the landing page's. */
  alternatePath?: string;
  /** Show the section links (the landing page only). */
  nav?: boolean;
  /** The instance serves simulated data (`npm run demo`): a badge beside the name says so. */
  demo?: boolean;
  /** Links to the other pages in the footer (true); a page saved as a document has none. */
  footerLinks?: boolean;
  main: Fragment;
}

/** The pages for spreadsheet users and the legal ones, linked from every page's footer. */
export const FOOTER_PAGES = ['sheets', 'excel', 'privacy', 'terms'] as const;

export function layout(view: LayoutView): SafeHtml {
  const t = TEXTS[view.lang].site;
  const other = LANGS.find((l) => l !== view.lang) ?? view.lang;
  return html`<!doctype html>
<html lang="${view.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${view.title}</title>
${view.description ? html`<meta name="description" content="${view.description}">` : ''}
${LANGS.map((l) => html`<link rel="alternate" hreflang="${l}" href="/${l}${view.alternatePath ?? ''}">`)}
<link rel="icon" href="${FAVICON_SVG_PATH}" type="image/svg+xml">
${styles(view.assets)}
${(view.assets.scripts ?? []).map((src) => html`<script defer src="${src}"></script>`)}
</head>
<body>
<a class="skip" href="#content">${t.skip}</a>
<header class="top">
  <div class="wrap top__inner">
    <a class="brand" href="/${view.lang}">crc-rates</a>
    ${view.demo ? html`<span class="demo-badge" data-demo>${t.demo}</span>` : ''}
    ${
      view.nav
        ? html`<nav aria-label="crc-rates">
      <ul class="nav">
        <li><a href="#rate">${t.nav.rate}</a></li>
        <li><a href="#widgets">${t.nav.widgets}</a></li>
        <li><a href="#pricing">${t.nav.pricing}</a></li>
        <li><a href="#api">${t.nav.api}</a></li>
        <li><a href="#request">${t.nav.request}</a></li>
      </ul>
    </nav>`
        : ''
    }
    ${view.otherLangPath ? html`<a class="lang" href="${view.otherLangPath}" hreflang="${other}" lang="${other}">${t.otherLang}</a>` : ''}
  </div>
</header>
<main id="content" tabindex="-1">
${view.main}
</main>
<footer class="bottom">
  <div class="wrap">
    <p>${t.footer}</p>
    ${
      view.footerLinks === false
        ? ''
        : html`<ul class="footer-links">
      ${FOOTER_PAGES.map((page) => html`<li><a href="/${view.lang}/${page}">${PAGE_LINKS[view.lang][page]}</a></li>`)}
    </ul>`
    }
  </div>
</footer>
</body>
</html>
`;
}
