/**
 * Parts of a longer list handed out whole: a window of a series in memory is a run of its records,
 * in order, none left out or added. Such a part remembers where it was cut from, so that what is
 * kept for the whole list (the records' JSON text, http/answer-json.ts) serves the part too. The
 * part is frozen: changed in place, it would no longer be what it says it is.
 */
export interface SliceOrigin {
  readonly source: readonly unknown[];
  readonly start: number;
  readonly end: number;
}

const origins = new WeakMap<readonly unknown[], SliceOrigin>();

/** `source.slice(start, end)`, frozen, and known to be that part of `source` (sliceOrigin). */
export function frozenSlice<T>(source: readonly T[], start: number, end: number): readonly T[] {
  const part = Object.freeze(source.slice(start, end));
  origins.set(part, { source, start: Math.min(start, source.length), end: Math.min(Math.max(start, end), source.length) });
  return part;
}

/** Where a list made by frozenSlice was cut from; undefined for any other list. */
export const sliceOrigin = (list: readonly unknown[]): SliceOrigin | undefined => origins.get(list);
