/**
 * What a browser without JavaScript sees when its form post is refused (invalid field, too many
 * requests): the reason, in the form's language, and the way back. With JavaScript the landing
 * page shows the same error next to the field instead.
 */
import { html, type SafeHtml } from '../html';
import { TEXTS, type FormField, type Lang } from '../i18n';
import { layout } from './layout';

export interface FormErrorView {
  lang: Lang;
  /** The field the server refused, when it names one. */
  field: FormField | null;
  /** The server's own message, shown when no field is named (a rate limit, a body too large). */
  message: string;
  assets: { css: string };
}

export function formErrorPage(view: FormErrorView): SafeHtml {
  const t = TEXTS[view.lang].site;
  const reason = view.field ? `${t.fields[view.field].label}: ${t.fields[view.field].error}` : view.message;
  return layout({
    lang: view.lang,
    title: `${t.errorTitle} · crc-rates`,
    assets: view.assets,
    main: html`<section class="section">
  <div class="wrap">
    <h1>${t.errorTitle}</h1>
    <p class="form__error" role="alert">${reason}</p>
    <p><a class="button" href="/${view.lang}#request">${t.back}</a></p>
  </div>
</section>`,
  });
}
