/**
 * CSV answers for spreadsheets: `format=csv` (or `Accept: text/csv`) on latest, one day, history,
 * range, stats, close, convert and the two banking routes says exactly what the JSON `data` of the same query says, in
 * `,` and a decimal point or, with `locale=es`, `;` and a decimal comma; errors stay JSON
 * envelopes; the key may come as `key=` on CSV only, and is then never logged nor kept in the
 * response cache's keys; ETag, 304 and the quota work as on JSON.
 */
import { CSV_PATHS } from './csv-paths';
import { Writable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import pino from 'pino';
import { z } from 'zod';
import { addDays } from '../../../shared/dates';
import type { BankingRates, BestRate, MonthClose } from '../../../shared/types';
import { plainDecimal, toCsv } from '../../../server/http/formats/csv';
import { createBankingStore, type InstitutionInput, type QuoteInput } from '../../../server/store/banking';
import { hashKey } from '../../../server/store/api-keys';
import type { RateInput } from '../../../server/store/rates';
import { rate, startTestApp, type TestApp } from '../../helpers/app';
import { createKey, unknownKey } from '../access/support';
import { fetchJson, type OpenApiDocument, validateWithSwaggerParser } from '../system/support';

type Locale = 'en' | 'es';
type Row = Record<string, unknown>;

// Costa Rica is UTC-6: noon there on 2025-02-10.
const TODAY = '2025-02-10';
const clock = () => new Date('2025-02-10T18:00:00Z');

/** Every day from 2024-12-01 to 2025-02-09 but two of January (the 15th and the month's last day). */
function series(): RateInput[] {
  const rows: RateInput[] = [];
  let i = 0;
  for (let day = '2024-12-01'; day <= '2025-02-07'; day = addDays(day, 1), i++) {
    if (day === '2025-01-15' || day === '2025-01-31') continue;
    // Two decimals that wander, so averages and changes carry up to four.
    rows.push(rate(day, 500 + ((i * 37) % 900) / 100, 510 + ((i * 53) % 1100) / 100, i % 10 === 3 ? 'Hacienda' : 'BCCR'));
  }
  // The last two days by hand, for the exact texts below.
  rows.push(rate('2025-02-08', 503.1, 509.95), rate('2025-02-09', 503.25, 510, 'Hacienda'));
  return rows;
}

const institutions: InstitutionInput[] = [
  { id: 'banco-nacional', name: 'Banco Nacional de Costa Rica', type: 'public_bank', known: true },
  { id: 'bac', name: 'Banco BAC San José', type: 'private_bank', known: true },
  // A name with what CSV must quote: a separator of each locale and a double quote.
  { id: 'global', name: 'Casa "Global"; Cambios, S.A.', type: 'exchange_house', known: true },
  { id: 'ecologica', name: 'Énfasis Cambiario', type: 'exchange_house', known: false },
];
const at = (day: string) => new Date(`${day}T14:30:00Z`);
const quotes = (day: string): QuoteInput[] => [
  { institutionId: 'banco-nacional', buy: 505, sell: 515, updatedAt: at(addDays(day, -1)) },
  { institutionId: 'bac', buy: 506.5, sell: 513.5, updatedAt: at(day) },
  { institutionId: 'global', buy: 508.25, sell: 512, updatedAt: at(day) },
  { institutionId: 'ecologica', buy: 504, sell: 513.5, updatedAt: null },
];

/** The JSON answer's object as CSV lays it out: nested objects flattened as `parent_child`. */
function flatten(object: Row, prefix = ''): Row {
  const out: Row = {};
  for (const [name, value] of Object.entries(object)) {
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) Object.assign(out, flatten(value as Row, `${prefix}${name}_`));
    else out[`${prefix}${name}`] = value;
  }
  return out;
}

const NUMBER: Record<Locale, RegExp> = { en: /^-?\d+(\.\d+)?$/, es: /^-?\d+(,\d+)?$/ };

/** A cell read back as the JSON value it stands for (its type taken from that value): numbers as numbers, empty as null. */
function typed(cell: string, like: unknown, locale: Locale): unknown {
  if (like === null || like === undefined) return cell === '' ? null : `"${cell}" where the JSON has null`;
  if (typeof like === 'number') return NUMBER[locale].test(cell) ? Number(cell.replace(',', '.')) : `"${cell}" is not a plain ${locale} number`;
  if (typeof like === 'boolean') return cell === 'true' ? true : cell === 'false' ? false : `"${cell}" is not a boolean`;
  if (Array.isArray(like)) return cell === '' ? [] : cell.split(' ');
  return cell;
}

