/**
 * The JSON text of an answer, `{"success":true,"data":…}`, as JSON.stringify writes it, with the
 * text of each frozen element of a long list kept and reused. The series in memory are frozen
 * records that every window hands out again (a 366-day range is 366 of them, a chart's 500 points
 * are points of the series), so an uncached window joins texts written once instead of writing
 * its JSON anew: the largest part of its cost. A frozen object cannot change, so its kept text
 * cannot go stale; the texts go with the records.
 */

import { type SliceOrigin, sliceOrigin } from '../domain/slices';

/** Shorter lists are written by JSON.stringify at once: joining saves nothing on a few elements. */
const KEPT_FROM_ELEMENTS = 32;

/**
 * A window of a series (domain/slices.ts) is written from texts kept for runs of this many of the
 * series' records: a 366-day range is then a few slices of those texts, not 366 lookups of texts
 * scattered over the heap and a join of them (about a quarter of an uncached range's CPU).
 */
export const BLOCK_ELEMENTS = 256;

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

/** A run of a list's elements, written once: their texts, comma-separated, and where each one ends. */
interface Block {
  text: string;
  ends: Uint32Array;
}

/** The blocks written so far of each list windows were cut from; null: a block holds an element that is not frozen. */
const blocksOf = new WeakMap<readonly unknown[], Array<Block | null | undefined>>();

function blockOf(source: readonly unknown[], index: number): Block | null {
  let blocks = blocksOf.get(source);
  if (!blocks) {
    blocks = [];
    blocksOf.set(source, blocks);
  }
  let block = blocks[index];
  if (block === undefined) {
    const elements = source.slice(index * BLOCK_ELEMENTS, (index + 1) * BLOCK_ELEMENTS);
    // Only what cannot change may be written once: a list of frozen elements.
    if (elements.every((element) => typeof element === 'object' && element !== null && Object.isFrozen(element))) {
      const texts = elements.map((element) => JSON.stringify(element));
      const ends = new Uint32Array(texts.length);
      let end = -1;
      texts.forEach((text, i) => {
        end += text.length + 1;
        ends[i] = end;
      });
      block = { text: texts.join(','), ends };
    } else block = null;
    blocks[index] = block;
  }
  return block;
}

/** The texts of source[start, end), comma-separated, from its blocks; undefined if one is not kept. */
function windowText({ source, start, end }: SliceOrigin): string | undefined {
  // A list that may still change keeps no texts.
  if (!Object.isFrozen(source)) return undefined;
  const pieces: string[] = [];
  for (let at = start; at < end; ) {
    const index = Math.floor(at / BLOCK_ELEMENTS);
    const block = blockOf(source, index);
    if (!block) return undefined;
    const first = at - index * BLOCK_ELEMENTS;
    const last = Math.min(end - index * BLOCK_ELEMENTS, BLOCK_ELEMENTS) - 1;
    pieces.push(block.text.slice(first === 0 ? 0 : (block.ends[first - 1] as number) + 1, block.ends[last]));
    at = index * BLOCK_ELEMENTS + last + 1;
  }
  return pieces.join(',');
}

const isLongList = (value: unknown): value is unknown[] => Array.isArray(value) && value.length >= KEPT_FROM_ELEMENTS;

function listText(list: readonly unknown[]): string {
  const origin = sliceOrigin(list);
  const window = origin && windowText(origin);
  if (window !== undefined) return `[${window}]`;
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
