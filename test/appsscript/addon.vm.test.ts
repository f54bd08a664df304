/**
 * The built add-on (appsscript/dist/Code.js) run in node:vm against Apps Script shims, calling a
 * real API server (in a worker thread, on an embedded database with known rates, or PostgreSQL
 * with DATABASE_URL) over real HTTP through a synchronous UrlFetchApp. Each function is called as
 * Sheets calls it, and the number of HTTP requests is counted: one per range call, none when the
 * cache has the answer. The last test stops the server, for the last known good copy.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { CARRY_DAYS } from '../../appsscript/src/rates';
import { ARGUMENT_RULES } from '../../shared/arguments';
import { CURRENCY_CODES } from '../../shared/currency-catalog';
import { addDays, calendarDay, daysBetween } from '../../shared/dates';
import type { MonthClose, Usage } from '../../shared/types';
import { startApiServer, type ApiServer } from './support/api-server';
import { INSTITUTIONS, LAST, monexOf, quoteOf } from './support/fixtures';
import { formatDate, loadGas, type Gas, type GasOptions } from './support/gas';

const ROOT = path.resolve(__dirname, '../..');
const DIST = path.join(ROOT, 'appsscript/dist');
const CUSTOM_FUNCTIONS = ['EXCHANGERATE', 'EXCHANGECONVERT', 'EXCHANGECLOSE', 'EXCHANGEHISTORY', 'EXCHANGEBEST', 'EXCHANGEANALYTICS', 'EXCHANGEMONEX'];
const KEY = 'CRC_RATES_API_KEY';
const BASE = 'CRC_RATES_BASE_URL';
const STALE = 'CRC_RATES_STALE';
const LKG = 'CRC_RATES_LKG.';

let server: ApiServer;

beforeAll(async () => {
  // The build and the server's start (the embedded database takes a while) run side by side.
  const [, started] = await Promise.all([promisify(execFile)(process.execPath, [path.join(ROOT, 'appsscript/build.mjs')], { cwd: ROOT }), startApiServer()]);
  server = started;
}, 120_000);

afterAll(async () => {
  await server?.close();
});

/** A fresh spreadsheet: its own properties, cache and request log. */
function sheet(options: Partial<GasOptions> & { key?: string | null } = {}): Gas {
  const { key = server.keys.main, ...rest } = options;
  const properties: Record<string, string> = { [BASE]: server.api, ...(rest.properties ?? {}) };
  if (key) properties[KEY] = key;
  return loadGas({ fetch: server.fetch, dist: DIST, ...rest, properties });
}

/** A date cell as Sheets passes it: the instant of midnight of that day in the sheet's zone. */
function cell(day: string, timeZone: string): Date {
  const utc = Date.parse(`${day}T00:00:00Z`);
  const offset = (t: number) => {
    const z = formatDate(new Date(t), timeZone, 'Z');
    return (z[0] === '-' ? -1 : 1) * (Number(z.slice(1, 3)) * 60 + Number(z.slice(3, 5)));
  };
  let t = utc - offset(utc) * 60_000;
  t = utc - offset(t) * 60_000;
  return new Date(t);
}

const paths = (g: Gas) => g.calls.map((c) => decodeURIComponent(c.url.replace(server.api, '')));

/** The API asked directly (not through the add-on), with the main key: what the add-on must agree with. */
function api<T>(path: string, key = server.keys.main): { status: number; data: T; message?: string } {
  const [reply] = server.fetch([{ url: `${server.api}${path}`, headers: { 'x-api-key': key } }]);
  if (!reply || 'error' in reply) throw new Error(`no answer for ${path}`);
  const body = JSON.parse(reply.body) as { data: T; message?: string };
  return { status: reply.status, data: body.data, message: body.message };
}

/** The current month in Costa Rica, and the one after it. */
function currentAndNextMonth(): [string, string] {
  const today = calendarDay(new Date());
  return [today.slice(0, 7), addDays(`${today.slice(0, 8)}28`, 4).slice(0, 7)];
}
const errorOf = (fn: () => unknown): Error => {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the call to throw');
};

describe('the built Code.js', () => {
  const code = () => readFileSync(path.join(DIST, 'Code.js'), 'utf8');

  test('has no import or export statement, and bundles under one private global', () => {
    expect(code()).not.toMatch(/^\s*(?:import|export)\b/m);
    expect(code()).toMatch(/^var CrcRates = \(\(\) => \{/m);
    expect(code()).not.toMatch(/\bzod\b/);
  });

  test('has exactly one @customfunction block per custom function, on its top-level stub', () => {
    const blocks = code().match(/\/\*\*(?:(?!\*\/)[\s\S])*@customfunction[\s\S]*?\*\/\s*function (\w+)\(([^)]*)\)/g) ?? [];
    expect(blocks).toHaveLength(7);
    expect(code().match(/@customfunction/g)).toHaveLength(7);
    const names = blocks.map((b) => /function (\w+)\(/.exec(b)![1]);
    expect(names.sort()).toEqual([...CUSTOM_FUNCTIONS].sort());
    for (const block of blocks) {
      expect(block).toMatch(/@param \{[^}]+\} \w+ .*Example/);
      expect(block).toMatch(/@return \{[^}]+\}/);
    }
    expect(code()).toContain('function EXCHANGERATE(date, type, currency) {\n  return CrcRates.EXCHANGERATE(date, type, currency);\n}');
    expect(code()).toContain('function EXCHANGECONVERT(amount, from, to, type, date) {');
    expect(code()).toContain('function EXCHANGECLOSE(month, type, measure, currency) {\n  return CrcRates.EXCHANGECLOSE(month, type, measure, currency);\n}');
    const close = blocks.find((b) => b.includes('function EXCHANGECLOSE('))!;
    expect(close.match(/@param \{[^}]+\} \w+/g)).toEqual([
      '@param {Date|string} month',
      '@param {string} type',
      '@param {string} measure',
      '@param {string} currency',
    ]);
    expect(close).toMatch(/@param \{string\} measure Optional\. "closing" \(default\).*#N\/A.*"average"/);
  });

  test('exposes the triggers and the sidebar functions as top-level functions', () => {
    for (const name of ['onOpen', 'onInstall', 'showSettings', 'freezeSelection', 'getSettings', 'saveSettings', 'testConnection', 'getUsage', 'removeKey']) {
      expect(code()).toMatch(new RegExp(`^function ${name}\\(`, 'm'));
    }
  });

  test('ships the manifest with V8, Costa Rica time, the three scopes and the API origin whitelisted', () => {
    const manifest = JSON.parse(readFileSync(path.join(DIST, 'appsscript.json'), 'utf8'));
    expect(manifest).toMatchObject({ runtimeVersion: 'V8', timeZone: 'America/Costa_Rica' });
    expect(manifest.oauthScopes).toEqual([
      'https://www.googleapis.com/auth/spreadsheets.currentonly',
      'https://www.googleapis.com/auth/script.container.ui',
      'https://www.googleapis.com/auth/script.external_request',
    ]);
    expect(manifest.urlFetchWhitelist).toEqual(['https://api.crc-rates.com/']);
    expect(readFileSync(path.join(DIST, 'Sidebar.html'), 'utf8')).toContain('<?!= boot ?>');
  });
});

