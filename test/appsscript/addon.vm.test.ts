/**
 * The built add-on (appsscript/dist/Code.js) run in node:vm against Apps Script shims, calling a
 * real API server (in a worker thread, on an embedded database with known rates) over real HTTP
 * through a synchronous UrlFetchApp. Each function is called as Sheets calls it, and the number
 * of HTTP requests is counted: one per range call, none when the cache has the answer.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { addDays, daysBetween } from '../../shared/dates';
import { startApiServer, type ApiServer } from './support/api-server';
import { INSTITUTIONS, LAST, quoteOf } from './support/fixtures';
import { formatDate, loadGas, type Gas, type GasOptions } from './support/gas';

const ROOT = path.resolve(__dirname, '../..');
const DIST = path.join(ROOT, 'appsscript/dist');
const CUSTOM_FUNCTIONS = ['EXCHANGERATE', 'EXCHANGECONVERT', 'EXCHANGEHISTORY', 'EXCHANGEBEST', 'EXCHANGEANALYTICS'];
const KEY = 'CRC_RATES_API_KEY';
const BASE = 'CRC_RATES_BASE_URL';

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
    expect(blocks).toHaveLength(5);
    expect(code().match(/@customfunction/g)).toHaveLength(5);
    const names = blocks.map((b) => /function (\w+)\(/.exec(b)![1]);
    expect(names.sort()).toEqual([...CUSTOM_FUNCTIONS].sort());
    for (const block of blocks) {
      expect(block).toMatch(/@param \{[^}]+\} \w+ .*Example/);
      expect(block).toMatch(/@return \{[^}]+\}/);
    }
    expect(code()).toContain('function EXCHANGERATE(date, type) {\n  return CrcRates.EXCHANGERATE(date, type);\n}');
    expect(code()).toContain('function EXCHANGECONVERT(amount, from, to, type, date) {');
  });

  test('exposes the triggers and the sidebar functions as top-level functions', () => {
    for (const name of ['onOpen', 'onInstall', 'showSettings', 'getSettings', 'saveSettings', 'testConnection', 'removeKey']) {
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
    expect(errorOf(() => g.run('EXCHANGERATE', '', 'middle')).message).toBe('type must be "buy" or "sell" (got "middle")');
  });

  test('Spanish messages in a Spanish spreadsheet', () => {
    const g = sheet({ locale: 'es_CR' });
    const out = g.run<unknown[][]>('EXCHANGERATE', [['2025-01-15', 'x', '2099-01-01']]);
    expect(out).toEqual([[512.82, 'Fecha inválida', 'Sin tipo de cambio']]);
    expect(errorOf(() => g.run('EXCHANGERATE', '', 'medio')).message).toBe('tipo debe ser "compra" o "venta" (se recibió "medio")');
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
    const amounts = [[0.5], [0.1], [''], ['abc'], ['12.5'], [-0.5], [0.15]];
    expect(g.run('EXCHANGECONVERT', amounts, 'USD', 'CRC', 'sell', '2024-06-03')).toEqual([
      [246.68],
      [49.34],
      [''],
      ['Not a number'],
      [6166.88],
      [-246.68],
      [74],
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
    expect(errorOf(() => g.run('EXCHANGECONVERT', 1, 'EUR', 'CRC')).message).toBe('from must be "USD" or "CRC" (got "EUR")');
    expect(errorOf(() => g.run('EXCHANGECONVERT', '', 'USD', 'CRC')).message).toBe('amount is required: a number or a range of numbers');
    expect(errorOf(() => g.run('EXCHANGECONVERT', 1, 'USD', 'CRC', 'sell', [['2025-01-01'], ['2025-01-02']])).message).toBe(
      'date must be a single value, not a range',
    );
    expect(g.calls).toHaveLength(0);
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
    expect(g.menus).toEqual([{ items: [['Settings', 'showSettings']] }]);
  });

  test('onOpen and onInstall once enabled: the label follows the locale', () => {
    const g = sheet({ locale: 'es_CR' });
    g.run('onOpen', { authMode: 'LIMITED' });
    g.run('onInstall', { authMode: 'FULL' });
    expect(g.menus).toEqual([{ items: [['Configuración', 'showSettings']] }, { items: [['Configuración', 'showSettings']] }]);
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
