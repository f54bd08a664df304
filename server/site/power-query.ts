/**
 * The Power Query (M) text the Excel page hands out and /excel/crc-rates.pq serves: one request
 * per table, on the CSV routes, with the key sent as the X-API-Key header from a Power Query
 * parameter, so that the key is never part of a URL a shared workbook or its refresh log keeps.
 *
 * Every value a request sends is a text literal bound to a step at the top of the query (`Days =
 * "30"`): people edit those lines, and the URLs the query builds can be read off the text.
 */
import { addDays } from '../../shared/dates';

export type PowerQueryTable = 'history' | 'range' | 'close' | 'latest';
export const POWER_QUERY_TABLES: readonly PowerQueryTable[] = ['history', 'range', 'close', 'latest'];

/** `en`: `,` and a decimal point (any Excel reads it with the query's culture); `es`: the API's `locale=es`. */
export type CsvLocale = 'en' | 'es';

/** The name of the Power Query parameter that holds the key. */
export const KEY_PARAMETER = 'CrcRatesKey';

interface TableSpec {
  /** The step that holds the table, and its field in the file's record (never the same name: `[History = History]` would be a cyclic reference in M). */
  step: string;
  field: string;
  path: string;
  /** The request's parameters: each the name of a step that holds its text. */
  params: ReadonlyArray<readonly [string, string]>;
  /** Columns read as dates (ISO, yyyy-MM-dd) and as numbers; the others stay text. */
  dates: readonly string[];
  numbers: readonly string[];
}

const RECORD = { dates: ['date'], numbers: ['buy', 'sell'] } as const;

const TABLES: Record<PowerQueryTable, TableSpec> = {
  history: { step: 'HistoryTable', field: 'History', path: 'exchange-rate/history', params: [['days', 'Days']], ...RECORD },
  range: {
    step: 'RangeTable',
    field: 'Range',
    path: 'exchange-rate/range',
    params: [
      ['from', 'From'],
      ['to', 'To'],
    ],
    ...RECORD,
  },
  close: {
    step: 'CloseTable',
    field: 'Close',
    path: 'exchange-rate/close',
    params: [['month', 'Month']],
    dates: ['from', 'to', 'closing_date'],
    numbers: ['closing_buy', 'closing_sell', 'buy_average', 'sell_average', 'buy_min', 'buy_max', 'sell_min', 'sell_max'],
  },
  latest: { step: 'LatestTable', field: 'Latest', path: 'exchange-rate/latest', params: [], ...RECORD },
};

export interface PowerQueryOptions {
  /** The API's address, `https://host/api/v1`. */
  apiBase: string;
  /** Today in Costa Rica (YYYY-MM-DD): the examples ask for the month before it. */
  today: string;
  csvLocale?: CsvLocale;
}

const quote = (text: string) => `"${text.replace(/"/g, '""')}"`;

/** The steps that hold what the requests send, with their example values. */
function settings(options: PowerQueryOptions, tables: readonly PowerQueryTable[]): string[] {
  // The last day of the month before today's: a month whose close is complete.
  const end = addDays(`${options.today.slice(0, 7)}-01`, -1);
  const month = end.slice(0, 7);
  const used = new Set(tables.flatMap((t) => TABLES[t].params.map(([, step]) => step)));
  const values: Array<[string, string, string]> = [
    ['Days', '30', 'days back from today, 1 to 365'],
    ['From', `${month}-01`, 'first day, YYYY-MM-DD'],
    ['To', end, 'last day, YYYY-MM-DD (at most 367 days after From)'],
    ['Month', month, 'the month to close, YYYY-MM'],
  ];
  return [
    `    Base = ${quote(options.apiBase)},`,
    `    Currency = "USD",  // USD, EUR or another code of /currencies`,
    ...values.filter(([step]) => used.has(step)).map(([step, value, note]) => `    ${step} = ${quote(value)},  // ${note}`),
  ];
}

function read(locale: CsvLocale): string {
  const [delimiter, culture] = locale === 'es' ? [';', 'es-CR'] : [',', 'en-US'];
  return [
    `    // The CSV as a table: ${locale === 'es' ? 'semicolons and decimal commas (locale=es)' : 'commas and a decimal point'}, dates as ISO text.`,
    `    Read = (source as binary, dates as list, numbers as list) as table =>`,
    `        let`,
    `            Rows = Csv.Document(source, [Delimiter = ${quote(delimiter)}, Encoding = 65001, QuoteStyle = QuoteStyle.Csv]),`,
    `            Named = Table.PromoteHeaders(Rows, [PromoteAllScalars = true]),`,
    `            Types = List.Transform(dates, each {_, type date}) & List.Transform(numbers, each {_, type number})`,
    `        in`,
    `            Table.TransformColumnTypes(Named, Types, ${quote(culture)}),`,
  ].join('\n');
}

function request(table: PowerQueryTable, locale: CsvLocale, last: boolean): string {
  const spec = TABLES[table];
  const query = [
    ...spec.params.map(([name, step]) => `${name} = ${step}`),
    'currency = Currency',
    'format = "csv"',
    ...(locale === 'es' ? ['locale = "es"'] : []),
  ];
  const list = (names: readonly string[]) => `{${names.map(quote).join(', ')}}`;
  return [
    `    ${spec.step} = Read(`,
    `        Web.Contents(Base, [`,
    `            RelativePath = ${quote(spec.path)},`,
    `            Query = [${query.join(', ')}],`,
    `            Headers = [#"X-API-Key" = ${KEY_PARAMETER}]`,
    `        ]),`,
    `        ${list(spec.dates)},`,
    `        ${list(spec.numbers)}`,
    `    )${last ? '' : ','}`,
  ].join('\n');
}

/**
 * One query: a single table, or several (the file), which then answers a record of them; Power
 * Query shows each as a table to open, and only the ones opened are fetched.
 */
export function powerQuery(tables: readonly PowerQueryTable[], options: PowerQueryOptions): string {
  const locale = options.csvLocale ?? 'en';
  const result =
    tables.length === 1 ? TABLES[tables[0] as PowerQueryTable].step : `[${tables.map((t) => `${TABLES[t].field} = ${TABLES[t].step}`).join(', ')}]`;
  return [
    `// crc-rates: the official exchange rate of the Banco Central de Costa Rica, from ${options.apiBase}.`,
    `// Needs a parameter named ${KEY_PARAMETER} (Home > Manage Parameters > New Parameter, type Text) holding your API key.`,
    'let',
    ...settings(options, tables),
    read(locale),
    tables.map((t, i) => request(t, locale, i === tables.length - 1)).join('\n'),
    'in',
    `    ${result}`,
    '',
  ].join('\n');
}
