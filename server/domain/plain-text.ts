/**
 * Text that came from outside (an institution's name from the central bank's site, a form's
 * fields) is data. Control characters in it (C0, DEL, C1), the line and paragraph separators, and
 * the invisible marks that reorder what follows them (bidirectional overrides and isolates) can clear an operator's terminal,
 * forge a row of a table, or show a reader something other than what is stored. Stored text is
 * kept without them (`plainText`); text that may still hold them is printed with them made
 * visible (`visibleControls`).
 */
const CONTROLS = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;

/** `text` without control characters: each run becomes one space, and spaces are not doubled or left at the ends. */
export function plainText(text: string): string {
  return text.replace(CONTROLS, ' ').replace(/ {2,}/g, ' ').trim();
}

/** Whether `text` holds a character `plainText` would take out. */
export const hasControls = (text: string): boolean => new RegExp(CONTROLS.source, 'u').test(text);

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\u001b': '\\e' };

/** `text` with every control character written as a visible escape (`\e`, `\n`, `\x07`, `\u202e`), for a terminal. */
export function visibleControls(text: string): string {
  return text.replace(CONTROLS, (c) => {
    const code = c.codePointAt(0) ?? 0;
    return NAMED[c] ?? (code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`);
  });
}
