/**
 * The JSON text of an answer, `{"success":true,"data":…}`, as JSON.stringify writes it, with the
 * text of each frozen element of a long list kept and reused. The series in memory are frozen
 * records that every window hands out again (a 366-day range is 366 of them, a chart's 500 points
 * are points of the series), so an uncached window joins texts written once instead of writing
 * its JSON anew: the largest part of its cost. A frozen object cannot change, so its kept text
 * cannot go stale; the texts go with the records.
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

const isLongList = (value: unknown): value is unknown[] => Array.isArray(value) && value.length >= KEPT_FROM_ELEMENTS;

function listText(list: readonly unknown[]): string {
  // One join: it sizes the text once, where appending would build it in pieces to flatten later.
  const elements = new Array<string>(list.length);
  for (let i = 0; i < list.length; i++) elements[i] = elementText(list[i]);
  return `[${elements.join(',')}]`;
}

/** A plain object holding a long list in one of its fields, as a chart holds its series. */
const holdsLongList = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' &&
  value !== null &&
  Object.getPrototypeOf(value) === Object.prototype &&
  !('toJSON' in value) &&
  Object.values(value).some(isLongList);

/** The object's fields in JSON.stringify's order, with what it leaves out (undefined, functions, symbols) left out. */
function objectText(object: Record<string, unknown>): string {
  const fields: string[] = [];
  for (const [name, value] of Object.entries(object)) {
    const text = isLongList(value) ? listText(value) : JSON.stringify(value);
    if (text !== undefined) fields.push(`${JSON.stringify(name)}:${text}`);
  }
  return `{${fields.join(',')}}`;
}

export function answerJson(data: unknown): string {
  if (isLongList(data)) return `{"success":true,"data":${listText(data)}}`;
  if (holdsLongList(data)) return `{"success":true,"data":${objectText(data)}}`;
  return JSON.stringify({ success: true, data });
}
