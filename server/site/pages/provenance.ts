/**
 * The provenance of one day's rate as a printable page, in Spanish or English: the record, where
 * each side was read, when it was first seen and last confirmed, its revisions and its digest
 * with the text it is the SHA-256 of. The same facts as the JSON answer, for an audit file.
 */
import type { Provenance } from '../../../shared/types';
import { digestText, plainDecimal } from '../../domain/provenance';
import * as format from '../assets/format';
import { html, type SafeHtml } from '../html';
import { TEXTS, type Lang } from '../i18n';
import { layout } from './layout';

export interface ProvenanceView {
  lang: Lang;
  provenance: Provenance;
  /** The site's stylesheet and the page's own, as one text inlined in the page: a saved page keeps its look. */
  assets: { inlineCss: string };
}

/** Costa Rica keeps UTC−6 all year (no daylight saving time). */
const COSTA_RICA_OFFSET_MS = -6 * 3_600_000;

/**
 * A rate exactly as stored (every decimal it has, at least two), written the language's way:
 * `₡468,29` / `₡468.29`. An audit page must not round what it attests.
 */
export function exactMoney(value: number, lang: Lang): string {
  const [whole = '0', fraction = ''] = plainDecimal(Math.abs(value)).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, lang === 'es' ? '\u00a0' : ',');
  return `${value < 0 ? '-' : ''}\u20a1${grouped}${lang === 'es' ? ',' : '.'}${fraction}`;
}

/** An instant as Costa Rica's calendar day and time of day: "24 de marzo de 2026, 12:05:12". */
export function costaRicaTime(iso: string, lang: Lang): string {
  const local = new Date(Date.parse(iso) + COSTA_RICA_OFFSET_MS).toISOString();
  return `${format.date(local.slice(0, 10), lang)}, ${local.slice(11, 19)}`;
}

const when = (iso: string, lang: Lang) => html`<time datetime="${iso}">${costaRicaTime(iso, lang)}</time>`;

function fact(name: string, label: string, value: SafeHtml | string, strong = false): SafeHtml {
  return html`<div data-fact="${name}"><dt>${label}</dt><dd${strong ? html` class="facts__value"` : ''}>${value}</dd></div>`;
}

function revisionsTable(view: ProvenanceView): SafeHtml {
  const { lang, provenance } = view;
  const t = TEXTS[lang].provenance;
  if (provenance.revisions.length === 0) return html`<p data-revisions="none">${t.noRevisions}</p>`;
  // Each cell carries its column's name: a narrow screen shows the rows as labelled blocks.
  const rows = provenance.revisions.map(
    (r) => html`<tr data-revision>
        <td class="num" data-label="${t.buy}">${exactMoney(r.buy, lang)}</td>
        <td class="num" data-label="${t.sell}">${exactMoney(r.sell, lang)}</td>
        <td data-label="${t.source}">${r.source}</td>
        <td data-label="${t.observedAt}">${when(r.observedAt, lang)}</td>
        <td data-label="${t.replacedAt}">${when(r.replacedAt, lang)}</td>
      </tr>`,
  );
  return html`<table class="revisions">
      <caption>${t.revisionsCaption}</caption>
      <thead><tr><th scope="col" class="num">${t.buy}</th><th scope="col" class="num">${t.sell}</th><th scope="col">${t.source}</th><th scope="col">${t.observedAt}</th><th scope="col">${t.replacedAt}</th></tr></thead>
      <tbody>${rows}</tbody>
    </table>`;
}

export function provenancePage(view: ProvenanceView): SafeHtml {
  const { lang, provenance: p } = view;
  const t = TEXTS[lang].provenance;
  const { record } = p;
  const day = format.date(record.date, lang);
  const text = digestText(record);
  const main = html`<article class="wrap audit">
  <h1>${t.heading} <time datetime="${record.date}">${day}</time></h1>
  <p class="audit__lead">${t.intro}</p>

  <section aria-labelledby="record-heading">
    <h2 id="record-heading">${t.record}</h2>
    <dl class="facts">
      ${fact('date', t.date, html`<time datetime="${record.date}">${day}</time> (${record.date})`)}
      ${fact('pair', t.pair, `${record.currencyFrom}/${record.currencyTo}`)}
      ${fact('buy', t.buy, record.buy === null ? '—' : exactMoney(record.buy, lang), true)}
      ${fact('sell', t.sell, exactMoney(record.sell, lang), true)}
      ${fact('source', t.source, record.source)}
      ${fact('fetchedAt', t.fetchedAt, when(record.fetchedAt, lang))}
    </dl>
  </section>

  <section aria-labelledby="origin-heading">
    <h2 id="origin-heading">${t.origin}</h2>
    <dl class="facts">
      ${fact('upstreamBuy', t.upstreamBuy, p.upstream.buy)}
      ${fact('upstreamSell', t.upstreamSell, p.upstream.sell)}
      ${fact('firstSeenAt', t.firstSeenAt, when(p.firstSeenAt, lang))}
      ${fact('lastConfirmedAt', t.lastConfirmedAt, when(p.lastConfirmedAt, lang))}
      ${fact('observations', t.observations, String(p.observations))}
    </dl>
  </section>

  <section aria-labelledby="revisions-heading">
    <h2 id="revisions-heading">${t.revisions}</h2>
    ${revisionsTable(view)}
  </section>

  <section aria-labelledby="digest-heading">
    <h2 id="digest-heading">${t.digest}</h2>
    <dl class="facts">
      ${fact('digest', t.digest, html`<span class="digest digest--main">${p.digest}</span>`)}
      ${fact('digestText', t.digestText, html`<span class="digest">${text}</span>`)}
    </dl>
    <p>${t.digestHow}</p>
    <pre class="snippet"><code>printf '%s' '${text}' | sha256sum</code></pre>
  </section>

  <p class="audit__note">${t.times}</p>
</article>`;
  return layout({
    lang,
    title: `${t.heading} ${day} · crc-rates`,
    description: t.intro,
    assets: view.assets,
    // Saved and filed with the books: links to the site's other pages would be dead there.
    footerLinks: false,
    main,
  });
}
