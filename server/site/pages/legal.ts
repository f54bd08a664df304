/**
 * The privacy notice and the terms of use (/{lang}/privacy, /{lang}/terms): the catalogs' text,
 * with the operator's contact (CONTACT_EMAIL, else the request-access form), this site's address
 * and, in the privacy notice, the add-on's OAuth scopes with what each is for.
 */
import { ADDON_SCOPES } from '../../../shared/addon-scopes';
import * as format from '../assets/format';
import { html, type SafeHtml } from '../html';
import type { Lang } from '../i18n';
import { BCCR_TERMS_URL, LEGAL_LINKS, LEGAL_UPDATED, PRIVACY, TERMS, type LegalText } from '../texts/legal';
import { fill, link } from './fill';
import { layout } from './layout';

export type LegalPage = 'privacy' | 'terms';

export interface LegalView {
  lang: Lang;
  page: LegalPage;
  origin: string;
  contactEmail: string | null;
  assets: { css: string };
  demo: boolean;
}

/** The operator's address as a mailto: link, or the request-access form when there is none. */
export function contact(lang: Lang, contactEmail: string | null): SafeHtml {
  return contactEmail ? link(`mailto:${contactEmail}`, contactEmail) : link(`/${lang}#request`, LEGAL_LINKS[lang].form);
}

function scopes(lang: Lang): SafeHtml {
  return html`<dl class="scopes" data-scopes>
      ${ADDON_SCOPES.map((s) => html`<div><dt><code>${s.scope}</code></dt><dd>${s[lang]}</dd></div>`)}
    </dl>`;
}

export function legalPage(view: LegalView): SafeHtml {
  const { lang, page } = view;
  const text: LegalText = (page === 'privacy' ? PRIVACY : TERMS)[lang];
  const values = {
    site: link(`/${lang}`, view.origin),
    contact: contact(lang, view.contactEmail),
    bccrTerms: link(BCCR_TERMS_URL, LEGAL_LINKS[lang].bccrTerms),
    privacy: link(`/${lang}/privacy`, LEGAL_LINKS[lang].privacy),
  };
  const main = html`
<article class="section prose" data-page="${page}">
  <div class="wrap">
    <h1>${text.heading}</h1>
    <p class="muted">${text.updated} <time datetime="${LEGAL_UPDATED}">${format.date(LEGAL_UPDATED, lang)}</time></p>
    <p class="lead">${fill(text.intro, values)}</p>
    ${text.sections.map(
      (section) => html`<section>
      <h2>${section.heading}</h2>
      ${section.paragraphs.map((p) => html`<p>${fill(p, values)}</p>`)}
      ${section.items ? html`<ul>${section.items.map((item) => html`<li>${fill(item, values)}</li>`)}</ul>` : ''}
      ${section.scopes ? scopes(lang) : ''}
    </section>`,
    )}
  </div>
</article>`;
  return layout({
    lang,
    title: text.title,
    assets: view.assets,
    otherLangPath: `/${lang === 'es' ? 'en' : 'es'}/${page}`,
    alternatePath: `/${page}`,
    demo: view.demo,
    main,
  });
}