/** The CSV parsed back: its header, and each row with its cells typed like `expected`'s values. */
function readCsv(text: string, locale: Locale, expected: Row[]): { header: string[]; rows: Row[] } {
  const records = parse(text, { delimiter: locale === 'es' ? ';' : ',', record_delimiter: '\r\n' }) as string[][];
  const [header = [], ...cells] = records;
  const rows = cells.map((row, r) => Object.fromEntries(header.map((name, c) => [name, typed(row[c] ?? '', expected[r]?.[name], locale)])));
  return { header, rows };
}

/** `expected` with a value (null when the JSON has none, as for a null object's fields) for every column. */
const complete = (header: string[], expected: Row[]) => expected.map((row) => Object.fromEntries(header.map((name) => [name, row[name] ?? null])));

const RECORD_COLUMNS = ['date', 'currencyFrom', 'currencyTo', 'buy', 'sell', 'source', 'fetchedAt'];
const SIDE = (side: string) => ['average', 'min', 'max', 'first', 'last', 'change'].map((s) => `${side}_${s}`);
const INSTITUTION_COLUMNS = ['id', 'name', 'type', 'buy', 'sell', 'spread', 'updatedAt', 'stale'];

interface Case {
  path: string;
  query: string;
  header: string[];
  /** The rows CSV must hold, from the JSON `data` of the same query. */
  rows(data: unknown): Row[];
}

const CONVERSION_COLUMNS = ['amount', 'from', 'to', 'rate', 'rateValue', 'date', 'result', 'currency'];

const CASES: Case[] = [
  {
    // One record: a header row and one data row.
    path: '/exchange-rate/latest',
    query: '',
    header: RECORD_COLUMNS,
    rows: (data) => [flatten(data as Row)],
  },
  {
    path: '/exchange-rate',
    query: 'date=2025-01-20',
    header: RECORD_COLUMNS,
    rows: (data) => [flatten(data as Row)],
  },
  {
    path: '/convert',
    query: 'amount=1234.5&from=USD&to=CRC&rate=buy',
    header: CONVERSION_COLUMNS,
    rows: (data) => [flatten(data as Row)],
  },
  {
    path: '/convert',
    query: 'amount=100000&from=CRC&date=2025-01-20',
    header: CONVERSION_COLUMNS,
    rows: (data) => [flatten(data as Row)],
  },
  {
    path: '/exchange-rate/history',
    query: 'days=30',
    header: RECORD_COLUMNS,
    rows: (data) => (data as Row[]).map((r) => flatten(r)),
  },
  {
    path: '/exchange-rate/range',
    query: 'from=2025-01-10&to=2025-02-09',
    header: RECORD_COLUMNS,
    rows: (data) => (data as Row[]).map((r) => flatten(r)),
  },
  {
    path: '/exchange-rate/stats',
    query: 'period=monthly&from=2024-12-01&to=2025-02-09',
    header: ['period', 'from', 'to', 'count', ...SIDE('buy'), ...SIDE('sell')],
    rows: (data) => (data as Row[]).map((r) => flatten(r)),
  },
  {
    path: '/exchange-rate/stats',
    query: 'period=yearly&from=2024-12-01&to=2025-02-09',
    header: ['period', 'from', 'to', 'count', ...SIDE('buy'), ...SIDE('sell')],
    rows: (data) => (data as Row[]).map((r) => flatten(r)),
  },
  {
    path: '/exchange-rate/close',
    query: 'month=2025-01',
    header: [
      'month',
      'from',
      'to',
      'daysInMonth',
      'daysPresent',
      'missing',
      'complete',
      ...RECORD_COLUMNS.map((c) => `closing_${c}`),
      ...SIDE('buy'),
      ...SIDE('sell'),
    ],
    rows: (data) => [flatten(data as Row)],
  },
  {
    path: '/exchange-rate/close',
    query: 'month=2024-12',
    header: [
      'month',
      'from',
      'to',
      'daysInMonth',
      'daysPresent',
      'missing',
      'complete',
      ...RECORD_COLUMNS.map((c) => `closing_${c}`),
      ...SIDE('buy'),
      ...SIDE('sell'),
    ],
    rows: (data) => [flatten(data as Row)],
  },
  {
    path: '/banking/rates',
    query: 'date=2025-02-09',
    header: ['date', ...INSTITUTION_COLUMNS],
    rows: (data) => {
      const { date, institutions: list } = data as BankingRates;
      return list.map((i) => ({ date, ...flatten(i as unknown as Row) }));
    },
  },
  {
    path: '/banking/best',
    query: 'operation=sell&date=2025-02-09',
    header: ['operation', 'date', ...INSTITUTION_COLUMNS, 'rank', 'vsOfficial'],
    rows: (data) => {
      const { operation, date, ranking } = data as BestRate;
      return ranking.map((r) => ({ operation, date, ...flatten(r as unknown as Row) }));
    },
  },
  {
    // No official rate that day: vsOfficial is null, an empty field.
    path: '/banking/best',
    query: 'operation=buy&date=2025-01-31',
    header: ['operation', 'date', ...INSTITUTION_COLUMNS, 'rank', 'vsOfficial'],
    rows: (data) => {
      const { operation, date, ranking } = data as BestRate;
      return ranking.map((r) => ({ operation, date, ...flatten(r as unknown as Row) }));
    },
  },
];

