/** Text from the catalogs with `{name}` marks, filled with links or values as escaped markup. */
import { html, type Fragment, type SafeHtml } from '../html';

export function fill(text: string, values: Readonly<Record<string, Fragment>>): SafeHtml {
  const parts = text.split(/\{(\w+)\}/);
  // split with one group: even indexes are text, odd ones the names between braces.
  return html`${parts.map((part, i) => {
    if (i % 2 === 0) return part;
    if (!(part in values)) throw new Error(`No value for {${part}} in "${text.slice(0, 40)}…"`);
    return values[part] ?? '';
  })}`;
}

/** A link whose words come from the catalogs. */
export const link = (href: string, words: string): SafeHtml => html`<a href="${href}">${words}</a>`;
