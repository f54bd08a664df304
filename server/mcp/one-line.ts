/**
 * A summary as one line of plain text. Its figures are ours, but names (of institutions above all)
 * come from the central bank's site as it wrote them: a line break, an escape sequence (which a
 * terminal obeys) or a bidirectional override (which reorders what a reader sees) must not reach
 * whoever shows the line. Markup such as `<b>` stays as the characters it is: the line is text, and
 * escaping it for HTML is the job of whoever puts it in a page.
 */

/** What separates words or lines (tab, line feed, NEL, the line and paragraph separators): a space. */
const BREAKS = /[\t\n\v\f\r\u0085\u2028\u2029]/g;
/** Every other control (Cc: C0, DEL, C1) and the bidirectional embeddings, overrides and isolates: nothing. */
const INVISIBLE = /[\p{Cc}\u202a-\u202e\u2066-\u2069]/gu;

export function oneLine(text: string): string {
  return text.replace(BREAKS, ' ').replace(INVISIBLE, '').replace(/ {2,}/g, ' ').trim();
}