test('a self-hosted build: --base-url writes the default address and the whitelist; --allow adds servers', async () => {
  const out = mkdtempSync(path.join(os.tmpdir(), 'crc-addon-base-'));
  const build = (...args: string[]) => promisify(execFile)(process.execPath, [path.join(ROOT, 'appsscript/build.mjs'), '--out', out, ...args], { cwd: ROOT });
  try {
    const { stdout } = await build('--base-url', 'https://Rates.Example.com', '--allow', 'https://backup.example.org/api/v1,https://third.example.net');
    expect(stdout).toContain(
      'default API address https://rates.example.com/api/v1; urlFetchWhitelist https://rates.example.com/, https://backup.example.org/, https://third.example.net/',
    );
    const manifest = JSON.parse(readFileSync(path.join(out, 'appsscript.json'), 'utf8'));
    expect(manifest.urlFetchWhitelist).toEqual(['https://rates.example.com/', 'https://backup.example.org/', 'https://third.example.net/']);
    // The default address is the one requests go to when the sheet names none.
    const g = loadGas({
      dist: out,
      fetch: (requests) => requests.map(() => ({ status: 200, headers: {}, body: '{"success":true,"data":{"date":"2025-01-31","buy":1,"sell":2}}' })),
      properties: { [KEY]: server.keys.main },
    });
    expect(g.run<{ defaultBaseUrl: string }>('getSettings').defaultBaseUrl).toBe('https://rates.example.com/api/v1');
    expect(g.run('EXCHANGERATE')).toBe(2);
    expect(g.calls.map((c) => c.url)).toEqual(['https://rates.example.com/api/v1/exchange-rate/latest']);
    await build('--base-url=https://rates.example.com/crc/api/v1/');
    expect(loadGas({ dist: out, fetch: () => [], properties: {} }).run<{ defaultBaseUrl: string }>('getSettings').defaultBaseUrl).toBe(
      'https://rates.example.com/crc/api/v1',
    );
    await expect(build('--base-url', 'http://rates.example.com')).rejects.toThrow(
      /--base-url must be an https:\/\/ address \(got "http:\/\/rates\.example\.com"\)/,
    );
    await expect(build('--base-url')).rejects.toThrow(/--base-url needs a value/);
    await expect(build('--bogus')).rejects.toThrow(/unknown argument "--bogus"/);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
  // Two builds of the whole add-on (about 2 s of CPU each) and three refused at once: a loaded machine needs more than jest's 30 s.
}, 120_000);

test('addon:push creates your own script project once, then builds with the same options and pushes', async () => {
  const out = mkdtempSync(path.join(os.tmpdir(), 'crc-addon-push-'));
  try {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [path.join(ROOT, 'appsscript/deploy.mjs'), '--dry-run', '--out', out, '--base-url', 'https://rates.example.com'],
      { cwd: ROOT },
    );
    const lines = stdout.trim().split('\n');
    const clasp = path.join(ROOT, 'node_modules/.bin/clasp');
    const created = lines[0] === `addon:push: would run (in appsscript): ${clasp} -P . create-script --type standalone --title "CRC Rates" --rootDir dist`;
    // Only a machine that has pushed before has appsscript/.clasp.json (git-ignored: the project is its own).
    expect(created).toBe(!existsSync(path.join(ROOT, 'appsscript/.clasp.json')));
    expect(lines.slice(created ? 1 : 0)).toEqual([
      `addon:build: ${path.relative(ROOT, out)}/ Code.js (16 entry points), Sidebar.html, appsscript.json`,
      'addon:build: default API address https://rates.example.com/api/v1; urlFetchWhitelist https://rates.example.com/',
      `addon:push: would run (in appsscript): ${clasp} -P . push --force`,
    ]);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test('the build takes another public address, and self-hosted servers for the whitelist', async () => {
  const out = mkdtempSync(path.join(os.tmpdir(), 'crc-addon-env-'));
  try {
    const env = { ...process.env, CRC_RATES_PUBLIC_URL: 'https://rates.example.com/api/v1/', CRC_RATES_URL_ALLOWLIST: 'https://own.example.org' };
    await promisify(execFile)(process.execPath, [path.join(ROOT, 'appsscript/build.mjs'), '--out', out], { cwd: ROOT, env });
    const manifest = JSON.parse(readFileSync(path.join(out, 'appsscript.json'), 'utf8'));
    expect(manifest.urlFetchWhitelist).toEqual(['https://rates.example.com/', 'https://own.example.org/']);
    const g = loadGas({ dist: out, fetch: () => [], properties: {} });
    expect(g.run<{ defaultBaseUrl: string }>('getSettings').defaultBaseUrl).toBe('https://rates.example.com/api/v1');
    const refused = promisify(execFile)(process.execPath, [path.join(ROOT, 'appsscript/build.mjs'), '--out', out], {
      cwd: ROOT,
      env: { ...process.env, CRC_RATES_URL_ALLOWLIST: 'http://plain.example.org' },
    });
    await expect(refused).rejects.toThrow(/CRC_RATES_URL_ALLOWLIST must be an https:\/\/ address/);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

describe('EXCHANGERATE', () => {
  test('with no date: the latest sell rate, with one request that carries the key, then from the cache', () => {
    const g = sheet();
    expect(g.run('EXCHANGERATE')).toBe(quoteOf(LAST).sell);
    expect(paths(g)).toEqual(['/exchange-rate/latest']);
    expect(g.calls[0]!.headers['x-api-key']).toBe(server.keys.main);
    expect(g.calls[0]!.muteHttpExceptions).toBe(true);
    expect(g.run('EXCHANGERATE', '', 'buy')).toBe(quoteOf(LAST).buy);
    expect(g.run('EXCHANGERATE', undefined, 'VENTA')).toBe(quoteOf(LAST).sell);
    expect(g.calls).toHaveLength(1);
  });

  test('latest moves: it is kept five minutes, not six hours', () => {
    const g = sheet();
    g.run('EXCHANGERATE');
    g.advance(299);
    g.run('EXCHANGERATE');
    expect(g.calls).toHaveLength(1);
    g.advance(2);
    g.run('EXCHANGERATE');
    expect(g.calls).toHaveLength(2);
  });

  test('a Date cell in a zone east of UTC is read as its own day, not the UTC one', () => {
    const g = sheet({ timeZone: 'Europe/Madrid' });
    const date = cell('2025-01-15', 'Europe/Madrid');
    expect(date.toISOString()).toBe('2025-01-14T23:00:00.000Z');
    expect(g.run('EXCHANGERATE', date)).toBe(512.82);
    expect(g.run('EXCHANGERATE', date, 'buy')).toBe(506.47);
    // The whole month came with the first request: the 14th is in the cache.
    expect(g.run('EXCHANGERATE', '2025-01-14')).toBe(quoteOf('2025-01-14').sell);
    expect(paths(g)).toEqual(['/exchange-rate/range?from=2025-01-01&to=2025-01-31']);
  });

  test('a Date cell in a zone far west of UTC, and date serial numbers', () => {
    const g = sheet({ timeZone: 'Pacific/Honolulu' });
    expect(g.run('EXCHANGERATE', cell('2024-12-31', 'Pacific/Honolulu'))).toBe(quoteOf('2024-12-31').sell);
    // 45672 is 2025-01-15 as a serial day number (a date cell formatted as a number).
    expect(g.run('EXCHANGERATE', 45672)).toBe(512.82);
  });

  test('a 1,000-cell range: one request for all of it, the same shape back, blanks blank, bad cells marked', () => {
    const tz = 'Europe/Madrid';
    const g = sheet({ timeZone: tz });
    const first = '2024-02-15';
    const rows: unknown[][] = [];
    for (let r = 0; r < 250; r++) {
      const row: unknown[] = [];
      for (let c = 0; c < 4; c++) {
        const i = r * 4 + c;
        row.push(cell(addDays(first, i % 351), tz));
      }
      rows.push(row);
    }
    rows[3]![1] = '';
    rows[10]![0] = 'not a date';
    rows[11]![2] = '2024-07-04';
    rows[12]![3] = '2024-02-30';
    rows[13]![0] = cell('2025-02-05', tz); // after the last published day
    rows[14]![1] = true;

    const out = g.run<unknown[][]>('EXCHANGERATE', rows, 'buy');
    expect(g.calls).toHaveLength(1);
    expect(paths(g)[0]).toBe('/exchange-rate/range?from=2024-02-15&to=2025-02-05');
    expect(out).toHaveLength(250);
    expect(out.every((row) => row.length === 4)).toBe(true);
    expect(out[0]![0]).toBe(quoteOf('2024-02-15').buy);
    expect(out[249]![3]).toBe(quoteOf(addDays(first, 999 % 351)).buy);
    expect(out[3]![1]).toBe('');
    expect(out[10]![0]).toBe('Not a date');
    expect(out[11]![2]).toBe(quoteOf('2024-07-04').buy);
    expect(out[12]![3]).toBe('Not a date');
    expect(out[13]![0]).toBe('No rate');
    expect(out[14]![1]).toBe('Not a date');
    for (let r = 20; r < 250; r += 37) {
      for (let c = 0; c < 4; c++) expect(out[r]![c]).toBe(quoteOf(addDays(first, (r * 4 + c) % 351)).buy);
    }
    // One cache read and one cache write, of month buckets (not a thousand keys).
    expect(g.cache.ops).toMatchObject({ getAll: 1, putAll: 1, get: 0, put: 0 });
    expect(g.cache.keys().length).toBeLessThanOrEqual(13);
    expect(g.cache.ttls).toEqual([21_600]);

    // Again, and with the other side: no request at all.
    const again = g.run<unknown[][]>('EXCHANGERATE', rows, 'sell');
    expect(g.calls).toHaveLength(1);
    expect(again[0]![0]).toBe(quoteOf('2024-02-15').sell);
    expect(g.cache.ops.getAll).toBe(2);
  });

  test('a span longer than the API allows is split into as few requests as fit, made together', () => {
    const g = sheet();
    const rows = [['2023-01-01'], ['2023-12-31'], ['2024-06-30'], ['2025-01-31'], ['2023-06-15']];
    const out = g.run<unknown[][]>('EXCHANGERATE', rows);
    expect(out).toEqual(rows.map(([d]) => [quoteOf(d!).sell]));
    // 2023-01-01 … 2023-12-31 in one, 2024-06-30 … 2025-01-31 in the other.
    expect(g.calls.length).toBe(2);
    for (const p of paths(g)) {
      const [, from, to] = /from=([\d-]+)&to=([\d-]+)/.exec(p)!;
      expect(daysBetween(from!, to!)).toBeLessThanOrEqual(366);
    }
  });

  test('a single bad or unpublished date fails the call with a message', () => {
    const g = sheet();
    expect(errorOf(() => g.run('EXCHANGERATE', 'yesterday')).message).toBe('date must be a date cell or YYYY-MM-DD text (got "yesterday")');
    expect(errorOf(() => g.run('EXCHANGERATE', '2099-01-01')).message).toBe('No rate for 2099-01-01');
    expect(errorOf(() => g.run('EXCHANGERATE', '', 'middle')).message).toBe(
      'type must be "buy", "sell" or a purpose such as "invoice" or "income-tax" (got "middle")',
    );
  });

  test('Spanish messages in a Spanish spreadsheet', () => {
    const g = sheet({ locale: 'es_CR' });
    const out = g.run<unknown[][]>('EXCHANGERATE', [['2025-01-15', 'x', '2099-01-01']]);
    expect(out).toEqual([[512.82, 'Fecha inválida', 'Sin tipo de cambio']]);
    expect(errorOf(() => g.run('EXCHANGERATE', '', 'medio')).message).toBe(
      'tipo debe ser "compra", "venta" o un propósito como "factura" o "renta" (se recibió "medio")',
    );
  });
});

describe('EXCHANGEMONEX', () => {
  test('a day’s weighted average by default, each measure, and the latest session with no date', () => {
    const g = sheet();
    const day = '2025-01-15';
    const figures = monexOf(day);
    expect(g.run('EXCHANGEMONEX', day)).toBe(figures?.average);
    expect(g.run('EXCHANGEMONEX', day, 'max')).toBe(figures?.max);
    expect(g.run('EXCHANGEMONEX', day, 'minimo')).toBe(figures?.min);
    expect(g.run('EXCHANGEMONEX', day, 'volume')).toBe(figures?.volume);
    expect(g.run('EXCHANGEMONEX', day, 'session')).toBe(true);
    // The first call fetched the month span; the others came from the cache.
    expect(paths(g)).toEqual([`/monex/range?from=2025-01-01&to=2025-01-31`]);
    expect(g.run('EXCHANGEMONEX')).toBe(monexOf(LAST)?.average);
  });

  test('a day without a session is #N/A (FALSE for session), never 0; a day not known yet says so', () => {
    const g = sheet();
    expect(g.run('EXCHANGEMONEX', '2025-01-11')).toBe('#N/A');
    expect(g.run('EXCHANGEMONEX', '2025-01-01', 'volume')).toBe('#N/A');
    expect(g.run('EXCHANGEMONEX', '2025-01-12', 'session')).toBe(false);
    expect(g.run('EXCHANGEMONEX', '2025-02-03')).toBe('Not known yet');
  });

  test('a range of dates is one request to /monex/range, answered in its shape', () => {
    const g = sheet();
    const days = ['2025-01-09', '2025-01-10', '2025-01-11', '2025-01-13'];
    const range = [...days.map((d) => [cell(d, g.timeZone)]), [''], ['nope']];
    expect(g.run('EXCHANGEMONEX', range, 'average')).toEqual([
      [monexOf('2025-01-09')?.average],
      [monexOf('2025-01-10')?.average],
      ['#N/A'],
      [monexOf('2025-01-13')?.average],
      [''],
      ['Not a date'],
    ]);
    expect(paths(g)).toEqual(['/monex/range?from=2025-01-01&to=2025-01-31']);
  });

  test('a measure it does not know fails the call with a message, before any request', () => {
    const g = sheet();
    expect(errorOf(() => g.run('EXCHANGEMONEX', '2025-01-15', 'median')).message).toBe(
      'measure must be "average", "min", "max", "volume" or "session" (got "median")',
    );
    expect(g.calls).toEqual([]);
  });
});

describe('EXCHANGECONVERT', () => {
  test('USD→CRC multiplies by the latest sell rate; CRC→USD divides', () => {
    const g = sheet();
    const sell = quoteOf(LAST).sell;
    expect(g.run('EXCHANGECONVERT', 100, 'USD', 'CRC')).toBe(Math.round(sell * 100 * 100) / 100);
    expect(g.run('EXCHANGECONVERT', 10_000, 'crc', 'usd', 'sell', '2025-01-15')).toBe(19.5);
    expect(paths(g)).toEqual(['/exchange-rate/latest', '/exchange-rate/range?from=2025-01-01&to=2025-01-31']);
  });

  test('exact rounding, half away from zero: 0.5 × 493.35 = 246.68 and 0.1 × 506.47 = 50.65', () => {
    const g = sheet();
    const amounts = [[0.5], [0.1], [''], ['abc'], ['12.5'], [-0.5], [0.15], [0], ['1e13']];
    expect(g.run('EXCHANGECONVERT', amounts, 'USD', 'CRC', 'sell', '2024-06-03')).toEqual([
      [246.68],
      [49.34],
      [''],
      ['Not a number'],
      [6166.88],
      ['Out of range'],
      [74],
      ['Out of range'],
      ['Out of range'],
    ]);
    expect(g.calls).toHaveLength(1);
    expect(g.run('EXCHANGECONVERT', 0.1, 'USD', 'CRC', 'buy', cell('2025-01-15', 'America/Costa_Rica'))).toBe(50.65);
  });

  test('a range of amounts takes one rate fetch; the same currency takes none, and no key', () => {
    const g = sheet();
    const amounts = Array.from({ length: 200 }, (_, i) => [i + 0.25, i * 3]);
    const out = g.run<number[][]>('EXCHANGECONVERT', amounts, 'USD', 'CRC', 'buy');
    expect(g.calls).toHaveLength(1);
    // 7.25 × buy in integers: cents × 725 is in units of 0.0001 CRC; halves round up.
    const buyCents = Math.round(quoteOf(LAST).buy * 100);
    expect(out[7]![0]).toBe(Math.round((buyCents * 725) / 100) / 100);
    expect(out[199]![1]).toBe((buyCents * 597) / 100);

    const keyless = sheet({ key: null });
    expect(keyless.run('EXCHANGECONVERT', [[1.005], [2]], 'USD', 'usd')).toEqual([[1.01], [2]]);
    expect(keyless.calls).toHaveLength(0);
  });

  test('bad currencies and a missing amount fail the call', () => {
    const g = sheet();
    expect(errorOf(() => g.run('EXCHANGECONVERT', 1, 'EURO', 'CRC')).message).toBe(
      `from must be "CRC" or a supported currency code: ${CURRENCY_CODES.join(', ')} (got "EURO")`,
    );
    expect(errorOf(() => g.run('EXCHANGECONVERT', 1, 'EUR', 'USD')).message).toBe(
      'from or to must be "CRC": every rate is in colones (got "EUR" and "USD"); convert in two steps, through CRC',
    );
    expect(errorOf(() => g.run('EXCHANGECONVERT', '', 'USD', 'CRC')).message).toBe('amount is required: a number or a range of numbers');
    expect(errorOf(() => g.run('EXCHANGECONVERT', 1, 'USD', 'CRC', 'sell', [['2025-01-01'], ['2025-01-02']])).message).toBe(
      'date must be a single value, not a range',
    );
    expect(g.calls).toHaveLength(0);
  });
});

describe('other currencies', () => {
  interface Rate {
    date: string;
    buy: number;
    sell: number;
    carriedFrom?: string;
  }
  const codes = CURRENCY_CODES.join(', ');
  /** The rate in force on `date` as the API answers it with fill=previous. */
  const filled = (date: string, currency: string) => api<Rate>(`/exchange-rate?date=${date}&currency=${currency}&fill=previous`).data;

  test('EXCHANGERATE(date, "sell", "EUR"): the dollar’s rate × the euro’s cross rate of the day, exactly; the month in one request', () => {
    const g = sheet();
    // 512.82 × 1.0301 = 528.255882 and 506.47 × 1.0301 = 521.714747, to 2 decimals.
    expect(g.run('EXCHANGERATE', '2025-01-15', 'sell', 'EUR')).toBe(528.26);
    expect(g.run('EXCHANGERATE', '2025-01-15', 'buy', 'eur')).toBe(521.71);
    expect(paths(g)).toEqual(['/exchange-rate/range?from=2025-01-01&to=2025-01-31&currency=EUR']);
    expect(api<Rate>('/exchange-rate?date=2025-01-15&currency=EUR').data).toMatchObject({ sell: 528.26, buy: 521.71 });
    // A yen is worth about 3.3 colones: 512.82 ÷ 156.42 to 6 significant digits, never rounded to 0.
    expect(g.run('EXCHANGERATE', '2025-01-15', 'venta', 'JPY')).toBe(3.27848);
    expect(g.run('EXCHANGERATE', '2025-01-15', 'compra', ' jpy ')).toBe(3.23789);
    // The dollar's month is its own request, without currency.
    expect(g.run('EXCHANGERATE', '2025-01-15', 'sell')).toBe(512.82);
    expect(paths(g).slice(1)).toEqual([
      '/exchange-rate/range?from=2025-01-01&to=2025-01-31&currency=JPY',
      '/exchange-rate/range?from=2025-01-01&to=2025-01-31',
    ]);
  });

  test('a weekend or a holiday abroad gives the rate before it, as fill=previous does; before the series, no rate', () => {
    const g = sheet();
    // Saturday 2025-01-18; Good Friday 2024-03-29 and the weekend after it.
    for (const [date, from] of [
      ['2025-01-18', '2025-01-17'],
      ['2025-01-19', '2025-01-17'],
      ['2024-03-29', '2024-03-28'],
      ['2024-03-31', '2024-03-28'],
    ] as const) {
      expect(filled(date, 'EUR')).toMatchObject({ date, carriedFrom: from });
      expect([date, g.run('EXCHANGERATE', date, 'sell', 'EUR')]).toEqual([date, filled(date, 'EUR').sell]);
    }
    expect(api(`/exchange-rate?date=2025-01-18&currency=EUR`)).toMatchObject({ status: 404, message: expect.stringContaining('2025-01-17') });
    expect(errorOf(() => g.run('EXCHANGERATE', '2023-12-29', 'sell', 'EUR')).message).toBe('No EUR rate for 2023-12-29');
    expect(api('/exchange-rate?date=2023-12-29&currency=EUR&fill=previous').status).toBe(404);
  });

  test('a range of dates in EUR is one request: every cell the rate in force, as fill=previous answers it', () => {
    const g = sheet();
    const first = '2024-02-01';
    const rows = Array.from({ length: daysBetween(first, LAST) + 1 }, (_, i) => [addDays(first, i)]);
    const out = g.run<unknown[][]>('EXCHANGERATE', rows, 'sell', 'EUR');
    expect(paths(g)).toEqual(['/exchange-rate/range?from=2024-01-31&to=2025-01-31&currency=EUR']);
    // The API's own series, carried over its gaps here.
    const series = new Map(api<Rate[]>('/exchange-rate/range?from=2024-01-31&to=2025-01-31&currency=EUR').data.map((r) => [r.date, r.sell]));
    let inForce = series.get('2024-01-31');
    rows.forEach(([date], i) => {
      inForce = series.get(date as string) ?? inForce;
      expect([date, out[i]![0]]).toEqual([date, inForce]);
    });
    expect(series.has('2024-03-30')).toBe(false);
    for (const date of ['2024-03-30', '2024-12-25', '2025-01-01', '2025-01-26']) {
      expect([date, out[daysBetween(first, date)]![0]]).toEqual([date, filled(date, 'EUR').sell]);
    }
    // Again, on the other side: from the cache.
    expect(g.run<unknown[][]>('EXCHANGERATE', rows, 'buy', 'EUR')[0]![0]).toBe(filled(first, 'EUR').buy);
    expect(g.calls).toHaveLength(1);
  });

  test('EXCHANGECONVERT(100, "EUR", "CRC") and back, as /convert answers', () => {
    const g = sheet();
    expect(g.run('EXCHANGECONVERT', 100, 'EUR', 'CRC', 'sell', '2025-01-15')).toBe(52_826);
    expect(api<{ result: number }>('/convert?amount=100&from=EUR&to=CRC&date=2025-01-15').data.result).toBe(52_826);
    // Colones into yen on a Saturday: the rate in force, divided.
    const yen = api<{ result: number; carriedFrom: string }>('/convert?amount=1000&from=CRC&to=JPY&date=2025-01-18&fill=previous').data;
    expect(yen.carriedFrom).toBe('2025-01-17');
    expect(g.run('EXCHANGECONVERT', 1000, 'CRC', 'JPY', 'sell', '2025-01-18')).toBe(yen.result);
    // The latest euro.
    expect(g.run('EXCHANGECONVERT', 100, 'eur', 'crc')).toBe(api<{ result: number }>('/convert?amount=100&from=EUR&to=CRC').data.result);
    expect(paths(g)).toEqual([
      '/exchange-rate/range?from=2025-01-01&to=2025-01-31&currency=EUR',
      '/exchange-rate/range?from=2025-01-01&to=2025-01-31&currency=JPY',
      '/exchange-rate/latest?currency=EUR',
    ]);
    // Neither side CRC: refused here as /convert refuses it, before any request.
    expect(errorOf(() => g.run('EXCHANGECONVERT', 100, 'EUR', 'JPY')).message).toBe(
      'from or to must be "CRC": every rate is in colones (got "EUR" and "JPY"); convert in two steps, through CRC',
    );
    expect(api('/convert?amount=100&from=EUR&to=JPY').status).toBe(400);
    expect(g.calls).toHaveLength(3);
  });

  test('EXCHANGECLOSE(month, "sell", "average", "EUR") is /close’s average; a month ending on a weekend closes with the rate in force', () => {
    const g = sheet();
    const close = (month: string) => api<MonthClose>(`/exchange-rate/close?month=${month}&currency=EUR`).data;
    expect(g.run('EXCHANGECLOSE', '2024-06', 'sell', 'average', 'EUR')).toBe(close('2024-06').sell.average);
    expect(paths(g)).toEqual(['/exchange-rate/stats?period=monthly&from=2024-06-01&to=2024-06-30&currency=EUR']);
    const months = [['2024-03'], ['2024-08'], ['2024-10'], ['2023-12']];
    const closing = g.run<unknown[][]>('EXCHANGECLOSE', months, 'buy', 'closing', 'EUR');
    const average = g.run<unknown[][]>('EXCHANGECLOSE', months, 'buy', 'average', 'EUR');
    expect(paths(g).slice(1)).toEqual(['/exchange-rate/stats?period=monthly&from=2023-12-01&to=2024-10-31&currency=EUR']);
    // March ends on a Sunday after Good Friday, August on a Saturday: /close has no closing record, the rate in force is Thursday's and Friday's.
    expect(close('2024-03').closing).toBeNull();
    expect(close('2024-08').closing).toBeNull();
    expect(closing).toEqual([[filled('2024-03-31', 'EUR').buy], [filled('2024-08-31', 'EUR').buy], [close('2024-10').closing!.buy], ['No rate']]);
    expect(filled('2024-03-31', 'EUR').carriedFrom).toBe('2024-03-28');
    expect(average.slice(0, 3)).toEqual([[close('2024-03').buy.average], [close('2024-08').buy.average], [close('2024-10').buy.average]]);
    expect(errorOf(() => g.run('EXCHANGECLOSE', '2023-12', 'sell', 'closing', 'EUR')).message).toBe('No EUR rate in 2023-12');
    expect(g.calls).toHaveLength(2);
  });

  test('an unknown currency: a message that names the argument and lists the codes, before any request; the API refuses it too', () => {
    const g = sheet();
    expect(errorOf(() => g.run('EXCHANGERATE', '2025-01-15', 'sell', 'XYZ')).message).toBe(
      `currency must be a supported currency code (USD when empty): ${codes} (got "XYZ")`,
    );
    expect(errorOf(() => g.run('EXCHANGECLOSE', '2025-01', 'sell', 'average', 'CRC')).message).toBe(
      `currency must be a supported currency code (USD when empty): ${codes} (got "CRC")`,
    );
    expect(errorOf(() => sheet({ locale: 'es_CR' }).run('EXCHANGERATE', '', '', 'euro')).message).toBe(
      `moneda debe ser un código de moneda admitido (USD si se deja vacía): ${codes} (se recibió "euro")`,
    );
    expect(errorOf(() => g.run('EXCHANGECONVERT', 1, 'CRC', 'XYZ')).message).toBe(`to must be "CRC" or a supported currency code: ${codes} (got "XYZ")`);
    expect(g.calls).toHaveLength(0);
    expect(api('/exchange-rate?date=2025-01-15&currency=XYZ')).toMatchObject({ status: 400, message: expect.stringContaining('/api/v1/currencies') });
    // Every code the add-on takes, the API takes.
    const listed = api<Array<{ code: string }>>('/currencies').data.map((c) => c.code);
    expect(listed).toEqual([...CURRENCY_CODES]);
  });

  test('the help of the built functions names the currency argument, how many currencies there are and how far a rate is carried', () => {
    const code = readFileSync(path.join(DIST, 'Code.js'), 'utf8');
    const blocks = new Map([...code.matchAll(/\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\s*function (\w+)\(/g)].map((m) => [m[2], m[1]!]));
    const rate = blocks.get('EXCHANGERATE')!;
    expect(rate).toMatch(/@param \{string\} currency Optional\. .*"USD" \(default.*"EUR".*Example: "EUR"/);
    expect(rate).toContain(`lists all ${CURRENCY_CODES.length}`);
    expect(rate).toContain(`up to ${CARRY_DAYS} days back`);
    expect(rate).toMatch(/@return \{number\} CRC per 1 unit of the currency/);
    expect(blocks.get('EXCHANGECLOSE')).toMatch(/@param \{string\} currency Optional\. .*"EUR".*Extensions → CRC Rates → Settings/);
    expect(blocks.get('EXCHANGECLOSE')).toContain(`all ${CURRENCY_CODES.length} in`);
    expect(blocks.get('EXCHANGECONVERT')).toContain(`all ${CURRENCY_CODES.length} in`);
    expect(blocks.get('EXCHANGECONVERT')).toMatch(/@param \{string\} from .*"CRC" or a currency code.*One of from and to must be "CRC"/);
  });
});

describe('EXCHANGEHISTORY', () => {
  test('a header row, then one row per day with real dates at midnight in the sheet zone', () => {
    const tz = 'Asia/Tokyo';
    const g = sheet({ timeZone: tz });
    const table = g.run<unknown[][]>('EXCHANGEHISTORY', 7);
    expect(table[0]).toEqual(['Date', 'Buy', 'Sell']);
    expect(table).toHaveLength(8);
    const days = Array.from({ length: 7 }, (_, i) => addDays(LAST, i - 6));
    table.slice(1).forEach((row, i) => {
      const date = row[0] as Date;
      expect(Object.prototype.toString.call(date)).toBe('[object Date]');
      expect(date.getTime()).toBe(cell(days[i]!, tz).getTime());
      expect(formatDate(date, tz, 'yyyy-MM-dd HH:mm')).toBe(`${days[i]} 00:00`);
      expect(row.slice(1)).toEqual([quoteOf(days[i]!).buy, quoteOf(days[i]!).sell]);
    });
    expect(paths(g)).toEqual(['/exchange-rate/history?days=7']);
    g.run('EXCHANGEHISTORY', 7);
    expect(g.calls).toHaveLength(1);
  });

  test('30 days by default; the header follows the locale; days are checked', () => {
    const g = sheet({ locale: 'es' });
    const table = g.run<unknown[][]>('EXCHANGEHISTORY');
    expect(table[0]).toEqual(['Fecha', 'Compra', 'Venta']);
    expect(table).toHaveLength(31);
    expect(errorOf(() => g.run('EXCHANGEHISTORY', 366)).message).toBe('días debe ser un número entero de 1 a 365 (se recibió "366")');
    expect(paths(g)).toEqual(['/exchange-rate/history?days=30']);
  });
});

describe('EXCHANGEBEST', () => {
  test('the ranking for selling dollars to you: lowest sell first, with vs official', () => {
    const g = sheet();
    const table = g.run<unknown[][]>('EXCHANGEBEST', 'sell');
    expect(table[0]).toEqual(['Rank', 'Institution', 'Type', 'Buy', 'Sell', 'vs official']);
    const sorted = [...INSTITUTIONS].sort((a, b) => a.sell - b.sell);
    expect(table.slice(1).map((r) => r[1])).toEqual(sorted.map((i) => i.name));
    expect(table[1]).toEqual([1, 'Teledolar', 'Exchange house', 507.5, 513.25, Math.round((513.25 - quoteOf(LAST).sell) * 1e4) / 1e4]);
    expect(paths(g)).toEqual(['/banking/best?operation=sell']);
  });

  test('"compra" in Spanish: highest buy first, Spanish headers and types', () => {
    const g = sheet({ locale: 'es_419' });
    const table = g.run<unknown[][]>('EXCHANGEBEST', 'Compra');
    expect(table[0]).toEqual(['Posición', 'Entidad', 'Tipo', 'Compra', 'Venta', 'vs. oficial']);
    expect(table[1]!.slice(0, 3)).toEqual([1, 'Teledolar', 'Casa de cambio']);
    expect(table[4]!.slice(1, 3)).toEqual(['Coopeservidores', 'Cooperativa']);
    expect(errorOf(() => g.run('EXCHANGEBEST')).message).toBe('operación debe ser "compra" o "venta" (se recibió "")');
  });
});

describe('EXCHANGEANALYTICS', () => {
  test('a two-column table of metric and value for buy and sell', () => {
    const g = sheet();
    const table = g.run<unknown[][]>('EXCHANGEANALYTICS', 30);
    expect(table[0]).toEqual(['Metric', 'Value']);
    expect(table.every((row) => row.length === 2)).toBe(true);
    const rows = new Map(table.map((r) => [r[0], r[1]]));
    expect(rows.get('Days with a rate')).toBe(30);
    expect((rows.get('From') as Date).getTime()).toBe(cell(addDays(LAST, -29), 'America/Costa_Rica').getTime());
    expect(rows.get('Buy: last')).toBe(quoteOf(LAST).buy);
    expect(rows.get('Sell: first')).toBe(quoteOf(addDays(LAST, -29)).sell);
    expect(['up', 'down', 'stable']).toContain(rows.get('Sell: trend'));
    expect(rows.has('Buy: volatility %')).toBe(true);
    expect(table).toHaveLength(4 + 2 * 12);
    expect(paths(g)).toEqual(['/exchange-rate/analytics?days=30']);
  });
});

describe('EXCHANGECLOSE', () => {
  /** Every month from 2022-12 (before the data) to 2025-02 (after it): April 2023 lacks its last day, March 2023 a day inside. */
  const MONTHS: string[] = [];
  for (let m = '2022-12'; m <= '2025-02'; m = addDays(`${m}-28`, 4).slice(0, 7)) MONTHS.push(m);

  /** What /exchange-rate/close says of a month, as EXCHANGECLOSE shows it in a cell of a range. */
  function expected(month: string, side: 'buy' | 'sell', measure: 'closing' | 'average'): number | string {
    const close = api<MonthClose>(`/exchange-rate/close?month=${month}`);
    if (close.status === 404) return 'No rate';
    expect(close.status).toBe(200);
    if (measure === 'average') return close.data[side].average;
    return close.data.closing ? close.data.closing[side] : '#N/A';
  }

  test('a range of months: one request for all of them, every cell equal to /exchange-rate/close, both sides and measures', () => {
    const [, next] = currentAndNextMonth();
    const rows: unknown[][] = [...MONTHS.map((m) => [m]), [''], ['not a month'], [next]];
    const g = sheet();
    const closing = g.run<unknown[][]>('EXCHANGECLOSE', rows, 'buy');
    expect(paths(g)).toEqual(['/exchange-rate/stats?period=monthly&from=2022-12-01&to=2025-02-28']);
    expect(closing.slice(MONTHS.length)).toEqual([[''], ['Not a month'], ['Future month']]);
    // The other side and the other measure come from the cache: still one request.
    const outputs = {
      'buy closing': closing,
      'buy average': g.run<unknown[][]>('EXCHANGECLOSE', rows, 'compra', 'Average'),
      'sell closing': g.run<unknown[][]>('EXCHANGECLOSE', rows, '', 'cierre'),
      'sell average': g.run<unknown[][]>('EXCHANGECLOSE', rows, 'sell', 'promedio'),
    };
    expect(g.calls).toHaveLength(1);
    for (const [what, out] of Object.entries(outputs)) {
      const [side, measure] = what.split(' ') as ['buy' | 'sell', 'closing' | 'average'];
      MONTHS.forEach((month, i) => {
        expect([what, month, out[i]![0]]).toEqual([what, month, expected(month, side, measure)]);
      });
    }
    // The figures the fixtures give: a complete month closes with its last day; April 2023 has no closing record.
    expect(outputs['sell closing'][MONTHS.indexOf('2025-01')]![0]).toBe(quoteOf('2025-01-31').sell);
    expect(outputs['sell closing'][MONTHS.indexOf('2023-03')]![0]).toBe(quoteOf('2023-03-31').sell);
    expect(outputs['buy closing'][MONTHS.indexOf('2023-04')]![0]).toBe('#N/A');
    expect(typeof outputs['buy average'][MONTHS.indexOf('2023-04')]![0]).toBe('number');
    expect(outputs['buy closing'][0]![0]).toBe('No rate');
  });

  test('one month: a date cell of any day of it, or YYYY-MM text; closing by default, sell by default', () => {
    const g = sheet({ timeZone: 'Europe/Madrid' });
    expect(g.run('EXCHANGECLOSE', '2025-01')).toBe(quoteOf('2025-01-31').sell);
    // Midnight of 2024-06-01 in Madrid is still May in UTC: the sheet's zone decides.
    expect(g.run('EXCHANGECLOSE', cell('2024-06-01', 'Europe/Madrid'), 'buy')).toBe(quoteOf('2024-06-30').buy);
    expect(g.run('EXCHANGECLOSE', '2024-06-15', 'buy', 'average')).toBe(api<MonthClose>('/exchange-rate/close?month=2024-06').data.buy.average);
    expect(paths(g)).toEqual([
      '/exchange-rate/stats?period=monthly&from=2025-01-01&to=2025-01-31',
      '/exchange-rate/stats?period=monthly&from=2024-06-01&to=2024-06-30',
    ]);
  });

  test('a month with no closing record: an #N/A message that says the month is not complete; its average still answers', () => {
    const g = sheet();
    expect(errorOf(() => g.run('EXCHANGECLOSE', '2023-04')).message).toBe(
      '#N/A: 2023-04 has no closing rate: the month is not complete (2023-04-30 has no rate)',
    );
    expect(api<MonthClose>('/exchange-rate/close?month=2023-04').data).toMatchObject({ complete: false, closing: null, missing: ['2023-04-10', '2023-04-30'] });
    expect(g.run('EXCHANGECLOSE', '2023-04', 'sell', 'average')).toBe(api<MonthClose>('/exchange-rate/close?month=2023-04').data.sell.average);
    const es = sheet({ locale: 'es_CR' });
    expect(errorOf(() => es.run('EXCHANGECLOSE', '2023-04', 'venta')).message).toBe(
      '#N/A: 2023-04 no tiene tipo de cambio de cierre: el mes no está completo (2023-04-30 no tiene tipo de cambio)',
    );
    expect(errorOf(() => g.run('EXCHANGECLOSE', '2022-12')).message).toBe('No rate in 2022-12');
    expect(errorOf(() => es.run('EXCHANGECLOSE', '2022-12')).message).toBe('No hay tipo de cambio en 2022-12');
  });

  test('bad months, future months and bad measures fail the call before any request, in the API’s words', () => {
    const [current, next] = currentAndNextMonth();
    const g = sheet();
    const es = sheet({ locale: 'es' });
    expect(errorOf(() => g.run('EXCHANGECLOSE', next)).message).toBe(`month must not be after the current month, ${current} (got "${next}")`);
    expect(errorOf(() => es.run('EXCHANGECLOSE', next)).message).toBe(`mes no puede ser posterior al mes en curso, ${current} (se recibió "${next}")`);
    // The API refuses the same month with the same rule.
    expect(api(`/exchange-rate/close?month=${next}`)).toMatchObject({
      status: 400,
      message: `Parameter "month" ${ARGUMENT_RULES.en.notAfterCurrentMonth(current)} (got "${next}")`,
    });
    for (const bad of ['2025-13', 'January', '2025/01', '']) {
      expect(errorOf(() => g.run('EXCHANGECLOSE', bad)).message).toBe(`month must be a date cell or ${ARGUMENT_RULES.en.month} (got "${bad}")`);
    }
    expect(api('/exchange-rate/close?month=2025-13')).toMatchObject({
      status: 400,
      message: `Parameter "month" must be ${ARGUMENT_RULES.en.month} (got "2025-13")`,
    });
    expect(errorOf(() => es.run('EXCHANGECLOSE', 'enero')).message).toBe(
      'mes debe ser una celda de fecha o un mes del calendario como AAAA-MM, no posterior al mes en curso (se recibió "enero")',
    );
    expect(errorOf(() => g.run('EXCHANGECLOSE', '2025-01', 'sell', 'median')).message).toBe('measure must be "closing" or "average" (got "median")');
    expect(errorOf(() => es.run('EXCHANGECLOSE', '2025-01', 'venta', 'mediana')).message).toBe('medida debe ser "cierre" o "promedio" (se recibió "mediana")');
    expect(g.calls).toHaveLength(0);
    expect(es.calls).toHaveLength(0);
  });
});

describe('a purpose as the type', () => {
  test('EXCHANGERATE and EXCHANGECONVERT take a purpose id or its Spanish name, and the side its rule names', () => {
    const g = sheet();
    const day = quoteOf('2024-06-03');
    expect(g.run('EXCHANGERATE', '2024-06-03', 'consumidor-dólares')).toBe(day.buy);
    expect(g.run('EXCHANGERATE', '2024-06-03', 'Consumer_Pay_Dollars')).toBe(day.buy);
    expect(g.run('EXCHANGERATE', '2024-06-03', 'factura')).toBe(day.sell);
    expect(g.run('EXCHANGERATE', '2024-06-03', 'ADUANA')).toBe(day.sell);
    // The API's purpose gives the same side and value.
    const viaApi = api<{ sell: number; buy: number; purpose: { side: string } }>('/exchange-rate?date=2024-06-03&purpose=consumer-pay-dollars');
    expect(viaApi.data.purpose.side).toBe('buy');
    expect(g.run('EXCHANGECONVERT', 100, 'USD', 'CRC', 'renta', '2024-06-03')).toBe(Math.round(day.sell * 100 * 100) / 100);
    expect(g.run('EXCHANGECONVERT', 100, 'USD', 'CRC', 'consumidor-dolares', '2024-06-03')).toBe(Math.round(day.buy * 100 * 100) / 100);
    const es = sheet({ locale: 'es' });
    expect(errorOf(() => es.run('EXCHANGERATE', '2024-06-03', 'hacienda')).message).toBe(
      'tipo debe ser "compra", "venta" o un propósito como "factura" o "renta" (se recibió "hacienda")',
    );
  });

  test('EXCHANGECLOSE with "renta" closes a month with December 31 of its year, as /close’s purposeRate; a fiscal close to come is #N/A', () => {
    const g = sheet();
    const close = api<MonthClose & { purposeRate: { date: string; side: string; value: number } | null }>(
      '/exchange-rate/close?month=2024-06&purpose=income-tax',
    );
    expect(close.data.purposeRate).toEqual({ date: '2024-12-31', side: 'sell', value: quoteOf('2024-12-31').sell });
    expect(g.run('EXCHANGECLOSE', '2024-06', 'renta')).toBe(quoteOf('2024-12-31').sell);
    // A range of a year's months: every month closes with the same December, one request for it.
    const months = ['2024-01', '2024-06', '2024-12', '', '2025-01'].map((m) => [m]);
    const fresh = sheet();
    const year = fresh.run<unknown[][]>('EXCHANGECLOSE', months, 'income-tax');
    const [current] = currentAndNextMonth();
    const december = quoteOf('2024-12-31').sell;
    expect(year.slice(0, 4)).toEqual([[december], [december], [december], ['']]);
    // The data end in January 2025: December 2025, over, has no rate.
    expect(year[4]![0]).toBe('No rate');
    // The average is the month's own, purpose or not.
    expect(g.run('EXCHANGECLOSE', '2024-06', 'renta', 'average')).toBe(api<MonthClose>('/exchange-rate/close?month=2024-06').data.sell.average);
    const pendingYear = current.slice(0, 4);
    expect(errorOf(() => g.run('EXCHANGECLOSE', `${pendingYear}-01`, 'renta')).message).toMatch(new RegExp(`^#N/A: ${pendingYear}-12 has no closing rate`));
  });
});

describe('argument checks match the API’s', () => {
  test('an amount must be greater than 0 and at most 1e12: EXCHANGECONVERT(-5, …) is refused as /convert refuses it', () => {
    const g = sheet();
    const es = sheet({ locale: 'es_CR' });
    for (const bad of [-5, 0, '-0.01', 2e12]) {
      expect(errorOf(() => g.run('EXCHANGECONVERT', bad, 'CRC', 'USD')).message).toBe(`amount must be ${ARGUMENT_RULES.en.amount} (got "${bad}")`);
      expect(api(`/convert?amount=${bad}&from=CRC&to=USD`)).toMatchObject({
        status: 400,
        message: `Parameter "amount" must be ${ARGUMENT_RULES.en.amount} (got "${bad}")`,
      });
    }
    expect(errorOf(() => g.run('EXCHANGECONVERT', 'abc', 'USD', 'USD')).message).toBe('amount must be a number greater than 0 and at most 1e+12 (got "abc")');
    expect(errorOf(() => es.run('EXCHANGECONVERT', -5, 'CRC', 'USD')).message).toBe(
      'monto debe ser un número mayor que 0 y como máximo 1e+12 (se recibió "-5")',
    );
    expect(g.calls).toHaveLength(0);
    expect(g.run('EXCHANGECONVERT', 1e12, 'USD', 'USD')).toBe(1e12);
  });

  test('dates: a real calendar day, as the API wants it', () => {
    const g = sheet();
    expect(errorOf(() => g.run('EXCHANGERATE', '2024-02-30')).message).toBe('date must be a date cell or YYYY-MM-DD text (got "2024-02-30")');
    expect(api('/exchange-rate?date=2024-02-30').status).toBe(400);
    expect(g.run('EXCHANGERATE', '2024-02-29')).toBe(quoteOf('2024-02-29').sell);
  });
});

describe('whole-call errors say what to do', () => {
  test('no key', () => {
    expect(errorOf(() => sheet({ key: null }).run('EXCHANGERATE')).message).toBe('Set your API key: Extensions → CRC Rates → Settings');
    expect(errorOf(() => sheet({ key: null, locale: 'es_CR' }).run('EXCHANGEHISTORY')).message).toBe(
      'Configure su clave de API: Extensiones → CRC Rates → Configuración',
    );
  });

  test('a key the server does not know, and a revoked key', () => {
    const unknown = sheet({ key: `crc_live_${'A'.repeat(43)}` });
    expect(errorOf(() => unknown.run('EXCHANGERATE')).message).toBe('Your API key was rejected: check it in Extensions → CRC Rates → Settings');

    const g = sheet({ key: server.keys.revocable });
    expect(g.run('EXCHANGERATE')).toBe(quoteOf(LAST).sell);
    server.revoke();
    expect(errorOf(() => g.run('EXCHANGERATE', '2024-03-01')).message).toBe(
      'Your API key has been revoked: paste a new one in Extensions → CRC Rates → Settings',
    );
    const es = sheet({ key: server.keys.revocable, locale: 'es' });
    expect(errorOf(() => es.run('EXCHANGEHISTORY', 5)).message).toBe(
      'Su clave de API fue revocada: pegue una nueva en Extensiones → CRC Rates → Configuración',
    );
  });

  test('the monthly quota used up', () => {
    const g = sheet({ key: server.keys.tiny });
    expect(g.run('EXCHANGERATE')).toBe(quoteOf(LAST).sell);
    const error = errorOf(() => g.run('EXCHANGEHISTORY', 3));
    expect(error.message).toMatch(/^Monthly quota used up: resets on \d{4}-\d{2}-01 00:00 UTC$/);
    const es = sheet({ key: server.keys.tiny, locale: 'es_ES' });
    expect(errorOf(() => es.run('EXCHANGEBEST', 'sell')).message).toMatch(/^Cuota mensual agotada: se renueva el \d{4}-\d{2}-01 00:00 UTC$/);
  });

  test('over the per-minute limit', () => {
    const g = sheet({ key: server.keys.slow });
    g.run('EXCHANGERATE');
    expect(errorOf(() => g.run('EXCHANGEHISTORY', 3)).message).toMatch(/^Too many requests: try again in \d+ s$/);
  });

  test('an API that cannot be reached', () => {
    const g = sheet({ properties: { [BASE]: 'http://127.0.0.1:9/api/v1' } });
    expect(errorOf(() => g.run('EXCHANGERATE')).message).toBe(
      'Could not reach the CRC Rates API at http://127.0.0.1:9: Address unavailable: http://127.0.0.1:9/api/v1/exchange-rate/latest',
    );
  });
});

describe('menu and settings', () => {
  test('onOpen in AuthMode.NONE builds the menu and touches nothing else', () => {
    const g = sheet({ locale: 'es_CR' });
    g.authMode = 'NONE';
    g.run('onOpen', { authMode: 'NONE' });
    expect(g.menus).toEqual([
      {
        items: [
          ['Settings', 'showSettings'],
          ['Freeze selected values', 'freezeSelection'],
        ],
      },
    ]);
  });

  test('onOpen and onInstall once enabled: the label follows the locale', () => {
    const g = sheet({ locale: 'es_CR' });
    g.run('onOpen', { authMode: 'LIMITED' });
    g.run('onInstall', { authMode: 'FULL' });
    const spanish: Array<[string, string]> = [
      ['Configuración', 'showSettings'],
      ['Congelar valores seleccionados', 'freezeSelection'],
    ];
    expect(g.menus).toEqual([{ items: spanish }, { items: spanish }]);
  });

  test('the sidebar starts with the masked key only', () => {
    const g = sheet();
    g.run('showSettings');
    expect(g.sidebars).toHaveLength(1);
    const { html, title } = g.sidebars[0]!;
    expect(title).toBe('CRC Rates');
    expect(html).not.toContain(server.keys.main);
    const boot = JSON.parse(/<script type="application\/json" id="boot">([^<]*)<\/script>/.exec(html)![1]!);
    expect(boot).toEqual({
      locale: 'en',
      hasKey: true,
      maskedKey: `${server.keys.main.slice(0, 13)}…${server.keys.main.slice(-4)}`,
      baseUrl: server.api,
      defaultBaseUrl: 'https://api.crc-rates.com/api/v1',
      stale: null,
    });
  });

  test('save, test the connection against the real server, and remove the key', () => {
    const g = sheet({ key: null });
    expect(g.run('getSettings')).toMatchObject({ hasKey: false, maskedKey: null });
    expect(errorOf(() => g.run('saveSettings', { key: 'not a key', baseUrl: server.api })).message).toBe(
      'That does not look like a CRC Rates key: it starts with crc_live_ and has no spaces.',
    );
    const saved = g.run<Record<string, unknown>>('saveSettings', { key: ` ${server.keys.main} `, baseUrl: `${server.api}/` });
    expect(saved).toMatchObject({ hasKey: true, baseUrl: server.api });
    expect(JSON.stringify(saved)).not.toContain(server.keys.main);
    expect(g.properties.get(KEY)).toBe(server.keys.main);
    expect(g.properties.get(BASE)).toBe(server.api);

    const usage = g.run<Record<string, unknown>>('testConnection', { key: '', baseUrl: server.api });
    expect(usage).toMatchObject({ plan: 'custom', planLabel: 'Custom', monthlyQuota: 1_000_000_000, baseUrl: server.api });
    expect(usage.used as number).toBeGreaterThanOrEqual(0);
    expect(usage.remaining).toBe(1_000_000_000 - (usage.used as number));
    expect(usage.resetsOn).toMatch(/^\d{4}-\d{2}-01 00:00 UTC$/);
    expect(paths(g)).toEqual(['/usage']);
    expect(JSON.stringify(usage)).not.toContain(server.keys.main);

    // The saved key goes only to the address it was saved with.
    expect(errorOf(() => g.run('testConnection', { key: '', baseUrl: 'https://evil.example.com' })).message).toBe(
      'Paste the key again to use it with a new API address.',
    );
    expect(errorOf(() => g.run('saveSettings', { key: '', baseUrl: '' })).message).toBe('Paste the key again to use it with a new API address.');
    expect(g.calls).toHaveLength(1);

    expect(g.run('removeKey')).toMatchObject({ hasKey: false, baseUrl: server.api });
    expect(g.properties.has(KEY)).toBe(false);
    expect(errorOf(() => g.run('testConnection', {})).message).toBe('Set your API key: Extensions → CRC Rates → Settings');
  });

  test('testing a pasted key that the server rejects, in Spanish', () => {
    const g = sheet({ key: null, locale: 'es_CR' });
    expect(errorOf(() => g.run('testConnection', { key: `crc_live_${'B'.repeat(43)}`, baseUrl: server.api })).message).toBe(
      'La API rechazó su clave: revísela en Extensiones → CRC Rates → Configuración',
    );
    expect(g.properties.has(KEY)).toBe(false);
  });
});

describe('Freeze selected values', () => {
  test('the selected formulas become their values, the whole table of one that fills a range, with an undo hint', () => {
    const g = sheet();
    const months = [['2025-01'], ['2023-04'], ['2022-12']];
    const closes = g.run<unknown[][]>('EXCHANGECLOSE', months);
    expect(closes).toEqual([[quoteOf('2025-01-31').sell], ['#N/A'], ['No rate']]);
    const history = g.run<unknown[][]>('EXCHANGEHISTORY', 3);
    const grid = g.grid;
    grid.setValue(1, 1, 'Month');
    months.forEach(([m], i) => {
      grid.setValue(2 + i, 1, m);
    });
    grid.setFormula(2, 2, '=EXCHANGECLOSE(A2:A4)', closes);
    grid.setFormula(2, 3, '=EXCHANGERATE("2025-01-15")', g.run('EXCHANGERATE', '2025-01-15'));
    // Another function's table right next to them, not selected: it must keep its formula and its values.
    grid.setFormula(1, 4, '=EXCHANGEHISTORY(3)', history);
    const historyBefore = grid.range(1, 4, 4, 3).getValues();
    grid.selection = [
      [2, 2, 1, 1],
      [2, 3, 1, 1],
    ];

    g.run('freezeSelection');
    expect(grid.range(2, 2, 3, 2).getFormulas()).toEqual([
      ['', ''],
      ['', ''],
      ['', ''],
    ]);
    expect(grid.range(2, 2, 3, 1).getValues()).toEqual(closes);
    expect(grid.value(2, 3)).toBe(512.82);
    // Text stays text: "#N/A" is the cell's words, not the error Sheets would make of a typed #N/A.
    expect(grid.stored(3, 2)).toEqual({ kind: 'text', value: '#N/A' });
    expect(grid.stored(4, 2)).toEqual({ kind: 'text', value: 'No rate' });
    expect(grid.formula(1, 4)).toBe('=EXCHANGEHISTORY(3)');
    expect(grid.range(1, 4, 4, 3).getValues()).toEqual(historyBefore);
    expect(grid.toasts).toEqual([
      {
        title: 'Freeze selected values',
        message: '2 formulas in B2, C2 replaced by their values. To bring them back: Edit → Undo (Ctrl+Z, ⌘Z on a Mac).',
        seconds: 10,
      },
    ]);
  });

  test('a selection with no formula (inside another table) changes nothing and says so, in the sheet’s language', () => {
    const g = sheet({ locale: 'es_CR' });
    const history = g.run<unknown[][]>('EXCHANGEHISTORY', 3);
    g.grid.setFormula(1, 1, '=EXCHANGEHISTORY(3)', history);
    g.grid.selection = [[3, 2, 2, 2]];
    g.run('freezeSelection');
    expect(g.grid.formula(1, 1)).toBe('=EXCHANGEHISTORY(3)');
    expect(g.grid.ops).toMatchObject({ copyTo: 0, setValues: 0 });
    expect(g.grid.toasts).toEqual([
      { title: 'Congelar valores seleccionados', message: 'La selección no tiene fórmulas: no hay nada que congelar.', seconds: 10 },
    ]);
  });

  test('a column of formulas is frozen with one paste', () => {
    const g = sheet();
    for (let r = 1; r <= 12; r++)
      g.grid.setFormula(r, 1, `=EXCHANGERATE("2024-01-${String(r).padStart(2, '0')}")`, quoteOf(`2024-01-${String(r).padStart(2, '0')}`).sell);
    g.grid.selection = [[1, 1, 12, 1]];
    g.run('freezeSelection');
    expect(
      g.grid
        .range(1, 1, 12, 1)
        .getFormulas()
        .flat()
        .every((f) => f === ''),
    ).toBe(true);
    expect(g.grid.value(12, 1)).toBe(quoteOf('2024-01-12').sell);
    expect(g.grid.ops).toMatchObject({ copyTo: 1, setValues: 0 });
    expect(g.grid.toasts[0]!.message).toMatch(/^12 formulas in A1:A12 replaced by their values\./);
  });
});

describe('the usage meter', () => {
  test('getUsage gives /usage’s numbers for the saved key, and costs no quota', () => {
    const g = sheet();
    g.run('EXCHANGERATE');
    const usage = g.run<Usage & { resetsOn: string; planLabel: string }>('getUsage');
    const direct = api<Usage>('/usage');
    expect(usage).toEqual({
      ...direct.data,
      baseUrl: server.api,
      planLabel: 'Custom',
      resetsOn: `${direct.data.resetsAt.slice(0, 10)} ${direct.data.resetsAt.slice(11, 16)} UTC`,
    });
    expect(usage.used + usage.remaining).toBe(usage.monthlyQuota);
    expect(paths(g)).toEqual(['/exchange-rate/latest', '/usage']);
    // /usage is not counted: asking again gives the same count.
    expect(g.run<Usage>('getUsage').used).toBe(usage.used);
    expect(errorOf(() => sheet({ key: null }).run('getUsage')).message).toBe('Set your API key: Extensions → CRC Rates → Settings');
  });
});

describe('last known good', () => {
  const kept = (g: Gas) => [...g.properties.keys()].filter((k) => k.startsWith(LKG));

  test('429 (the quota used up): the last value, the sidebar told the data is stale; user errors and unknown answers still fail', () => {
    const g = sheet({ key: server.keys.once });
    const closing = quoteOf('2025-01-31').sell;
    expect(g.run('EXCHANGECLOSE', '2025-01')).toBe(closing);
    expect(kept(g)).toHaveLength(1);
    expect(g.properties.has(STALE)).toBe(false);

    g.advance(21_601); // past the six hours a closed month stays in the cache
    expect(g.run('EXCHANGECLOSE', '2025-01')).toBe(closing);
    expect(g.calls).toHaveLength(2);
    const stale = JSON.parse(g.properties.get(STALE)!);
    expect(stale.reason).toMatch(/^Monthly quota used up: resets on \d{4}-\d{2}-01 00:00 UTC$/);
    expect(Object.keys(stale.keys)).toHaveLength(1);
    // The rest of a recalculation takes it from the cache for a minute: no request each.
    expect(g.run('EXCHANGECLOSE', '2025-01', 'sell')).toBe(closing);
    expect(g.calls).toHaveLength(2);

    expect(errorOf(() => g.run('EXCHANGECLOSE', 'soon')).message).toBe(`month must be a date cell or ${ARGUMENT_RULES.en.month} (got "soon")`);
    expect(errorOf(() => g.run('EXCHANGECLOSE', '2024-12')).message).toMatch(/^Monthly quota used up/);

    g.run('showSettings');
    const boot = JSON.parse(/<script type="application\/json" id="boot">([^<]*)<\/script>/.exec(g.sidebars[0]!.html)![1]!);
    expect(boot.stale).toMatchObject({ count: 1, reason: stale.reason });
    expect(Date.parse(boot.stale.oldestSavedAt)).toBe(Object.values(stale.keys)[0]);
  });

  test('a 401 is not transient: a revoked or unknown key shows its error even with a copy kept', () => {
    const g = sheet();
    expect(g.run('EXCHANGERATE')).toBe(quoteOf(LAST).sell);
    g.properties.set(KEY, `crc_live_${'C'.repeat(43)}`);
    g.advance(301);
    expect(errorOf(() => g.run('EXCHANGERATE')).message).toBe('Your API key was rejected: check it in Extensions → CRC Rates → Settings');
  });

  // Last: it stops the server.
  test('the server stopped: every function answers from the copy, the sidebar says so; what was never fetched fails', async () => {
    const g = sheet({ locale: 'es_CR' });
    const calls = {
      latest: () => g.run('EXCHANGERATE'),
      range: () => g.run('EXCHANGERATE', [['2024-03-01'], ['2024-03-02'], ['']]),
      convert: () => g.run('EXCHANGECONVERT', [[100], [-1]], 'USD', 'CRC', 'compra', '2024-03-15'),
      close: () => g.run('EXCHANGECLOSE', [['2024-01'], ['2024-02']], 'venta', 'promedio'),
      history: () => g.run('EXCHANGEHISTORY', 5),
      best: () => g.run('EXCHANGEBEST', 'compra'),
      analytics: () => g.run('EXCHANGEANALYTICS', 30),
    };
    const before = Object.fromEntries(Object.entries(calls).map(([name, fn]) => [name, fn()]));
    expect(g.calls).toHaveLength(6);
    expect(kept(g)).toHaveLength(7); // latest, the month 2024-03, two months closed, history, best, analytics

    server.stop();
    g.advance(21_601);
    for (const [name, fn] of Object.entries(calls)) expect([name, fn()]).toEqual([name, before[name]]);
    const stale = JSON.parse(g.properties.get(STALE)!);
    expect(stale.reason).toMatch(/^No se pudo conectar con la API de CRC Rates en http:\/\/127\.0\.0\.1:\d+: Address unavailable/);
    expect(Object.keys(stale.keys)).toHaveLength(7);
    expect(g.run<{ stale: { count: number } }>('getSettings').stale.count).toBe(7);

    // What the copy does not have fails as before; a user error is still the user's.
    expect(errorOf(() => g.run('EXCHANGERATE', '2024-05-01')).message).toMatch(/^No se pudo conectar con la API de CRC Rates/);
    expect(errorOf(() => g.run('EXCHANGERATE', [['2024-03-01'], ['2024-05-01']])).message).toMatch(/^No se pudo conectar/);
    expect(errorOf(() => g.run('EXCHANGERATE', 'ayer')).message).toBe('la fecha debe ser una celda de fecha o texto AAAA-MM-DD (se recibió "ayer")');
    expect(errorOf(() => g.run('EXCHANGECONVERT', -5, 'CRC', 'USD')).message).toMatch(/^monto debe ser/);

    // The copy stays within its bounds.
    const size = kept(g).reduce((total, k) => total + g.properties.get(k)!.length, 0);
    expect(size).toBeLessThanOrEqual(100_000);
  });
});
