/**
 * "Freeze selected values": the selected formulas become the values they show, so that a closed
 * month never recalculates. Pure: what to paste and what to put back, on grids read from the sheet.
 *
 * A custom function that answers a table writes it from its own cell (the anchor) over the cells
 * below and to the right (the spill); only the anchor holds a formula. Pasting values over the
 * anchor alone turns it into one value and the spill vanishes, and pasting values over spill cells
 * whose anchor is outside the selection would break that anchor (#REF!). So only the selected
 * formula cells are pasted as values, and the cells that lost their value by it (had a value and
 * no formula before, are empty after) are written back with the value they showed.
 */

/** A block of cells within a grid, 0-based. */
export interface Rect {
  row: number;
  column: number;
  rows: number;
  columns: number;
}

/** Rectangles that cover exactly the marked cells: a run per row, merged with the same run on the rows below. */
export function coverRects(marked: readonly (readonly boolean[])[]): Rect[] {
  const rects: Rect[] = [];
  let open = new Map<string, Rect>();
  marked.forEach((row, r) => {
    const next = new Map<string, Rect>();
    let c = 0;
    while (c < row.length) {
      if (!row[c]) {
        c++;
        continue;
      }
      const start = c;
      while (c < row.length && row[c]) c++;
      const id = `${start}:${c - start}`;
      const above = open.get(id);
      if (above && above.row + above.rows === r) {
        above.rows++;
        next.set(id, above);
      } else {
        const rect = { row: r, column: start, rows: 1, columns: c - start };
        rects.push(rect);
        next.set(id, rect);
      }
    }
    open = next;
  });
  return rects;
}

/** The cells of `grid` inside `selection` that hold a formula. */
export function selectedFormulas(formulas: readonly (readonly string[])[], selection: Rect): boolean[][] {
  return formulas.map((row, r) =>
    row.map(
      (formula, c) =>
        formula !== '' && r >= selection.row && r < selection.row + selection.rows && c >= selection.column && c < selection.column + selection.columns,
    ),
  );
}

const isEmpty = (value: unknown) => value === '' || value === null || value === undefined;

/** Cells a freeze emptied: a value and no formula before (the spill of a frozen formula), nothing after. */
export function lostCells(
  before: readonly (readonly unknown[])[],
  after: readonly (readonly unknown[])[],
  formulas: readonly (readonly string[])[],
): boolean[][] {
  return before.map((row, r) => row.map((value, c) => !isEmpty(value) && formulas[r]?.[c] === '' && isEmpty(after[r]?.[c])));
}

/**
 * A value as `setValues` must be given it to store exactly that value. Text is read like typed
 * input ("0123" would become 123, "#N/A" an error, "=x" a formula), unless it starts with an
 * apostrophe, which Sheets takes as "this is text" and does not keep.
 */
export function literal(value: unknown): unknown {
  return typeof value === 'string' && value !== '' ? `'${value}` : value;
}

/** The block `rect` of `grid`. */
export function slice<T>(grid: readonly (readonly T[])[], rect: Rect): T[][] {
  return grid.slice(rect.row, rect.row + rect.rows).map((row) => row.slice(rect.column, rect.column + rect.columns));
}
