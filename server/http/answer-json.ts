/**
 * The JSON text of an answer, `{"success":true,"data":…}`, as JSON.stringify writes it, with the
 * text of each frozen element of a long list kept and reused. The series in memory are frozen
 * records that every window hands out again (a 366-day range is 366 of them), so an uncached window
 * joins texts written once instead of writing 53 KB of JSON anew: the largest part of its cost.
 * A frozen object cannot change, so its kept text cannot go stale; the texts go with the records.
 */

/** Shorter lists are written by JSON.stringify at once: joining saves nothing on a few elements. */
const KEPT_FROM_ELEMENTS = 32;

const texts = new WeakMap<object, string>();

/** An element as JSON.stringify writes it inside an array (undefined and functions as null). */
function elementText(value: unknown): string {
  if (typeof value === 'object' && value !== null && Object.isFrozen(value)) {
    let text = texts.get(value);
    if (text === undefined) {
      text = JSON.stringify(value);
      texts.set(value, text);
    }
    return text;
  }
  return JSON.stringify(value) ?? 'null';
}

export function answerJson(data: unknown): string {
  if (!Array.isArray(data) || data.length < KEPT_FROM_ELEMENTS) return JSON.stringify({ success: true, data });
  // One join: it sizes the text once, where appending would build it in pieces to flatten later.
  const elements = new Array<string>(data.length);
  for (let i = 0; i < data.length; i++) elements[i] = elementText(data[i]);
  return `{"success":true,"data":[${elements.join(',')}]}`;
}
