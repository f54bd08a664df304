/**
 * /{lang}/excel: Excel and Power BI through Power Query on the CSV routes. One ready query per
 * table, each with a copy button, the steps to paste it with the key in a parameter, and the
 * whole set as a file (/excel/crc-rates.pq).
 */
import { html, type SafeHtml } from '../html';
import type { Lang } from '../i18n';
import { KEY_PARAMETER, POWER_QUERY_TABLES, powerQuery } from '../power-query';
import { EXCEL_TEXTS } from '../texts/spreadsheets';
import { codeBlock } from './code-block';
import { fill, link } from './fill';
import { layout } from './layout';

export const POWER_QUERY_FILE = '/excel/crc-rates.pq';

export interface ExcelView {
  lang: Lang;
  /** The API's address, `https://host/api/v1`. */
  apiBase: string;
  /** Today in Costa Rica, for the examples' dates. */
  today: string;
  assets: { css: string; scripts: readonly string[] };
  demo: boolean;
}

export function excelPage(view: ExcelView): SafeHtml {
  const { lang } = view;
  const t = EXCEL_TEXTS[lang];
  const parameter = html`<code>${KEY_PARAMETER}</code>`;
  const queries: SafeHtml[] = POWER_QUERY_TABLES.map((table) =>
    codeBlock(lang, `query-${table}`, t.tables[table], `${t.copyWhat}: ${t.tables[table]}`, powerQuery([table], { apiBase: view.apiBase, today: view.today })),
  );
  const main = html`
<article class="section prose" data-page="excel">
  <div class="wrap">
    <h1>${t.heading}</h1>
    <p class="lead">${t.intro}</p>
    <section aria-labelledby="steps-heading">
      <h2 id="steps-heading">${t.stepsHeading}</h2>
      <ol class="steps">${t.steps.map((step) => html`<li>${fill(step, { parameter })}</li>`)}</ol>
      <p>${fill(t.noKey, { form: link(`/${lang}#request`, t.form) })}</p>
    </section>
    <section aria-labelledby="key-heading">
      <h2 id="key-heading">${t.keyHeading}</h2>
      <p>${fill(t.key, { parameter })}</p>
    </section>
    <section aria-labelledby="format-heading">
      <h2 id="format-heading">${t.formatHeading}</h2>
      <p>${fill(t.format, { esFile: link(`${POWER_QUERY_FILE}?locale=es`, t.esFile) })}</p>
    </section>
    <section aria-labelledby="queries-heading" data-queries>
      <h2 id="queries-heading">${t.queriesHeading}</h2>
      <p>${t.edit}</p>
      ${queries}
    </section>
    <section aria-labelledby="file-heading">
      <h2 id="file-heading">${t.fileHeading}</h2>
      <p>${fill(t.file, { file: html`<a href="${POWER_QUERY_FILE}" download>${t.fileLink}</a>` })}</p>
    </section>
  </div>
</article>`;
  return layout({
    lang,
    title: t.title,
    assets: view.assets,
    otherLangPath: `/${lang === 'es' ? 'en' : 'es'}/excel`,
    alternatePath: '/excel',
    demo: view.demo,
    main,
  });
}
