/**
 * A labelled code block and its copy button, the same on every page. The button is hidden until
 * copy.js runs: without JavaScript it could do nothing. Its name says what it copies ("Copy the
 * card code"); the status line announces the result, and shows it when the reader has to press Ctrl+C.
 */
import { html, type SafeHtml } from '../html';
import { TEXTS, type Lang } from '../i18n';

export function codeBlock(lang: Lang, id: string, label: string, what: string, code: string): SafeHtml {
  const t = TEXTS[lang].site.copy;
  return html`<div class="code">
        <div class="code__head">
          <p class="example__label">${label}</p>
          <button class="copy" type="button" data-copy="${id}" data-done="${t.done}" data-manual="${t.manual}" hidden><span data-copy-label>${t.label}</span><span class="visually-hidden"> ${what}</span></button>
        </div>
        <pre class="snippet"><code id="${id}">${code}</code></pre>
        <p class="copy__status visually-hidden" role="status" data-copy-status="${id}"></p>
      </div>`;
}
