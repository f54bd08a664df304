/**
 * Range shapes. Sheets passes a multi-cell range as rows of cells (a 2-D array) and a single
 * cell as the bare value; a custom function answers a range with an array of the same shape,
 * which Sheets spills over the same number of rows and columns.
 */

export interface Cells {
  rows: unknown[][];
  /** The argument was one value, and the answer must be one value too. */
  scalar: boolean;
}

export function toCells(value: unknown): Cells {
  if (!Array.isArray(value)) return { rows: [[value]], scalar: true };
  if (value.length === 0) return { rows: [], scalar: false };
  // A 1-D array never comes from Sheets, but treat it as one row rather than fail on it.
  if (!value.every((row) => Array.isArray(row))) return { rows: [value as unknown[]], scalar: false };
  return { rows: value as unknown[][], scalar: false };
}

export function mapCells<T>(rows: unknown[][], fn: (value: unknown, row: number, column: number) => T): T[][] {
  return rows.map((row, r) => row.map((value, c) => fn(value, r, c)));
}

/**
 * The answer in the argument's shape: one value for one value, rows for rows. (Rows mapped from
 * a single value's cells always hold that one value; without it, the rows are all there is.)
 */
export function answer<T>(cells: Cells, rows: T[][]): T | T[][] {
  const only = cells.scalar ? rows[0]?.[0] : undefined;
  return only === undefined ? rows : only;
}

/** Every distinct value `key` gives for the cells (in first-seen order), skipping nulls. */
export function distinct<T>(rows: unknown[][], key: (value: unknown) => T | null): T[] {
  const seen = new Set<T>();
  for (const row of rows)
    for (const value of row) {
      const k = key(value);
      if (k !== null) seen.add(k);
    }
  return [...seen];
}
