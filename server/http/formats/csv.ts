/**
 * CSV for spreadsheets (RFC 4180, CRLF line ends, a header row), laid out from the route's answer
 * schema so that no route lists its columns: a column per scalar field, named like the JSON
 * field, nested objects flattened with `_` (`buy_average`, `closing_sell`), null as an empty
 * field. The rows are the answer's records (an array), the items of its one array of objects
 * (`institutions`, `ranking`), or the answer itself when it has none (a month close, one day's
 * record, a conversion).
 */
import { stringify } from 'csv-stringify/sync';
import { z } from 'zod';
import { oneOf } from '../params';
import type { Format } from '../route';

/** The separators of a CSV: `es` is what Excel and Sheets in Spanish read (`;` and a decimal comma). */
export const CSV_LOCALES = ['es', 'en'] as const;
export type CsvLocale = (typeof CSV_LOCALES)[number];

const SEPARATORS: Record<CsvLocale, { field: string; decimal: string }> = {
  es: { field: ';', decimal: ',' },
  en: { field: ',', decimal: '.' },
};

/** A column: its name and where its value is in an object of the answer (`['buy', 'average']`). */
interface Column {
  readonly name: string;
  readonly path: readonly string[];
  /**
   * Where the field, or the outermost object it is in, may be absent (a derived currency's inputs,
   * a carried date): such a column is written only when some row has that field or object, so that
   * the dollar's tables keep the columns they always had. An object that is there writes all its
   * columns, a null among them as an empty cell (a close's purposeRate without a rate).
   */
  readonly optionalAt?: readonly string[];
}

interface Rows {
  /** The rows' cell values, in the columns' order, before they are written as text. */
  readonly cells: unknown[][];
  /** Per row and column, whether the column's optional field or object is there (true for the others). */
  readonly present: boolean[][];
}

interface Layout {
  readonly columns: readonly Column[];
  rows(data: unknown): Rows;
}

/** A field's own schema, without what only makes it optional or nullable (null is an empty cell). */
function bare(schema: z.ZodType): z.ZodType {
  let current = schema;
  while (current instanceof z.ZodNullable || current instanceof z.ZodOptional || current instanceof z.ZodDefault) current = current.unwrap() as z.ZodType;
  return current;
}

const isArrayOfObjects = (schema: z.ZodType) => {
  const field = bare(schema);
  return field instanceof z.ZodArray && bare(field.element as z.ZodType) instanceof z.ZodObject;
};

/**
 * The columns of an object: its scalar fields, and the fields of its nested objects under
 * `parent_child`. An array of scalars (a month's missing days) is one column, its values
 * separated by spaces; an array of objects cannot be a column (it can only be the rows).
 */
function columnsOf(object: z.ZodObject, prefix: readonly string[] = [], optionalAt?: readonly string[]): Column[] {
  return Object.entries(object.shape).flatMap(([name, schema]) => {
    const path = [...prefix, name];
    const optional = optionalAt ?? (schema instanceof z.ZodOptional ? path : undefined);
    const field = bare(schema as z.ZodType);
    if (field instanceof z.ZodObject) return columnsOf(field, path, optional);
    if (isArrayOfObjects(field)) throw new Error(`CSV: "${path.join('.')}" is a list of objects, which can only be the rows`);
    return [{ name: path.join('_'), path, ...(optional ? { optionalAt: optional } : {}) }];
  });
}

function valueAt(object: unknown, path: readonly string[]): unknown {
  let current = object;
  for (const name of path) {
    // A null object (a month without its closing record) leaves all its columns empty.
    if (current === null || current === undefined) return null;
    current = (current as Record<string, unknown>)[name];
  }
  return current;
}

function layoutOf(response: z.ZodType): Layout {
  const answer = bare(response);
  // A union of records (a record, or a provisional one whose buy is null) is laid out as its first
  // option: the others have the same fields, and a null is an empty cell.
  if (answer instanceof z.ZodUnion) return layoutOf(answer.options[0] as z.ZodType);
  if (answer instanceof z.ZodArray) {
    const item = bare(answer.element as z.ZodType);
    if (!(item instanceof z.ZodObject)) throw new Error('CSV: the answer is a list of something other than objects');
    return table([], columnsOf(item), (data) => data as unknown[]);
  }
  if (!(answer instanceof z.ZodObject)) throw new Error('CSV: the answer is neither an object nor a list of objects');
  const lists = Object.entries(answer.shape).filter(([, schema]) => isArrayOfObjects(schema as z.ZodType));
  if (lists.length > 1) throw new Error(`CSV: the answer has more than one list of objects (${lists.map(([name]) => name).join(', ')})`);
  const [list] = lists;
  // No list: the answer itself is the one row (a month close).
  if (!list) return table([], columnsOf(answer), (data) => [data]);
  const [name, schema] = list;
  const item = bare((bare(schema as z.ZodType) as z.ZodArray).element as z.ZodType) as z.ZodObject;
  // The answer's scalars beside the list (the snapshot's date, the ranking's operation) lead every
  // row: a row then says on its own what it is, and a sheet can stack the answers of several days
  // and still be filtered or sorted by them. Its objects beside the list are left out: the only one
  // is /banking/best's `best`, which is the ranking's first row again (without rank and vsOfficial),
  // and would repeat that row on every row.
  const leading = Object.entries(answer.shape)
    .filter(([, field]) => !(bare(field as z.ZodType) instanceof z.ZodObject) && !(bare(field as z.ZodType) instanceof z.ZodArray))
    .map(([field]) => ({ name: field, path: [field] }));
  return table(leading, columnsOf(item), (data) => (valueAt(data, [name]) as unknown[]) ?? []);
}