const lines: string[] = [];
const logStream = new Writable({
  write(chunk: Buffer, _encoding, callback) {
    lines.push(chunk.toString());
    callback();
  },
});

const tokens = (header: string | null) => (header ?? '').split(',').map((s) => s.trim().toLowerCase());

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ clock, logger: pino({ level: 'debug' }, logStream) });
  await t.seed(series());
  const banking = createBankingStore(t.database.db);
  for (const day of ['2025-01-31', '2025-02-09']) {
    await banking.saveDay({ date: day, source: 'bccr-site', fetchedAt: new Date(), institutions, quotes: quotes(day) });
  }
  await t.changes.ratesChanged();
});
afterAll(() => t.close());

describe('the serializer', () => {
  it('writes numbers in plain decimal notation, never in exponent notation', () => {
    expect([1e-7, -1.5e-7, 1.2345e-10, 1e21, 1.5e22, -0, 0, 505, 506.47, -6.1234, 123456789.5].map(plainDecimal)).toEqual([
      '0.0000001',
      '-0.00000015',
      '0.00000000012345',
      '1000000000000000000000',
      '15000000000000000000000',
      '0',
      '0',
      '505',
      '506.47',
      '-6.1234',
      '123456789.5',
    ]);
  });

  it('quotes what RFC 4180 quotes, ends lines with CRLF, and round-trips through a CSV parser', () => {
    const schema = z.array(z.object({ text: z.string(), n: z.number(), none: z.number().nullable(), inner: z.object({ ok: z.boolean() }) }));
    const data = [
      { text: 'a, "b"; c\nd\re', n: 1e-7, none: null, inner: { ok: true } },
      { text: 'plain', n: 1234567.25, none: 2, inner: { ok: false } },
      // A line break alone is quoted too, not only the CRLF that ends a record.
      { text: 'two\nlines', n: -0.5, none: null, inner: { ok: true } },
    ];
    expect(toCsv(data, schema, 'en')).toBe(
      'text,n,none,inner_ok\r\n"a, ""b""; c\nd\re",0.0000001,,true\r\nplain,1234567.25,2,false\r\n"two\nlines",-0.5,,true\r\n',
    );
    expect(toCsv(data, schema, 'es')).toBe(
      'text;n;none;inner_ok\r\n"a, ""b""; c\nd\re";0,0000001;;true\r\nplain;1234567,25;2;false\r\n"two\nlines";-0,5;;true\r\n',
    );
    expect(parse(toCsv(data, schema, 'es'), { delimiter: ';' })).toEqual([
      ['text', 'n', 'none', 'inner_ok'],
      ['a, "b"; c\nd\re', '0,0000001', '', 'true'],
      ['plain', '1234567,25', '2', 'false'],
      ['two\nlines', '-0,5', '', 'true'],
    ]);
  });

  it('writes an optional field or object only when some row has it; an object that is there writes all its columns', () => {
    const schema = z.array(
      z.object({
        a: z.number(),
        leaf: z.string().optional(),
        box: z.object({ day: z.string(), value: z.number().nullable() }).optional(),
      }),
    );
    // No row has them: the table is the one it always was.
    expect(toCsv([{ a: 1 }, { a: 2 }], schema, 'en')).toBe('a\r\n1\r\n2\r\n');
    // The object is there, its value null: value is still a column, empty, not dropped.
    expect(toCsv([{ a: 1, box: { day: 'x', value: null } }, { a: 2 }], schema, 'en')).toBe('a,box_day,box_value\r\n1,x,\r\n2,,\r\n');
    expect(toCsv([{ a: 1, leaf: 'l' }], schema, 'en')).toBe('a,leaf\r\n1,l\r\n');
  });

  it('writes only the header when there are no rows', () => {
    expect(toCsv([], z.array(z.object({ a: z.string(), b: z.object({ c: z.number() }) })), 'en')).toBe('a,b_c\r\n');
  });

  it('refuses a schema it cannot lay out as one table', () => {
    const twoLists = z.object({ a: z.array(z.object({ x: z.number() })), b: z.array(z.object({ y: z.number() })) });
    expect(() => toCsv({ a: [], b: [] }, twoLists, 'en')).toThrow('more than one list of objects (a, b)');
    const clash = z.object({ date: z.string(), rows: z.array(z.object({ date: z.string() })) });
    expect(() => toCsv({ date: 'x', rows: [] }, clash, 'en')).toThrow('two columns would be named "date"');
  });
});

