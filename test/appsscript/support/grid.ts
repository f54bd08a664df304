/**
 * One sheet of a spreadsheet, as far as "Freeze selected values" touches it: plain cells, formula
 * cells whose result spills over the cells below and to the right (the way Sheets shows a custom
 * function's table: only the first cell holds the formula, and a spill that would cover data shows
 * #REF! instead), ranges with getValues, getFormulas, setValues, copyTo (values only), offset and
 * getDataRegion, the selection and toasts. Rows and columns are 1-based, as in Apps Script.
 */

/** How Sheets holds a plain value: text stays text, and a typed "#N/A" is an error, not text. */
export type Stored =
  | { kind: 'text'; value: string }
  | { kind: 'number'; value: number }
  | { kind: 'date'; value: Date }
  | { kind: 'bool'; value: boolean }
  | { kind: 'error'; value: string };

interface Formula {
  formula: string;
  /** What the formula returns: a value, or rows of values spilled from its cell. */
  result: unknown;
}

const key = (row: number, column: number) => `${row},${column}`;
const isDateValue = (v: unknown): v is Date => Object.prototype.toString.call(v) === '[object Date]';

/** A value the script hands over, stored as Sheets stores it. `typed`: as setValues reads text (like typed input). */
function store(value: unknown, typed: boolean): Stored | null {
  if (value === '' || value === null || value === undefined) return null;
  if (typeof value === 'number') return { kind: 'number', value };
  if (typeof value === 'boolean') return { kind: 'bool', value };
  if (isDateValue(value)) return { kind: 'date', value: new Date(value.getTime()) };
  const text = String(value);
  if (!typed) return { kind: 'text', value: text };
  if (text.startsWith("'")) return { kind: 'text', value: text.slice(1) };
  if (text.startsWith('=')) throw new Error('setValues with a formula is not what the add-on does');
  if (/^#(?:N\/A|REF!|ERROR!|VALUE!|DIV\/0!)$/.test(text)) return { kind: 'error', value: text };
  if (/^[+-]?(?:\d+\.?\d*|\.\d+)$/.test(text.trim())) return { kind: 'number', value: Number(text) };
  return { kind: 'text', value: text };
}

export function columnLetters(column: number): string {
  let n = column;
  let out = '';
  while (n > 0) {
    const r = (n - 1) % 26;
    out = String.fromCharCode(65 + r) + out;
    n = Math.floor((n - 1) / 26);
  }
  return out;
}

export class FakeGrid {
  private plain = new Map<string, Stored>();
  private formulas = new Map<string, Formula>();
  /** The selection, as [row, column, rows, columns] blocks (a range list). */
  selection: Array<[number, number, number, number]> = [];
  toasts: Array<{ message: string; title: string; seconds: number }> = [];
  ops = { copyTo: 0, setValues: 0, getValues: 0 };

  setValue(row: number, column: number, value: unknown): void {
    this.formulas.delete(key(row, column));
    const stored = store(value, false);
    if (stored) this.plain.set(key(row, column), stored);
    else this.plain.delete(key(row, column));
  }

  setFormula(row: number, column: number, formula: string, result: unknown): void {
    this.plain.delete(key(row, column));
    this.formulas.set(key(row, column), { formula, result });
  }

  /** What each cell shows: plain values, then each formula's result spilled where nothing is in the way. */
  private shown(): Map<string, { stored: Stored | null; shown: unknown }> {
    const out = new Map<string, { stored: Stored | null; shown: unknown }>();
    for (const [k, stored] of this.plain) out.set(k, { stored, shown: stored.value });
    for (const [k, { result }] of this.formulas) {
      const [row, column] = k.split(',').map(Number) as [number, number];
      const rows = Array.isArray(result) ? (result as unknown[][]) : [[result]];
      const blocked = rows.some((cells, r) =>
        cells.some((_, c) => (r > 0 || c > 0) && (this.plain.has(key(row + r, column + c)) || this.formulas.has(key(row + r, column + c)))),
      );
      if (blocked) {
        out.set(k, { stored: null, shown: '#REF!' });
        continue;
      }
      rows.forEach((cells, r) => {
        cells.forEach((v, c) => {
          out.set(key(row + r, column + c), { stored: null, shown: v ?? '' });
        });
      });
    }
    return out;
  }

  value(row: number, column: number): unknown {
    return this.shown().get(key(row, column))?.shown ?? '';
  }

  /** How a plain cell is stored (null for a formula's cell or an empty one). */
  stored(row: number, column: number): Stored | null {
    return this.plain.get(key(row, column)) ?? null;
  }

  formula(row: number, column: number): string {
    return this.formulas.get(key(row, column))?.formula ?? '';
  }

  private extent(): { rows: number; columns: number } {
    let rows = 0;
    let columns = 0;
    for (const k of this.shown().keys()) {
      const [r, c] = k.split(',').map(Number) as [number, number];
      rows = Math.max(rows, r);
      columns = Math.max(columns, c);
    }
    return { rows, columns };
  }

  range(row: number, column: number, rows = 1, columns = 1): FakeRange {
    if (row < 1 || column < 1 || rows < 1 || columns < 1) throw new Error(`Exception: bad range ${row},${column},${rows},${columns}`);
    return new FakeRange(this, row, column, rows, columns);
  }

  /** Sets a value as setValues does (text read like typed input). */
  write(row: number, column: number, value: unknown): void {
    this.formulas.delete(key(row, column));
    const stored = store(value, true);
    if (stored) this.plain.set(key(row, column), stored);
    else this.plain.delete(key(row, column));
  }

  /** Writes shown values as plain values exactly (copyTo with PASTE_VALUES). */
  pasteValues(row: number, column: number, values: unknown[][]): void {
    values.forEach((cells, r) => {
      cells.forEach((v, c) => {
        const k = key(row + r, column + c);
        this.formulas.delete(k);
        const stored = store(v, false);
        if (stored) this.plain.set(k, stored);
        else this.plain.delete(k);
      });
    });
  }

  /** The block of non-empty cells around a range, grown side by side (not across diagonals), as getDataRegion does. */
  dataRegion(row: number, column: number, rows: number, columns: number): [number, number, number, number] {
    const shown = this.shown();
    const filled = (r: number, c: number) => {
      const v = shown.get(key(r, c))?.shown;
      return v !== undefined && v !== '';
    };
    const { rows: maxRow, columns: maxColumn } = this.extent();
    let [top, left, bottom, right] = [row, column, row + rows - 1, column + columns - 1];
    let grew = true;
    while (grew) {
      grew = false;
      const line = (fixed: number, from: number, to: number, isRow: boolean) => {
        for (let i = from; i <= to; i++) if (isRow ? filled(fixed, i) : filled(i, fixed)) return true;
        return false;
      };
      if (top > 1 && line(top - 1, left, right, true)) {
        top--;
        grew = true;
      }
      if (bottom < maxRow && line(bottom + 1, left, right, true)) {
        bottom++;
        grew = true;
      }
      if (left > 1 && line(left - 1, top, bottom, false)) {
        left--;
        grew = true;
      }
      if (right < maxColumn && line(right + 1, top, bottom, false)) {
        right++;
        grew = true;
      }
    }
    return [top, left, bottom - top + 1, right - left + 1];
  }
}

export class FakeRange {
  constructor(
    private grid: FakeGrid,
    private row: number,
    private column: number,
    private rows: number,
    private columns: number,
  ) {}
  getRow = () => this.row;
  getColumn = () => this.column;
  getNumRows = () => this.rows;
  getNumColumns = () => this.columns;
  getLastRow = () => this.row + this.rows - 1;
  getLastColumn = () => this.column + this.columns - 1;
  getSheet = () => ({ getRange: (row: number, column: number, rows?: number, columns?: number) => this.grid.range(row, column, rows, columns) });
  getA1Notation = () => {
    const first = `${columnLetters(this.column)}${this.row}`;
    return this.rows === 1 && this.columns === 1 ? first : `${first}:${columnLetters(this.getLastColumn())}${this.getLastRow()}`;
  };
  private map<T>(fn: (row: number, column: number) => T): T[][] {
    return Array.from({ length: this.rows }, (_, r) => Array.from({ length: this.columns }, (_, c) => fn(this.row + r, this.column + c)));
  }
  getValues = () => {
    this.grid.ops.getValues++;
    return this.map((r, c) => this.grid.value(r, c));
  };
  getFormulas = () => this.map((r, c) => this.grid.formula(r, c));
  setValues = (values: unknown[][]) => {
    this.grid.ops.setValues++;
    if (values.length !== this.rows || values.some((row) => row.length !== this.columns)) {
      throw new Error(`Exception: The number of rows or columns in the data does not match the range (${this.getA1Notation()})`);
    }
    values.forEach((cells, r) => {
      cells.forEach((v, c) => {
        this.grid.write(this.row + r, this.column + c, v);
      });
    });
    return this;
  };
  copyTo = (destination: FakeRange, type: unknown, transposed: boolean) => {
    this.grid.ops.copyTo++;
    if (type !== 'PASTE_VALUES' || transposed) throw new Error('only copyTo(range, PASTE_VALUES, false) is modelled');
    const values = this.map((r, c) => this.grid.value(r, c));
    this.grid.pasteValues(destination.getRow(), destination.getColumn(), values);
  };
  offset = (rowOffset: number, columnOffset: number, rows?: number, columns?: number) =>
    this.grid.range(this.row + rowOffset, this.column + columnOffset, rows ?? this.rows, columns ?? this.columns);
  getDataRegion = () => {
    const [row, column, rows, columns] = this.grid.dataRegion(this.row, this.column, this.rows, this.columns);
    return this.grid.range(row, column, rows, columns);
  };
}