const isThere = (value: unknown) => value !== null && value !== undefined;

/** A layout of `leading` columns read from the answer, then `columns` read from each of its rows. */
function table(leading: Column[], columns: Column[], rowsOf: (data: unknown) => unknown[]): Layout {
  const header = [...leading, ...columns].map((c) => c.name);
  const repeated = header.find((name, i) => header.indexOf(name) !== i);
  if (repeated) throw new Error(`CSV: two columns would be named "${repeated}"`);
  const has = (object: unknown, c: Column) => !c.optionalAt || isThere(valueAt(object, c.optionalAt));
  return {
    columns: [...leading, ...columns],
    rows: (data) => {
      const lead = leading.map((c) => valueAt(data, c.path));
      const leadPresent = leading.map((c) => has(data, c));
      const rows = rowsOf(data);
      return {
        cells: rows.map((row) => [...lead, ...columns.map((c) => valueAt(row, c.path))]),
        present: rows.map((row) => [...leadPresent, ...columns.map((c) => has(row, c))]),
      };
    },
  };
}

const layouts = new WeakMap<z.ZodType, Layout>();

/** Each schema is laid out once; a schema CSV cannot write fails on its first answer (every CSV route is tested). */
function layout(response: z.ZodType): Layout {
  let found = layouts.get(response);
  if (!found) {
    found = layoutOf(response);
    layouts.set(response, found);
  }
  return found;
}

/**
 * A number in plain decimal notation, as JavaScript's shortest round-trip digits have it but never
 * in exponent notation (`1e-7` is `0.0000001`, `1e21` is `1000000000000000000000`) and without
 * thousands separators.
 */
export function plainDecimal(value: number): string {
  if (!Number.isFinite(value)) throw new Error(`CSV: ${value} is not a number a cell can hold`);
  const text = String(value === 0 ? 0 : value);
  const exponent = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!exponent) return text;
  const [, sign, first, rest = '', power] = exponent;
  const digits = `${first}${rest}`;
  const point = 1 + Number(power);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits.padEnd(point, '0')}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/**
 * What a spreadsheet reads as the start of a formula (or, for a tab or carriage return, trims
 * before reading one). Text that starts with one of them is written after an apostrophe, which
 * spreadsheets show as text and do not evaluate (OWASP's advice against CSV injection): an
 * institution's name comes from upstream, and `=HYPERLINK(…)` must stay a name.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

const asText = (text: string) => (FORMULA_START.test(text) ? `'${text}` : text);

function valueText(value: unknown, decimal: string): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return plainDecimal(value).replace('.', decimal);
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return String(value);
  // A list of scalars in one cell (see columnsOf); the quoting of the whole cell is csv-stringify's.
  if (Array.isArray(value)) return value.map((item) => valueText(item, decimal)).join(' ');
  throw new Error(`CSV: a cell cannot hold ${typeof value}`);
}

/** The text of a cell. Only text is escaped: a number is written as a number, negative or not. */
function cellText(value: unknown, decimal: string): string {
  const text = valueText(value, decimal);
  return typeof value === 'string' || Array.isArray(value) ? asText(text) : text;
}

/** The CSV text of `data`, an answer of the `response` schema. */
export function toCsv(data: unknown, response: z.ZodType, locale: CsvLocale): string {
  const { columns, rows } = layout(response);
  const { cells, present } = rows(data);
  const kept = columns.flatMap((column, i) => (!column.optionalAt || present.some((row) => row[i]) ? [i] : []));
  const { field, decimal } = SEPARATORS[locale];
  return stringify(
    cells.map((row) => kept.map((i) => cellText(row[i], decimal))),
    {
      header: true,
      columns: kept.map((i) => (columns[i] as Column).name),
      delimiter: field,
      record_delimiter: '\r\n',
      // RFC 4180 quotes a field with a line break; csv-stringify quotes only its own record delimiter.
      quoted_match: /[\r\n]/,
    },
  );
}

/** `format=csv` (or `Accept: text/csv`) on a route whose answer is records, periods, a conversion or institutions. */
export const csvFormat: Format<unknown, Record<string, unknown>> = {
  type: 'text/csv; charset=utf-8',
  description:
    'a CSV table for spreadsheets (also given for Accept: text/csv without format): a header row, then one row per record, period or institution (one row for one record or a conversion), columns named like the JSON fields (nested ones as buy_average); the key may then come as key= in the query string',
  query: {
    locale: oneOf(
      CSV_LOCALES,
      'CSV only (format=csv): es writes ";" between fields and a decimal comma, as spreadsheets in Spanish read them; en writes "," and a decimal point.',
      'en',
    ),
  },
  negotiable: true,
  keyInQuery: true,
  render: (data, query, response) => toCsv(data, response, query.locale === 'es' ? 'es' : 'en'),
};