describe('format=csv says what the JSON data says', () => {
  for (const c of CASES) {
    for (const locale of ['en', 'es'] as const) {
      it(`${c.path}?${c.query}, locale=${locale}`, async () => {
        const json = await t.get(`${c.path}?${c.query}`);
        expect(json.status).toBe(200);
        const expected = c.rows(json.body.data);
        expect(expected.length).toBeGreaterThan(0);
        const csv = await t.get(`${c.path}?${c.query}&format=csv${locale === 'es' ? '&locale=es' : ''}`);
        expect([csv.status, csv.headers.get('content-type')]).toEqual([200, 'text/csv; charset=utf-8']);
        // RFC 4180: every line, the last one included, ends with CRLF.
        expect(csv.text.endsWith('\r\n')).toBe(true);
        expect(csv.text.replace(/\r\n/g, '').includes('\n')).toBe(false);
        const { header, rows } = readCsv(csv.text, locale, expected);
        expect(header).toEqual(c.header);
        expect(rows).toEqual(complete(header, expected));
      });
    }
  }

  it('writes the exact text a spreadsheet reads, in either locale', async () => {
    const range = '/exchange-rate/range?from=2025-02-08&to=2025-02-09&format=csv';
    expect((await t.get(range)).text).toBe(
      'date,currencyFrom,currencyTo,buy,sell,source,fetchedAt\r\n' +
        '2025-02-08,USD,CRC,503.1,509.95,BCCR,2025-01-14T18:05:12.000Z\r\n' +
        '2025-02-09,USD,CRC,503.25,510,Hacienda,2025-01-14T18:05:12.000Z\r\n',
    );
    expect((await t.get(`${range}&locale=ES`)).text).toBe(
      'date;currencyFrom;currencyTo;buy;sell;source;fetchedAt\r\n' +
        '2025-02-08;USD;CRC;503,1;509,95;BCCR;2025-01-14T18:05:12.000Z\r\n' +
        '2025-02-09;USD;CRC;503,25;510;Hacienda;2025-01-14T18:05:12.000Z\r\n',
    );
    expect((await t.get('/exchange-rate/range?from=2020-01-01&to=2020-01-31&format=csv')).text).toBe(
      'date,currencyFrom,currencyTo,buy,sell,source,fetchedAt\r\n',
    );
  });

  it('writes a month without its closing record with the missing days in one field and empty closing fields', async () => {
    const data = (await t.get('/exchange-rate/close?month=2025-01')).body.data as MonthClose;
    expect([data.missing, data.closing]).toEqual([['2025-01-15', '2025-01-31'], null]);
    const [, row] = parse((await t.get('/exchange-rate/close?month=2025-01&format=csv&locale=es')).text, { delimiter: ';' }) as string[][];
    expect(row?.slice(0, 14)).toEqual(['2025-01', '2025-01-01', '2025-01-30', '31', '29', '2025-01-15 2025-01-31', 'false', '', '', '', '', '', '', '']);
  });

  it('quotes an institution name holding separators and quotes, and leaves best out of /banking/best (it is the first row)', async () => {
    const best = (await t.get('/banking/best?operation=buy&date=2025-01-31')).body.data as BestRate;
    const text = (await t.get('/banking/best?operation=buy&date=2025-01-31&format=csv')).text;
    // No official rate on the 31st: vsOfficial is the empty last field.
    expect(text.split('\r\n')[1]).toBe(
      'buy,2025-01-31,global,"Casa ""Global""; Cambios, S.A.",exchange_house,508.25,512,3.75,2025-01-31T14:30:00.000Z,false,1,',
    );
    expect((await t.get('/banking/best?operation=buy&date=2025-01-31&format=csv&locale=es')).text.split('\r\n')[1]).toBe(
      'buy;2025-01-31;global;"Casa ""Global""; Cambios, S.A.";exchange_house;508,25;512;3,75;2025-01-31T14:30:00.000Z;false;1;',
    );
    const [header = [], first = []] = parse(text) as string[][];
    const { rank: _rank, vsOfficial: _vs, ...firstRanked } = Object.fromEntries(header.map((name, i) => [name, first[i]]));
    expect(firstRanked).toEqual(expect.objectContaining({ id: best.best.id, name: best.best.name, buy: String(best.best.buy) }));
    expect(header).not.toContain('best_id');
  });
});

