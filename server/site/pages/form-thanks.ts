/**
 * What a browser without JavaScript sees once its form post is stored: the thanks, in the form's
 * language and the site's look, and the way back. With JavaScript the landing page says the same
 * beside the form instead.
 */
import { html, type SafeHtml } from '../html';
import { TEXTS, type Lang } from '../i18n';
import { layout } from './layout';

export function formThanksPage(view: { lang: Lang; name: string; assets: { css: string } }): SafeHtml {
  const t = TEXTS[view.lang].site;
  return layout({
    lang: view.lang,
    title: `${t.thanksTitle} · crc-rates`,
    assets: view.assets,
    main: html`<section class="section">
  <div class="wrap">
    <h1>${t.thanksTo}, ${view.name}</h1>
    <p role="status">${t.thanks}</p>
    <p><a class="button" href="/${view.lang}">${t.home}</a></p>
  </div>
</section>`,
  });
}
