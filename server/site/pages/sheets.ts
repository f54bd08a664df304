/**
 * /{lang}/sheets: the Google Sheets add-on and the install path this server offers. The
 * Marketplace listing when the operator set ADDON_LISTING_URL, a "make a copy" spreadsheet when
 * ADDON_TEMPLATE_URL is set (whose copies never update, which the page says), and otherwise the
 * developer path, which always works.
 */
import { html, type SafeHtml } from '../html';
import type { Lang } from '../i18n';
import { SHEETS_TEXTS } from '../texts/spreadsheets';
import { fill, link } from './fill';
import { layout } from './layout';

export interface SheetsView {
  lang: Lang;
  origin: string;
  addonListingUrl: string | null;
  addonTemplateUrl: string | null;
  assets: { css: string };
  demo: boolean;
}

function install(view: SheetsView): SafeHtml {
  const t = SHEETS_TEXTS[view.lang];
  const paths: SafeHtml[] = [];
  if (view.addonListingUrl) {
    paths.push(html`<div class="install" data-install="listing">
      <p>${t.listing}</p>
      <p><a class="button" href="${view.addonListingUrl}">${t.listingButton}</a></p>
    </div>`);
  }
  if (view.addonTemplateUrl) {
    paths.push(html`<div class="install" data-install="template">
      <p>${t.template}</p>
      <p><a class="button" href="${view.addonTemplateUrl}">${t.templateButton}</a></p>
      <p class="note">${t.templateNote}</p>
    </div>`);
  }
  if (paths.length === 0) {
    // The add-on can be pointed at this server only when Google's servers can reach it over https.
    const https = view.origin.startsWith('https://');
    const push = html`<code>${https ? `npm run addon:push -- --base-url ${view.origin}` : 'npm run addon:push'}</code>`;
    paths.push(html`<div class="install" data-install="developer">
      <p>${t.developer}</p>
      <ol class="steps">${t.developerSteps.map((step) => html`<li>${fill(step, { push })}</li>`)}</ol>
      ${https ? '' : html`<p class="note">${t.notHttps}</p>`}
    </div>`);
  }
  return html`${paths}`;
}

export function sheetsPage(view: SheetsView): SafeHtml {
  const { lang } = view;
  const t = SHEETS_TEXTS[lang];
  const main = html`
<article class="section prose" data-page="sheets">
  <div class="wrap">
    <h1>${t.heading}</h1>
    <p class="lead">${t.intro}</p>
    <section aria-labelledby="install-heading">
      <h2 id="install-heading">${t.installHeading}</h2>
      ${install(view)}
    </section>
    <section aria-labelledby="key-heading">
      <h2 id="key-heading">${t.settingsHeading}</h2>
      <p>${fill(t.settings, { form: link(`/${lang}#request`, t.form) })}</p>
      <p>${fill(t.privacy, { privacy: link(`/${lang}/privacy`, t.privacyLink) })}</p>
    </section>
    <section aria-labelledby="functions-heading">
      <h2 id="functions-heading">${t.functionsHeading}</h2>
      <dl class="functions">
        ${t.functions.map(([formula, what]) => html`<div><dt><code>${formula}</code></dt><dd>${what}</dd></div>`)}
      </dl>
    </section>
  </div>
</article>`;
  return layout({
    lang,
    title: t.title,
    assets: view.assets,
    otherLangPath: `/${lang === 'es' ? 'en' : 'es'}/sheets`,
    alternatePath: '/sheets',
    demo: view.demo,
    main,
  });
}