describe('text a spreadsheet would evaluate', () => {
  // Institution names come from the central bank's site: whatever a name starts with, a
  // spreadsheet must show it as text, never run it.
  const FORMULAS = ['=HYPERLINK("http://example.com","Casa Formula")', '+SUM(1,2)', '-1+1', '@SUM(A1:A2)'];
  const DAY = '2025-01-20';
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ clock });
    await app.seed([rate(DAY, 500, 510)]);
    await createBankingStore(app.database.db).saveDay({
      date: DAY,
      source: 'bccr-site',
      fetchedAt: new Date(),
      institutions: FORMULAS.map((name, i) => ({ id: `f${i}`, name, type: 'exchange_house', known: false })),
      // vsOfficial (buy − 500) is negative for two of them: numbers stay numbers.
      quotes: FORMULAS.map((_, i) => ({ institutionId: `f${i}`, buy: 498 + i, sell: 509 + i, updatedAt: null })),
    });
    await app.changes.ratesChanged();
  });
  afterAll(() => app.close());

  for (const locale of ['en', 'es'] as const) {
    const delimiter = locale === 'es' ? ';' : ',';
    for (const path of ['/banking/rates', '/banking/best?operation=buy&']) {
      it(`${path.split('?')[0]}, locale=${locale}: each name is written after an apostrophe; negative numbers are not`, async () => {
        const query = `${path.includes('?') ? path : `${path}?`}date=${DAY}&format=csv&locale=${locale}`;
        const response = await app.get(query);
        expect(response.status).toBe(200);
        const [header = [], ...rows] = parse(response.text, { delimiter }) as string[][];
        const name = header.indexOf('name');
        expect(rows.map((row) => row[name]).sort()).toEqual(FORMULAS.map((formula) => `'${formula}`).sort());
        // Nothing else in the text begins a cell with a formula's first character.
        for (const row of rows) for (const cell of row) if (cell !== row[name]) expect(cell).not.toMatch(/^[=+@\t\r]/);
        if (path.includes('best')) {
          const vs = header.indexOf('vsOfficial');
          expect(rows.map((row) => row[vs])).toEqual(['1', '0', '-1', '-2']);
        }
      });
    }
  }

  it('the serializer writes text after an apostrophe for each dangerous first character, tab and carriage return too', () => {
    const schema = z.array(z.object({ name: z.string(), change: z.number() }));
    const rows = ['=1+1', '+1', '-1', '@A1', '\t=1+1', '\r=1+1', 'Casa - Cambios', '1-2'].map((name) => ({ name, change: -0.25 }));
    for (const [locale, decimal, delimiter] of [
      ['en', '.', ','],
      ['es', ',', ';'],
    ] as const) {
      const [, ...cells] = parse(toCsv(rows, schema, locale), { delimiter, relax_quotes: true }) as string[][];
      expect(cells).toEqual([
        ["'=1+1", `-0${decimal}25`],
        ["'+1", `-0${decimal}25`],
        ["'-1", `-0${decimal}25`],
        ["'@A1", `-0${decimal}25`],
        ["'\t=1+1", `-0${decimal}25`],
        ["'\r=1+1", `-0${decimal}25`],
        ['Casa - Cambios', `-0${decimal}25`],
        ['1-2', `-0${decimal}25`],
      ]);
    }
  });
});

describe('negotiation', () => {
  it('Accept: text/csv without format is CSV, and such routes say Vary: Accept', async () => {
    const explicit = await t.get('/exchange-rate/history?days=5&format=csv');
    const accepted = await t.get('/exchange-rate/history?days=5', { accept: 'text/csv' });
    expect([accepted.status, accepted.headers.get('content-type'), accepted.text]).toEqual([200, 'text/csv; charset=utf-8', explicit.text]);
    expect(tokens(accepted.headers.get('vary'))).toContain('accept');
    // The JSON answer of a negotiable route varies by Accept too.
    const json = await t.get('/exchange-rate/history?days=5');
    expect([json.headers.get('content-type'), tokens(json.headers.get('vary'))]).toEqual([
      'application/json; charset=utf-8',
      expect.arrayContaining(['accept']),
    ]);
    // A route without CSV does not.
    expect(tokens((await t.get('/exchange-rate/analytics', { accept: 'text/csv' })).headers.get('vary'))).not.toContain('accept');
  });

  it('an explicit format wins over Accept; JSON wins ties and */*', async () => {
    const cases: Array<[string, string, string]> = [
      ['format=json', 'text/csv', 'application/json; charset=utf-8'],
      ['format=JSON', 'text/csv', 'application/json; charset=utf-8'],
      ['format=csv', 'application/json', 'text/csv; charset=utf-8'],
      ['', '*/*', 'application/json; charset=utf-8'],
      ['', 'application/json, text/csv', 'application/json; charset=utf-8'],
      ['', 'text/csv;q=0.9, application/json;q=0.5', 'text/csv; charset=utf-8'],
      ['', 'text/html', 'application/json; charset=utf-8'],
    ];
    for (const [query, accept, type] of cases) {
      const res = await t.get(`/banking/rates?date=2025-02-09&${query}`, { accept });
      expect([query, accept, res.status, res.headers.get('content-type')]).toEqual([query, accept, 200, type]);
    }
  });

  it('keeps the CSV and the JSON answer of the same query string apart in the response cache', async () => {
    const query = '/exchange-rate/stats?from=2024-12-01&to=2024-12-31';
    const first = await t.get(query, { accept: 'text/csv' });
    const json = await t.get(query);
    const again = await t.get(query, { accept: 'text/csv' });
    // Each is kept from its second asking on.
    await t.get(query);
    expect([first.headers.get('content-type'), json.headers.get('content-type'), again.headers.get('content-type')]).toEqual([
      'text/csv; charset=utf-8',
      'application/json; charset=utf-8',
      'text/csv; charset=utf-8',
    ]);
    expect(again.text).toBe(first.text);
    expect(t.app.responseCache.get(`${TODAY} /exchange-rate/stats?from=2024-12-01&to=2024-12-31`)?.type).toBe('application/json; charset=utf-8');
    expect(t.app.responseCache.get(`${TODAY} /exchange-rate/stats?from=2024-12-01&to=2024-12-31&format=csv`)?.type).toBe('text/csv; charset=utf-8');
  });

  it('ETag and 304 work for CSV, with a tag of its own', async () => {
    const csv = await t.get('/exchange-rate/history?days=7&format=csv');
    const json = await t.get('/exchange-rate/history?days=7');
    const etag = csv.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(etag).not.toBe(json.headers.get('etag'));
    const again = await t.get('/exchange-rate/history?days=7&format=csv', { 'if-none-match': etag });
    expect([again.status, again.text, tokens(again.headers.get('vary'))]).toEqual([304, '', expect.arrayContaining(['accept'])]);
    // The same tag by Accept (same bytes), and never for the JSON answer.
    expect((await t.get('/exchange-rate/history?days=7', { accept: 'text/csv', 'if-none-match': etag })).status).toBe(304);
    expect((await t.get('/exchange-rate/history?days=7', { 'if-none-match': etag })).status).toBe(200);
  });
});

describe('errors of CSV requests stay JSON envelopes', () => {
  const expectEnvelope = (
    res: { status: number; headers: Headers; body: { success: boolean; error?: string; message?: string } },
    status: number,
    error: string,
  ) => {
    expect([res.status, res.headers.get('content-type'), res.body.success, res.body.error]).toEqual([status, 'application/json; charset=utf-8', false, error]);
  };

  it('400 for a bad parameter, by format=csv and by Accept', async () => {
    const bad = await t.get('/exchange-rate/history?days=0&format=csv');
    expectEnvelope(bad, 400, 'BAD_REQUEST');
    expect(bad.body.message).toBe('Parameter "days" must be an integer from 1 to 365 (got "0")');
    expectEnvelope(await t.get('/exchange-rate/history?days=0', { accept: 'text/csv' }), 400, 'BAD_REQUEST');
    const locale = await t.get('/exchange-rate/history?format=csv&locale=fr');
    expectEnvelope(locale, 400, 'BAD_REQUEST');
    expect(locale.body.message).toBe('Parameter "locale" must be one of es, en (got "fr")');
    expect((await t.get('/exchange-rate/history?format=xml')).body.message).toBe('Parameter "format" must be one of json, csv (got "xml")');
  });

  it('401 without a key or with an unknown one, 404 without data, 429 over the limit', async () => {
    expectEnvelope(await t.get('/exchange-rate/history?format=csv', { 'x-api-key': '' }), 401, 'UNAUTHORIZED');
    expectEnvelope(await t.get(`/exchange-rate/history?format=csv&key=${unknownKey()}`, { 'x-api-key': '' }), 401, 'UNAUTHORIZED');
    expectEnvelope(await t.get('/exchange-rate/close?month=1999-01&format=csv'), 404, 'NOT_FOUND');
    expectEnvelope(await t.get('/banking/rates?date=2020-01-01', { accept: 'text/csv' }), 404, 'NOT_FOUND');
    const { key } = await createKey(t.database.db, { ratePerMinute: 1 });
    expect((await t.get(`/exchange-rate/history?format=csv&key=${key}`, { 'x-api-key': '' })).status).toBe(200);
    expectEnvelope(await t.get(`/exchange-rate/history?format=csv&key=${key}`, { 'x-api-key': '' }), 429, 'RATE_LIMITED');
  });
});

describe('the key in the query string', () => {
  const KEY_IN_QUERY = 'The API key is taken from the query string ("key") only for CSV answers (format=csv): send it in the x-api-key header';
  const keyed: string[] = [];

  it('is taken on CSV answers, by format=csv and by Accept', async () => {
    const { key } = await createKey(t.database.db);
    keyed.push(key);
    const viaFormat = await t.get(`/exchange-rate/history?days=3&format=csv&key=${key}`, { 'x-api-key': '' });
    expect([viaFormat.status, viaFormat.headers.get('content-type'), viaFormat.headers.get('x-quota-remaining')]).toEqual([
      200,
      'text/csv; charset=utf-8',
      String(5000 - 1),
    ]);
    const viaAccept = await t.get(`/banking/rates?key=${key}`, { 'x-api-key': '', accept: 'text/csv' });
    expect([viaAccept.status, viaAccept.headers.get('content-type')]).toEqual([200, 'text/csv; charset=utf-8']);
    // A repeated key is no key.
    expect((await t.get(`/exchange-rate/history?format=csv&key=${key}&key=${key}`, { 'x-api-key': '' })).status).toBe(401);
  });

  it('serves today’s rate, one day and a conversion as CSV with the key alone in the URL, by format=csv and by Accept, in either locale', async () => {
    const { key } = await createKey(t.database.db);
    keyed.push(key);
    const expected: [path: string, en: string, es: string][] = [
      [
        '/exchange-rate/latest',
        'date,currencyFrom,currencyTo,buy,sell,source,fetchedAt\r\n2025-02-09,USD,CRC,503.25,510,Hacienda,2025-01-14T18:05:12.000Z\r\n',
        'date;currencyFrom;currencyTo;buy;sell;source;fetchedAt\r\n2025-02-09;USD;CRC;503,25;510;Hacienda;2025-01-14T18:05:12.000Z\r\n',
      ],
      [
        '/exchange-rate?date=2025-02-08',
        'date,currencyFrom,currencyTo,buy,sell,source,fetchedAt\r\n2025-02-08,USD,CRC,503.1,509.95,BCCR,2025-01-14T18:05:12.000Z\r\n',
        'date;currencyFrom;currencyTo;buy;sell;source;fetchedAt\r\n2025-02-08;USD;CRC;503,1;509,95;BCCR;2025-01-14T18:05:12.000Z\r\n',
      ],
      [
        '/convert?amount=100.5&rate=buy&date=2025-02-08',
        'amount,from,to,rate,rateValue,date,result,currency\r\n100.5,USD,CRC,buy,503.1,2025-02-08,50561.55,USD\r\n',
        'amount;from;to;rate;rateValue;date;result;currency\r\n100,5;USD;CRC;buy;503,1;2025-02-08;50561,55;USD\r\n',
      ],
    ];
    for (const [path, en, es] of expected) {
      const query = (...pairs: string[]) => `${path}${path.includes('?') ? '&' : '?'}${pairs.join('&')}`;
      for (const [locale, text] of [
        ['en', en],
        ['es', es],
      ] as const) {
        const localePair = locale === 'es' ? ['locale=es'] : [];
        for (const [url, headers] of [
          [query('format=csv', ...localePair, `key=${key}`), { 'x-api-key': '' }],
          [query(...localePair, `key=${key}`), { 'x-api-key': '', accept: 'text/csv' }],
        ] as const) {
          const res = await t.get(url, headers);
          expect([url, headers.accept, res.status, res.headers.get('content-type'), res.text]).toEqual([
            url,
            headers.accept,
            200,
            'text/csv; charset=utf-8',
            text,
          ]);
        }
      }
    }
  });

  it('is refused on JSON answers with a 400 naming the x-api-key header, header or not', async () => {
    const { key } = await createKey(t.database.db);
    keyed.push(key);
    for (const [path, headers] of [
      [`/exchange-rate/history?days=3&key=${key}`, { 'x-api-key': '' }],
      [`/exchange-rate/history?days=3&key=${key}`, {}],
      [`/exchange-rate/history?days=3&format=json&key=${key}`, { 'x-api-key': '', accept: 'text/csv' }],
      [`/exchange-rate/latest?key=${key}`, { 'x-api-key': '' }],
      [`/exchange-rate/provenance?date=2025-02-09&format=html&key=${key}`, { 'x-api-key': '' }],
    ] as const) {
      const res = await t.get(path, headers);
      expect([path, res.status, res.headers.get('content-type'), res.body]).toEqual([
        path,
        400,
        'application/json; charset=utf-8',
        { success: false, message: KEY_IN_QUERY, error: 'BAD_REQUEST' },
      ]);
    }
    // Nothing was counted against the key.
    expect((await t.get('/usage', { 'x-api-key': key })).body.data).toEqual(expect.objectContaining({ used: 0 }));
  });

  it('counts against the quota like JSON; a 304 is free', async () => {
    const { key } = await createKey(t.database.db, { monthlyQuota: 3 });
    keyed.push(key);
    const path = '/exchange-rate/range?from=2025-02-01&to=2025-02-09';
    const first = await t.get(`${path}&format=csv&key=${key}`, { 'x-api-key': '' });
    expect([first.status, first.headers.get('x-quota-remaining')]).toEqual([200, '2']);
    const notModified = await t.get(`${path}&format=csv&key=${key}`, { 'x-api-key': '', 'if-none-match': first.headers.get('etag') ?? '' });
    expect([notModified.status, notModified.headers.get('x-quota-remaining')]).toEqual([304, '2']);
    expect((await t.get(path, { 'x-api-key': key })).headers.get('x-quota-remaining')).toBe('1');
    expect((await t.get(`${path}&locale=es`, { 'x-api-key': key, accept: 'text/csv' })).headers.get('x-quota-remaining')).toBe('0');
    const over = await t.get(`${path}&format=csv&key=${key}`, { 'x-api-key': '' });
    expect([over.status, over.headers.get('content-type'), over.body.error]).toEqual([429, 'application/json; charset=utf-8', 'QUOTA_EXCEEDED']);
  });

  it('is kept out of the response cache keys, which share the answer with the header form', async () => {
    const { key } = await createKey(t.database.db);
    keyed.push(key);
    const res = await t.get(`/exchange-rate/history?format=csv&key=${key}&days=11`, { 'x-api-key': '' });
    expect(res.status).toBe(200);
    // Kept from its second asking on, under a key without the API key.
    expect((await t.get(`/exchange-rate/history?format=csv&key=${key}&days=11`, { 'x-api-key': '' })).text).toBe(res.text);
    expect(t.app.responseCache.get(`${TODAY} /exchange-rate/history?format=csv&days=11`)?.body).toBe(res.text);
    const encoded = await t.get(`/exchange-rate/history?format=csv&k%65y=${key}&days=12`, { 'x-api-key': '' });
    expect(encoded.status).toBe(200);
    await t.get(`/exchange-rate/history?format=csv&k%65y=${key}&days=12`, { 'x-api-key': '' });
    expect(t.app.responseCache.get(`${TODAY} /exchange-rate/history?format=csv&days=12`)?.body).toBe(encoded.text);
    const cacheKeys: string[] = [];
    // `drop` shows every key to its predicate; keeping them all.
    t.app.responseCache.drop((k) => {
      cacheKeys.push(k);
      return false;
    });
    expect(cacheKeys.length).toBeGreaterThan(10);
    for (const sent of keyed) expect(cacheKeys.filter((k) => k.includes(sent) || k.includes('key='))).toEqual([]);
  });

  it('never reaches the logs, also when the request fails', async () => {
    // A key never looked up, while the keys table is away: a 500, logged in full.
    const { key } = await createKey(t.database.db);
    keyed.push(key);
    await t.database.db.raw('ALTER TABLE api_keys RENAME TO api_keys_away');
    const failed = await t.get(`/exchange-rate/history?format=csv&key=${key}`, { 'x-api-key': '' });
    await t.database.db.raw('ALTER TABLE api_keys_away RENAME TO api_keys');
    expect([failed.status, failed.body.error]).toEqual([500, 'INTERNAL_ERROR']);
    // The failure was logged in full (level 50, with the error), and so was the request.
    expect(lines.some((line) => line.includes('"level":50') && line.includes('api_keys'))).toBe(true);
    expect(lines.some((line) => line.includes('"status":500'))).toBe(true);
    expect(lines.some((line) => line.includes('/exchange-rate/history'))).toBe(true);
    for (const sent of keyed) {
      const secrets = [sent, hashKey(sent)];
      expect([sent, lines.filter((line) => secrets.some((s) => line.includes(s)))]).toEqual([sent, []]);
    }
    expect(lines.filter((line) => line.includes('key='))).toEqual([]);
  });
});

describe('the OpenAPI document', () => {
  it('gives the CSV routes a text/csv answer, format and locale, and the key in the query as a second scheme; it stays valid', async () => {
    const doc = await fetchJson<OpenApiDocument>(`${t.api}/openapi.json`);
    expect(await validateWithSwaggerParser(doc)).toEqual({ valid: true });
    expect(doc.components.securitySchemes.apiKeyInQuery).toEqual(expect.objectContaining({ type: 'apiKey', in: 'query', name: 'key' }));
    const offering = Object.entries(doc.paths)
      .filter(([, item]) => item.get?.responses[200]?.content?.['text/csv'])
      .map(([path]) => path);
    expect(offering.sort()).toEqual([...CSV_PATHS].sort());
    for (const path of CSV_PATHS) {
      const op = doc.paths[path]?.get;
      expect([path, op?.security]).toEqual([path, [{ apiKey: [] }, { bearer: [] }, { apiKeyInQuery: [] }]]);
      const byName = new Map((op?.parameters ?? []).map((p) => [p.name, p]));
      expect([path, byName.get('format')?.schema]).toEqual([path, expect.objectContaining({ enum: ['json', 'csv'], default: 'json' })]);
      expect([path, byName.get('locale')?.schema, byName.get('locale')?.description]).toEqual([
        path,
        expect.objectContaining({ enum: ['es', 'en'], default: 'en' }),
        expect.stringMatching(/^CSV only/),
      ]);
      // The key in the query is a security scheme, not a parameter.
      expect(byName.has('key')).toBe(false);
    }
    // Elsewhere the header alone.
    expect(doc.paths['/exchange-rate/analytics']?.get?.security).toBeUndefined();
    expect(doc.security).toEqual([{ apiKey: [] }, { bearer: [] }]);
  });
});
