/**
 * The add-on's pure modules, directly: argument reading, date and month cells in zones away from
 * UTC, range shapes, cache keys and values, the last known good copy, message texts, money
 * rounding, span planning, month-close figures, the freeze plan, settings rules and the reading
 * of API answers (and what a transient failure falls back to).
 */
import vm from 'node:vm';
import {
  ArgumentError,
  readAmountCell,
  readCurrency,
  readDays,
  readMeasure,
  readOperation,
  readPair,
  readRateCurrency,
  readRateType,
  readSide,
  single,
} from '../../appsscript/src/args';
import { type ApiError, buildUrl, header, type HttpAnswer, originOf, readAnswer } from '../../appsscript/src/api';
import { cacheKey, createStore, hash53, keys, type CacheLike } from '../../appsscript/src/cache';
import { exchangeClose, figureOf, figuresOf, figuresTtl } from '../../appsscript/src/close';
import { DEFAULT_BASE_URL, LAST_GOOD } from '../../appsscript/src/config';
import { isBlank, isDate, memoFormat, midnightInZone, monthBounds, offsetMinutes, readDateCell, readMonthCell } from '../../appsscript/src/dates';
import { coverRects, literal, lostCells, selectedFormulas, slice } from '../../appsscript/src/freeze';
import { createLastGood, type PropertyStore, readKept, staleView } from '../../appsscript/src/lastgood';
import { currencyList } from '../../appsscript/src/currency-names';
import { formatUtc, localeOf, messages } from '../../appsscript/src/messages';
import { convertAmount, decimalOf, divide, multiply, parseDecimal, roundDecimal } from '../../appsscript/src/money';
import {
  bucketsFromSpan,
  bucketTtl,
  CARRY_DAYS,
  carryDaysOf,
  carryWindow,
  daysOf,
  lookup,
  planSpans,
  rateInForce,
  SETTLED_DAYS,
} from '../../appsscript/src/rates';
import { exchangeHistory, exchangeRate } from '../../appsscript/src/service';
import { maskKey, normalizeBaseUrl, resolveSettings, scriptJson, settingsView } from '../../appsscript/src/settings';
import { answer, distinct, mapCells, toCells } from '../../appsscript/src/shape';
import { analyticsTable, bestTable, historyTable } from '../../appsscript/src/tables';
import { isAmountWithinLimits, isYearMonth } from '../../shared/arguments';
import { CURRENCY_CODES } from '../../shared/currency-catalog';
import { addDays, daysBetween } from '../../shared/dates';
import { PURPOSES } from '../../shared/purposes';
import { fail, fakeEnv, inZone, memoryProperties, ok } from './support/fake-env';
import { formatDate } from './support/gas';

const en = messages('en');
const es = messages('es');

const thrown = (fn: () => unknown): Error => {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a throw');
};

describe('arguments', () => {
  test('type: a purpose by its id or any of its Spanish names, accents, case and spaces aside, with the side its rule names', () => {
    for (const purpose of PURPOSES) {
      for (const word of [purpose.id, ...purpose.aliases]) {
        expect([word, readRateType(word, en)]).toEqual([word, { side: purpose.side, purpose }]);
        expect(readRateType(` ${word.toUpperCase().replace(/-/g, ' ')} `, es).purpose?.id).toBe(purpose.id);
      }
    }
    expect(readRateType('Consumidor-Dólares', es)).toMatchObject({ side: 'buy', purpose: { id: 'consumer-pay-dollars' } });
    expect(readRateType('renta', es).purpose?.close).toBe('fiscal-year-end');
    expect(readRateType('compra', es)).toEqual({ side: 'buy', purpose: null });
    expect(readSide('aduana', es)).toBe('sell');
  });

  test('type: sell by default, buy/sell/compra/venta in any case, anything else refused', () => {
    expect(readSide(undefined, en)).toBe('sell');
    expect(readSide('', en)).toBe('sell');
    expect(readSide('  ', en)).toBe('sell');
    expect(readSide(' BUY ', en)).toBe('buy');
    expect(readSide('Compra', en)).toBe('buy');
    expect(readSide('venta', es)).toBe('sell');
    expect(readSide([['buy']], en)).toBe('buy');
    expect(thrown(() => readSide('mid', en))).toEqual(
      new ArgumentError('type must be "buy", "sell" or a purpose such as "invoice" or "income-tax" (got "mid")'),
    );
    expect(thrown(() => readSide('mid', es)).message).toBe('tipo debe ser "compra", "venta" o un propósito como "factura" o "renta" (se recibió "mid")');
    expect(thrown(() => readSide([['buy', 'sell']], en)).message).toBe('type must be a single value, not a range');
  });

  test('measure: closing by default, closing/average or cierre/promedio in any case', () => {
    expect(readMeasure(undefined, en)).toBe('closing');
    expect(readMeasure(' Average ', en)).toBe('average');
    expect(readMeasure('PROMEDIO', es)).toBe('average');
    expect(readMeasure('cierre', es)).toBe('closing');
    expect(thrown(() => readMeasure('median', en)).message).toBe('measure must be "closing" or "average" (got "median")');
    expect(thrown(() => readMeasure('mediana', es)).message).toBe('medida debe ser "cierre" o "promedio" (se recibió "mediana")');
  });

  test('the shared rules: months of years 0001–9999, amounts in (0, 1e12]', () => {
    for (const good of ['2025-01', '0001-12', '9999-12']) expect(isYearMonth(good)).toBe(true);
    for (const bad of ['2025-13', '2025-00', '0000-01', '2025-1', ' 2025-01', '2025-01-01']) expect(isYearMonth(bad)).toBe(false);
    expect([0.01, 1e12].map(isAmountWithinLimits)).toEqual([true, true]);
    expect([0, -1, 1e12 + 0.5, Number.NaN, Number.POSITIVE_INFINITY].map(isAmountWithinLimits)).toEqual([false, false, false, false, false]);
  });

  test('operation is required', () => {
    expect(readOperation('SELL', en)).toBe('sell');
    expect(readOperation('compra', es)).toBe('buy');
    expect(thrown(() => readOperation(undefined, en)).message).toBe('operation must be "buy" or "sell" (got "")');
  });

  test('from and to: CRC or a code of the catalog, any case; $ and ₡ as before', () => {
    expect(readCurrency('usd', 'from', en)).toBe('USD');
    expect(readCurrency(' crc ', 'to', en)).toBe('CRC');
    expect(readCurrency('₡', 'to', en)).toBe('CRC');
    expect(readCurrency('$', 'from', en)).toBe('USD');
    expect(readCurrency(' eur ', 'from', en)).toBe('EUR');
    expect(readCurrency([['Jpy']], 'to', en)).toBe('JPY');
    for (const code of CURRENCY_CODES) expect(readCurrency(code.toLowerCase(), 'from', en)).toBe(code);
    expect(thrown(() => readCurrency('EURO', 'from', en))).toEqual(
      new ArgumentError(`from must be "CRC" or a supported currency code: ${CURRENCY_CODES.join(', ')} (got "EURO")`),
    );
    expect(thrown(() => readCurrency(undefined, 'to', es)).message).toBe(
      `to debe ser "CRC" o un código de moneda admitido: ${CURRENCY_CODES.join(', ')} (se recibió "")`,
    );
    expect(thrown(() => readCurrency([['EUR', 'USD']], 'to', en)).message).toBe('to must be a single value, not a range');
  });

  test('currency: USD when blank, any code of the catalog in any case; CRC and unknown codes refused with the list', () => {
    for (const blank of [undefined, null, '', '  ', [['']]]) expect(readRateCurrency(blank, en)).toBe('USD');
    expect(readRateCurrency('eur', en)).toBe('EUR');
    expect(readRateCurrency(' Jpy ', es)).toBe('JPY');
    expect(readRateCurrency([['vnd']], en)).toBe('VND');
    expect(readRateCurrency('$', en)).toBe('USD');
    for (const code of CURRENCY_CODES) expect(readRateCurrency(code.toLowerCase(), en)).toBe(code);
    const list = CURRENCY_CODES.join(', ');
    expect(list.startsWith('USD, AED, ARS, AUD')).toBe(true);
    expect(thrown(() => readRateCurrency('XYZ', en))).toEqual(
      new ArgumentError(`currency must be a supported currency code (USD when empty): ${list} (got "XYZ")`),
    );
    expect(thrown(() => readRateCurrency('crc', en)).message).toBe(`currency must be a supported currency code (USD when empty): ${list} (got "crc")`);
    expect(thrown(() => readRateCurrency('₡', en)).message).toMatch(/\(got "₡"\)$/);
    expect(thrown(() => readRateCurrency(5, es)).message).toBe(`moneda debe ser un código de moneda admitido (USD si se deja vacía): ${list} (se recibió "5")`);
    expect(thrown(() => readRateCurrency([['EUR'], ['JPY']], en)).message).toBe('currency must be a single value, not a range');
    expect(thrown(() => readRateCurrency([['EUR'], ['JPY']], es)).message).toBe('currency debe ser un solo valor, no un rango');
  });

  test('a conversion: one side is CRC and the other gives the rate; the same currency on both sides needs none', () => {
    expect(readPair('EUR', 'crc', en)).toEqual({ from: 'EUR', to: 'CRC', quoted: 'EUR' });
    expect(readPair('₡', 'jpy', en)).toEqual({ from: 'CRC', to: 'JPY', quoted: 'JPY' });
    expect(readPair('$', 'CRC', en)).toEqual({ from: 'USD', to: 'CRC', quoted: 'USD' });
    expect(readPair('usd', 'USD', en)).toEqual({ from: 'USD', to: 'USD', quoted: null });
    expect(readPair('EUR', 'eur', en)).toEqual({ from: 'EUR', to: 'EUR', quoted: null });
    expect(thrown(() => readPair('EUR', 'USD', en))).toEqual(
      new ArgumentError('from or to must be "CRC": every rate is in colones (got "EUR" and "USD"); convert in two steps, through CRC'),
    );
    expect(thrown(() => readPair('gbp', 'jpy', es)).message).toBe(
      'from o to debe ser "CRC": todos los tipos de cambio están en colones (se recibió "GBP" y "JPY"); convierta en dos pasos, pasando por CRC',
    );
    // Each side is checked before the pair: an unknown code is named as such.
    expect(thrown(() => readPair('USD', 'XYZ', en)).message).toMatch(/^to must be "CRC" or a supported currency code: /);
  });

  test('days: whole numbers within the limits; blank is the default', () => {
    const limits = { min: 1, max: 365, fallback: 30 };
    expect(readDays(undefined, limits, en)).toBe(30);
    expect(readDays('', limits, en)).toBe(30);
    expect(readDays(7, limits, en)).toBe(7);
    expect(readDays(' 90 ', limits, en)).toBe(90);
    expect(readDays([[365]], limits, en)).toBe(365);
    for (const bad of [0, 366, 7.5, '7.5', 'seven', true, -1]) {
      expect(thrown(() => readDays(bad, limits, en)).message).toBe(`days must be a whole number from 1 to 365 (got "${String(bad)}")`);
    }
  });

  test('single: a 1×1 range is its value', () => {
    expect(single([[5]], 'days', en)).toBe(5);
    expect(single(5, 'days', en)).toBe(5);
    expect(() => single([[1], [2]], 'days', en)).toThrow('days must be a single value, not a range');
  });

  test('amount cells: numbers within the API’s limits, greater than 0 and at most 1e12', () => {
    expect(readAmountCell(12.5)).toEqual({ kind: 'amount', amount: 12.5 });
    expect(readAmountCell(' 1e3 ')).toEqual({ kind: 'amount', amount: 1000 });
    expect(readAmountCell(1e12)).toEqual({ kind: 'amount', amount: 1e12 });
    expect(readAmountCell('1e-7')).toEqual({ kind: 'amount', amount: 1e-7 });
    for (const out of ['-0.5', -5, 0, '0', 1e12 + 1, '1e13', '1e400', '1e-400']) expect(readAmountCell(out)).toEqual({ kind: 'outOfRange' });
    expect(readAmountCell('')).toEqual({ kind: 'blank' });
    expect(readAmountCell(null)).toEqual({ kind: 'blank' });
    for (const bad of ['abc', '1,000.00', '0x10', true, Number.NaN, Number.POSITIVE_INFINITY, new Date(), 'Infinity']) {
      expect(readAmountCell(bad)).toEqual({ kind: 'invalid' });
    }
  });
});

describe('date cells', () => {
  /** A date cell as Sheets sends it: midnight of `day` in the sheet's zone, at `offset` hours from UTC. */
  const midnight = (day: string, offsetHours: number) => new Date(Date.parse(`${day}T00:00:00Z`) - offsetHours * 3_600_000);

  test.each([
    ['Asia/Tokyo', 9],
    ['Europe/Madrid', 1],
    ['Pacific/Kiritimati', 14],
    ['America/Costa_Rica', -6],
    ['Pacific/Pago_Pago', -11],
  ])('midnight in %s is its own day, whatever toISOString says', (tz, offset) => {
    const date = midnight('2025-01-15', offset);
    expect(readDateCell(date, inZone(tz))).toEqual({ kind: 'date', date: '2025-01-15' });
    // One second before midnight is still the day before, in that zone.
    expect(readDateCell(new Date(date.getTime() - 1000), inZone(tz))).toEqual({ kind: 'date', date: '2025-01-14' });
    if (offset > 0) expect(date.toISOString().slice(0, 10)).toBe('2025-01-14');
  });

  test('a Date from another realm (Sheets hands the script its own) is still a date', () => {
    const foreign = vm.runInNewContext('new Date(Date.UTC(2025, 0, 15, 6))') as Date;
    expect(foreign instanceof Date).toBe(false);
    expect(isDate(foreign)).toBe(true);
    expect(readDateCell(foreign, inZone('America/Costa_Rica'))).toEqual({ kind: 'date', date: '2025-01-15' });
    expect(isDate(new Date('nope'))).toBe(false);
  });

  test('text, serial numbers, blanks and nonsense', () => {
    const f = inZone('UTC');
    expect(readDateCell('2025-01-15', f)).toEqual({ kind: 'date', date: '2025-01-15' });
    expect(readDateCell(' 2024-02-29 ', f)).toEqual({ kind: 'date', date: '2024-02-29' });
    expect(readDateCell(45672, f)).toEqual({ kind: 'date', date: '2025-01-15' });
    expect(readDateCell(45672.75, f)).toEqual({ kind: 'date', date: '2025-01-15' });
    expect(readDateCell(1, f)).toEqual({ kind: 'date', date: '1899-12-31' });
    for (const blank of ['', '  ', undefined, null]) expect(readDateCell(blank, f)).toEqual({ kind: 'blank' });
    for (const bad of ['2024-02-30', '15/01/2025', '2025-1-5', 'today', 0, -3, true, 3e6]) {
      expect(readDateCell(bad, f)).toEqual({ kind: 'invalid', text: String(bad) });
    }
    expect(isBlank(0)).toBe(false);
  });

  test('the formatter is asked once per distinct instant', () => {
    let asked = 0;
    const f = memoFormat((d, p) => {
      asked++;
      return formatDate(d, 'Europe/Madrid', p);
    });
    const cells = Array.from({ length: 1000 }, (_, i) => new Date(Date.UTC(2025, 0, 1 + (i % 10), 23)));
    for (const d of cells) f(d, 'yyyy-MM-dd');
    expect(asked).toBe(10);
  });

  test('dates written back are midnights of the sheet zone, daylight saving included', () => {
    const madrid = inZone('Europe/Madrid');
    expect(midnightInZone('2025-01-15', madrid).toISOString()).toBe('2025-01-14T23:00:00.000Z');
    expect(midnightInZone('2025-07-15', madrid).toISOString()).toBe('2025-07-14T22:00:00.000Z');
    // The day summer time starts (02:00 → 03:00): midnight is still +01:00.
    expect(midnightInZone('2025-03-30', madrid).toISOString()).toBe('2025-03-29T23:00:00.000Z');
    expect(midnightInZone('2025-01-15', inZone('America/Costa_Rica')).toISOString()).toBe('2025-01-15T06:00:00.000Z');
    // Santiago skips midnight when summer time starts (00:00 → 01:00): the day starts at 01:00.
    const santiago = inZone('America/Santiago');
    expect(formatDate(midnightInZone('2024-09-08', santiago), 'America/Santiago', 'yyyy-MM-dd HH:mm')).toBe('2024-09-08 01:00');
    expect(formatDate(midnightInZone('2024-09-09', santiago), 'America/Santiago', 'yyyy-MM-dd HH:mm')).toBe('2024-09-09 00:00');
  });

  test('month cells: a date cell in the sheet’s zone, YYYY-MM or YYYY-MM-DD text, serial numbers', () => {
    const madrid = inZone('Europe/Madrid');
    // Midnight of 1 June in Madrid is 31 May in UTC.
    expect(readMonthCell(new Date('2024-05-31T22:00:00Z'), madrid)).toEqual({ kind: 'month', month: '2024-06' });
    expect(readMonthCell(' 2025-01 ', madrid)).toEqual({ kind: 'month', month: '2025-01' });
    expect(readMonthCell('2024-02-29', madrid)).toEqual({ kind: 'month', month: '2024-02' });
    expect(readMonthCell(45672, madrid)).toEqual({ kind: 'month', month: '2025-01' });
    expect(readMonthCell('', madrid)).toEqual({ kind: 'blank' });
    for (const bad of ['2025-13', '0000-01', 'enero', '2024-02-30', true]) expect(readMonthCell(bad, madrid)).toEqual({ kind: 'invalid', text: String(bad) });
  });

  test('zone offsets and month bounds', () => {
    expect(offsetMinutes('-0600')).toBe(-360);
    expect(offsetMinutes('+0530')).toBe(330);
    expect(offsetMinutes('+05:45')).toBe(345);
    expect(monthBounds('2024-02')).toEqual({ first: '2024-02-01', last: '2024-02-29' });
    expect(monthBounds('2025-12')).toEqual({ first: '2025-12-01', last: '2025-12-31' });
  });
});

describe('range shapes', () => {
  test('a scalar is one cell and comes back as one value', () => {
    const cells = toCells('2025-01-15');
    expect(cells).toEqual({ rows: [['2025-01-15']], scalar: true });
    expect(answer(cells, [[1]])).toBe(1);
  });

  test('a 2-D range keeps its shape', () => {
    const rows = [
      [1, ''],
      [3, 4],
      ['', ''],
    ];
    const cells = toCells(rows);
    expect(cells.scalar).toBe(false);
    const doubled = mapCells(cells.rows, (v) => (v === '' ? '' : (v as number) * 2));
    expect(answer(cells, doubled)).toEqual([
      [2, ''],
      [6, 8],
      ['', ''],
    ]);
    expect(distinct(rows, (v) => (v === '' ? null : v))).toEqual([1, 3, 4]);
    expect(toCells([1, 2]).rows).toEqual([[1, 2]]);
  });
});

describe('cache', () => {
  test('keys name the API base and what was asked', () => {
    const a = 'https://api.crc-rates.com/api/v1';
    const b = 'https://rates.example.com/api/v1';
    expect(keys.month(a, '2025-01', 'USD')).toBe('crc-rates:v1|https://api.crc-rates.com/api/v1|month|2025-01');
    expect(keys.latest(a, 'USD')).toBe('crc-rates:v1|https://api.crc-rates.com/api/v1|latest');
    expect(keys.history(a, 30)).not.toBe(keys.history(a, 31));
    expect(keys.history(a, 30)).not.toBe(keys.history(b, 30));
    expect(keys.best(a, 'buy')).not.toBe(keys.best(a, 'sell'));
    expect(keys.analytics(a, 30)).not.toBe(keys.history(a, 30));
  });

  test('keys name the currency: the dollar’s stay as they were (the copies kept under them in documents stay valid)', () => {
    const a = 'https://api.crc-rates.com/api/v1';
    expect(keys.month(a, '2025-01', 'EUR')).toBe('crc-rates:v1|https://api.crc-rates.com/api/v1|month|2025-01|EUR');
    expect(keys.latest(a, 'JPY')).toBe('crc-rates:v1|https://api.crc-rates.com/api/v1|latest|JPY');
    expect(keys.close(a, '2025-01', 'USD')).toBe('crc-rates:v1|https://api.crc-rates.com/api/v1|close|2025-01');
    expect(keys.close(a, '2025-01', 'EUR')).toBe('crc-rates:v1|https://api.crc-rates.com/api/v1|close|2025-01|EUR');
    const all = CURRENCY_CODES.flatMap((c) => [keys.month(a, '2025-01', c), keys.latest(a, c), keys.close(a, '2025-01', c)]);
    expect(new Set(all).size).toBe(all.length);
  });

  test('a long base URL is hashed so every key fits in 250 characters', () => {
    const long = `https://example.com/${'x'.repeat(400)}`;
    const other = `https://example.com/${'x'.repeat(399)}y`;
    expect(keys.month(long, '2025-01', 'EUR').length).toBeLessThanOrEqual(250);
    expect(keys.month(long, '2025-01', 'USD')).not.toBe(keys.month(other, '2025-01', 'USD'));
    expect(cacheKey(long, 'a')).toBe(cacheKey(long, 'a'));
    expect(hash53('a')).not.toBe(hash53('b'));
  });

  function memoryCache() {
    const data = new Map<string, string>();
    const ops: string[] = [];
    const cache: CacheLike = {
      getAll(wanted) {
        ops.push(`getAll:${wanted.length}`);
        return Object.fromEntries(wanted.filter((k) => data.has(k)).map((k) => [k, data.get(k)!]));
      },
      putAll(values, ttl) {
        ops.push(`putAll:${Object.keys(values).length}:${ttl}`);
        for (const [k, v] of Object.entries(values)) data.set(k, v);
      },
    };
    return { data, ops, cache };
  }

  test('values carry their own expiry; one getAll and one putAll whose lifetime is the longest', () => {
    const { ops, cache } = memoryCache();
    let now = 1_000_000;
    const store = createStore(cache, () => now);
    store.writeAll([
      { key: 'past', value: { a: 1 }, ttl: 21_600 },
      { key: 'today', value: [1, 2], ttl: 300 },
    ]);
    expect(ops).toEqual(['putAll:2:21600']);
    expect(store.readAll(['past', 'today', 'none'])).toEqual(
      new Map<string, unknown>([
        ['past', { a: 1 }],
        ['today', [1, 2]],
      ]),
    );
    now += 301_000;
    expect([...store.readAll(['past', 'today']).keys()]).toEqual(['past']);
    expect(ops).toEqual(['putAll:2:21600', 'getAll:3', 'getAll:2']);
  });

  test('a broken or missing cache costs a fetch, never an error', () => {
    const broken: CacheLike = {
      getAll: () => {
        throw new Error('Service invoked too many times');
      },
      putAll: () => {
        throw new Error('Argument too large');
      },
    };
    const store = createStore(broken, () => 0);
    expect(store.readAll(['a']).size).toBe(0);
    expect(() => store.writeAll([{ key: 'a', value: 1, ttl: 5 }])).not.toThrow();
    const none = createStore(null, () => 0);
    expect(none.readAll(['a']).size).toBe(0);
    const { data, cache } = memoryCache();
    data.set('bad', '{not json');
    expect(createStore(cache, () => 0).readAll(['bad']).size).toBe(0);
  });
});

describe('messages', () => {
  test('the spreadsheet locale picks the language', () => {
    for (const l of ['es', 'es_CR', 'es-419', 'ES_es', ' es_MX ']) expect(localeOf(l)).toBe('es');
    for (const l of ['en_US', 'en', 'fr_FR', 'pt_BR', 'est', '', null, undefined]) expect(localeOf(l)).toBe('en');
  });

  test('whole-call errors tell what to do, in both languages', () => {
    expect(en.noKey()).toBe('Set your API key: Extensions → CRC Rates → Settings');
    expect(es.noKey()).toBe('Configure su clave de API: Extensiones → CRC Rates → Configuración');
    expect(en.keyRejected()).toBe('Your API key was rejected: check it in Extensions → CRC Rates → Settings');
    expect(es.keyRejected()).toBe('La API rechazó su clave: revísela en Extensiones → CRC Rates → Configuración');
    expect(en.quotaExceeded('2026-12-01 00:00 UTC')).toBe('Monthly quota used up: resets on 2026-12-01 00:00 UTC');
    expect(es.quotaExceeded('2026-12-01 00:00 UTC')).toBe('Cuota mensual agotada: se renueva el 2026-12-01 00:00 UTC');
    expect(en.rateLimited(42)).toBe('Too many requests: try again in 42 s');
    expect(es.rateLimited(42)).toBe('Demasiadas solicitudes: intente de nuevo en 42 s');
    expect(formatUtc('2026-12-01T00:00:00.000Z')).toBe('2026-12-01 00:00 UTC');
  });

  test('a day or a month without a rate names the currency, unless it is the dollar (whose messages stay as they were)', () => {
    expect(en.dateNoRate('2025-01-15', 'USD')).toBe('No rate for 2025-01-15');
    expect(en.dateNoRate('2025-01-15', 'EUR')).toBe('No EUR rate for 2025-01-15');
    expect(es.dateNoRate('2025-01-15', 'USD')).toBe('No hay tipo de cambio para 2025-01-15');
    expect(es.dateNoRate('2025-01-15', 'JPY')).toBe('No hay tipo de cambio del JPY para 2025-01-15');
    expect(en.monthNoRate('2022-12', 'USD')).toBe('No rate in 2022-12');
    expect(en.monthNoRate('2022-12', 'GBP')).toBe('No GBP rate in 2022-12');
    expect(es.monthNoRate('2022-12', 'GBP')).toBe('No hay tipo de cambio del GBP en 2022-12');
  });

  test('a refused currency is answered with every supported code, in both languages', () => {
    for (const text of [en.badRateCurrency('x'), es.badRateCurrency('x'), en.badCurrency('from', 'x'), es.badCurrency('to', 'x')]) {
      for (const code of CURRENCY_CODES) expect(text).toContain(` ${code}`);
      expect(text).not.toMatch(/\bCRC,/);
    }
  });

  test('the currency list: the catalog’s codes in its order, the dollar first, named in each language', () => {
    const english = currencyList('en');
    const spanish = currencyList('es');
    expect(english.map((c) => c.code)).toEqual([...CURRENCY_CODES]);
    expect(spanish.map((c) => c.code)).toEqual([...CURRENCY_CODES]);
    expect(english.slice(0, 2)).toEqual([
      { code: 'USD', name: 'US dollar' },
      { code: 'AED', name: 'UAE dirham' },
    ]);
    expect(spanish.find((c) => c.code === 'JPY')?.name).toBe('Yen japonés');
    expect(spanish.find((c) => c.code === 'USD')?.name).toBe('Dólar estadounidense');
    for (const c of [...english, ...spanish]) expect(c.name).not.toBe('');
  });

  test('both catalogues have the same entries, and cell texts stay short', () => {
    const shape = (o: object): string[] =>
      Object.entries(o)
        .flatMap(([k, v]) => (v && typeof v === 'object' && !Array.isArray(v) ? shape(v).map((s) => `${k}.${s}`) : [k]))
        .sort();
    expect(shape(es)).toEqual(shape(en));
    expect(es.historyHeader).toHaveLength(3);
    expect(es.bestHeader).toHaveLength(6);
    for (const t of [en, es]) {
      for (const text of [t.cellBadDate, t.cellNoRate, t.cellBadAmount, t.cellAmountOutOfRange, t.cellBadMonth, t.cellFutureMonth, t.cellNoClosing]) {
        expect(text.length).toBeLessThanOrEqual(20);
      }
    }
  });
});

describe('money', () => {
  const usdToCrc = (amount: number, rate: number) => convertAmount(amount, 'USD', 'CRC', rate);

  test('the rounding examples: 0.5 × 493.35 = 246.68 and 0.1 × 506.47 = 50.65 (half away from zero)', () => {
    expect(usdToCrc(0.5, 493.35)).toBe(246.68);
    expect(usdToCrc(0.1, 506.47)).toBe(50.65);
  });

  test('halves that binary floats miss round away from zero', () => {
    // In floats 0.15 × 493.5 is 74.02499999999999, 0.075 × 493.4 is 37.004999999999995.
    expect(usdToCrc(0.15, 493.5)).toBe(74.03);
    expect(usdToCrc(0.075, 493.4)).toBe(37.01);
    expect(usdToCrc(0.036, 493.75)).toBe(17.78);
    expect(usdToCrc(-0.15, 493.5)).toBe(-74.03);
    expect(convertAmount(1.005, 'USD', 'USD', 1)).toBe(1.01);
    expect(convertAmount(8.345, 'CRC', 'CRC', 1)).toBe(8.35);
    expect(convertAmount(-1.005, 'USD', 'USD', 1)).toBe(-1.01);
  });

  test('CRC→USD divides, exactly', () => {
    expect(convertAmount(10_000, 'CRC', 'USD', 512.82)).toBe(19.5); // 19.49962…
    expect(convertAmount(1, 'CRC', 'USD', 400)).toBe(0.0); // 0.0025 → 0.00
    expect(convertAmount(2, 'CRC', 'USD', 400)).toBe(0.01); // 0.005 → 0.01
    expect(convertAmount(-2, 'CRC', 'USD', 400)).toBe(-0.01);
    expect(divide(decimalOf(1), decimalOf(3))).toBe('0.33');
    expect(divide(decimalOf(2), decimalOf(3))).toBe('0.67');
  });

  test('large, tiny and exponent amounts, and no negative zero', () => {
    expect(usdToCrc(1e12, 512.82)).toBe(512_820_000_000_000);
    expect(usdToCrc(123_456_789.01, 512.82)).toBe(63_311_110_540.11); // …540.1082
    expect(usdToCrc(1e-7, 512.82)).toBe(0);
    expect(Object.is(usdToCrc(-1e-7, 512.82), -0)).toBe(false);
    expect(multiply(parseDecimal('1.5e3')!, parseDecimal('2')!)).toBe('3000.00');
  });

  test('another currency: into CRC multiplies by its rate, out of CRC divides, exactly', () => {
    expect(convertAmount(100, 'EUR', 'CRC', 598.57)).toBe(59_857);
    expect(convertAmount(0.5, 'GBP', 'CRC', 680.05)).toBe(340.03); // 340.025 → up
    expect(convertAmount(1000, 'JPY', 'CRC', 3.41234)).toBe(3412.34);
    expect(convertAmount(1_000_000, 'VND', 'CRC', 0.0201234)).toBe(20_123.4);
    expect(convertAmount(100, 'CRC', 'JPY', 3.4)).toBe(29.41); // 29.4117…
    expect(convertAmount(100, 'CRC', 'VND', 0.02)).toBe(5000);
    expect(convertAmount(5, 'EUR', 'EUR', 598.57)).toBe(5);
  });

  test('reading decimals', () => {
    expect(parseDecimal('12')).toEqual({ int: BigInt(12), scale: 0 });
    expect(parseDecimal('-0.50')).toEqual({ int: BigInt(-50), scale: 2 });
    expect(parseDecimal('.5')).toEqual({ int: BigInt(5), scale: 1 });
    expect(parseDecimal('5.')).toEqual({ int: BigInt(5), scale: 0 });
    expect(parseDecimal('1.5E-2')).toEqual({ int: BigInt(15), scale: 3 });
    expect(parseDecimal('2e3')).toEqual({ int: BigInt(2000), scale: 0 });
    for (const bad of ['', '.', 'abc', '0x10', '1,5', '--1', 'e5']) expect(parseDecimal(bad)).toBeNull();
    expect(decimalOf(0.1)).toEqual({ int: BigInt(1), scale: 1 });
    expect(roundDecimal(decimalOf(2.675))).toBe('2.68'); // (2.675).toFixed(2) is "2.67"
    expect(() => decimalOf(Number.NaN)).toThrow(RangeError);
  });
});

describe('rates by month, fetched by span', () => {
  test('one date: its whole month', () => {
    expect(planSpans(['2025-01-15'])).toEqual([{ from: '2025-01-01', to: '2025-01-31' }]);
  });

  test('a year of dates from mid-month is one request (exact dates when whole months do not fit)', () => {
    expect(planSpans(['2024-03-15', '2025-03-14', '2024-09-01'])).toEqual([{ from: '2024-03-15', to: '2025-03-14' }]);
    expect(planSpans(['2024-03-15', '2025-03-16'])).toEqual([{ from: '2024-03-15', to: '2025-03-16' }]);
    expect(planSpans(['2024-03-15', '2025-03-17'])).toEqual([
      { from: '2024-03-01', to: '2024-03-31' },
      { from: '2025-03-01', to: '2025-03-31' },
    ]);
  });

  test('every span stays within 366 days and covers its dates', () => {
    const dates = ['1990-05-05', '2023-01-01', '2023-06-15', '2023-12-31', '2024-01-01', '2024-06-30', '2025-01-31', '2025-02-01'];
    const spans = planSpans(dates);
    expect(spans).toEqual([
      { from: '1990-05-01', to: '1990-05-31' },
      { from: '2023-01-01', to: '2024-01-01' },
      { from: '2024-06-01', to: '2025-02-28' },
    ]);
    for (const s of spans) expect(daysBetween(s.from, s.to)).toBeLessThanOrEqual(366);
    for (const d of dates) expect(spans.some((s) => s.from <= d && d <= s.to)).toBe(true);
    expect(planSpans([])).toEqual([]);
  });

  test('buckets: what is known, what is known to be missing, what is unknown', () => {
    const span = { from: '2025-01-20', to: '2025-02-05' };
    const records = daysOf({ from: '2025-01-20', to: '2025-01-31' }).map((date, i) => ({ date, buy: 500 + i, sell: 510 + i }));
    const buckets = bucketsFromSpan(span, records, new Map());
    expect([...buckets.keys()]).toEqual(['2025-01', '2025-02']);
    expect(buckets.get('2025-01')).toMatchObject({ f: 20, t: 31 });
    expect(buckets.get('2025-02')).toEqual({ f: 1, t: 5, r: {} });
    expect(lookup(buckets.get('2025-01'), '2025-01-20')).toEqual({ buy: 500, sell: 510 });
    expect(lookup(buckets.get('2025-02'), '2025-02-03')).toBeNull();
    expect(lookup(buckets.get('2025-01'), '2025-01-19')).toBeUndefined();
    expect(lookup(undefined, '2025-01-19')).toBeUndefined();
    expect(lookup({ nonsense: true }, '2025-01-19')).toBeUndefined();
  });

  test('a fetched stretch merges with a cached one it touches', () => {
    const old = { f: 1, t: 10, r: { '01': [1, 2] as [number, number] } };
    const merged = bucketsFromSpan({ from: '2025-01-11', to: '2025-01-31' }, [{ date: '2025-01-11', buy: 3, sell: 4 }], new Map([['2025-01', old]]));
    expect(merged.get('2025-01')).toEqual({ f: 1, t: 31, r: { '01': [1, 2], '11': [3, 4] } });
    const apart = bucketsFromSpan({ from: '2025-01-20', to: '2025-01-31' }, [], new Map([['2025-01', old]]));
    expect(apart.get('2025-01')).toEqual({ f: 20, t: 31, r: {} });
  });

  test('a span starts up to `lead` days early (the days a rate may be carried from), within the limit', () => {
    expect(planSpans(['2025-01-15'], 366, 10)).toEqual([{ from: '2025-01-01', to: '2025-01-31' }]);
    expect(planSpans(['2025-01-05'], 366, 10)).toEqual([{ from: '2024-12-01', to: '2025-01-31' }]);
    // A full year of dates leaves room for one earlier day, not ten.
    expect(planSpans(['2024-01-01', '2024-12-31'], 366, 10)).toEqual([{ from: '2023-12-31', to: '2024-12-31' }]);
    expect(planSpans(['2024-01-01', '2025-01-01'], 366, 10)).toEqual([{ from: '2024-01-01', to: '2025-01-01' }]);
    // No lead: as before.
    expect(planSpans(['2025-01-05'], 366, 0)).toEqual(planSpans(['2025-01-05']));
  });

  test('the rate in force: the day’s own, else the last one of the carry days before it; unknown days decide nothing', () => {
    const known: Record<string, { buy: number; sell: number } | null> = {
      '2025-01-02': { buy: 1, sell: 2 },
      '2025-01-03': { buy: 3, sell: 4 },
      '2025-01-04': null,
      '2025-01-05': null,
    };
    const read = (d: string) => known[d];
    expect(rateInForce(read, '2025-01-03', 10)).toEqual({ quote: { buy: 3, sell: 4 }, from: '2025-01-03' });
    expect(rateInForce(read, '2025-01-05', 10)).toEqual({ quote: { buy: 3, sell: 4 }, from: '2025-01-03' });
    expect(rateInForce(read, '2025-01-05', 1)).toBeNull();
    // The dollar carries nothing: a day without a rate has none.
    expect(rateInForce(read, '2025-01-05', carryDaysOf('USD'))).toBeNull();
    expect(rateInForce(read, '2025-01-06', 10)).toBeUndefined();
    expect(rateInForce(read, '2025-01-02', 10)).toEqual({ quote: { buy: 1, sell: 2 }, from: '2025-01-02' });
    // Eleven days known to have none: none in force.
    expect(rateInForce((d) => (d <= '2025-01-01' ? null : known[d]), '2025-01-01', 10)).toBeNull();
    expect([carryDaysOf('USD'), carryDaysOf('EUR'), carryDaysOf('VND')]).toEqual([0, CARRY_DAYS, CARRY_DAYS]);
    expect(carryWindow('2025-03-02', 3)).toEqual(['2025-02-27', '2025-02-28', '2025-03-01', '2025-03-02']);
  });

  test('a derived month has gaps by nature: final SETTLED_DAYS after its last known day, whatever its holes', () => {
    const weekdays = daysOf({ from: '2025-01-01', to: '2025-01-31' }).filter((d) => ![0, 6].includes(new Date(`${d}T00:00:00Z`).getUTCDay()));
    const bucket = bucketsFromSpan(
      { from: '2025-01-01', to: '2025-01-31' },
      weekdays.map((date) => ({ date, buy: 600, sell: 610 })),
      new Map(),
    ).get('2025-01')!;
    expect(bucketTtl('2025-01', bucket, '2025-02-15', 'EUR')).toBe(21_600);
    expect(bucketTtl('2025-01', bucket, addDays('2025-01-31', SETTLED_DAYS + 1), 'EUR')).toBe(21_600);
    expect(bucketTtl('2025-01', bucket, addDays('2025-01-31', SETTLED_DAYS), 'EUR')).toBe(300);
    expect(bucketTtl('2025-01', bucket, '2025-02-15', 'USD')).toBe(300);
  });

  test('complete past months are kept 6 h; today, the future and holes only minutes', () => {
    const full = bucketsFromSpan(
      { from: '2025-01-01', to: '2025-01-31' },
      daysOf({ from: '2025-01-01', to: '2025-01-31' }).map((date) => ({ date, buy: 1, sell: 2 })),
      new Map(),
    ).get('2025-01')!;
    expect(bucketTtl('2025-01', full, '2025-02-01', 'USD')).toBe(21_600);
    expect(bucketTtl('2025-01', full, '2025-01-31', 'USD')).toBe(300);
    const holey = { ...full, r: { ...full.r } };
    delete holey.r['15'];
    expect(bucketTtl('2025-01', holey, '2026-01-01', 'USD')).toBe(300);
  });
});

describe('settings', () => {
  const key = `crc_live_AbCd${'Q'.repeat(35)}wxyz`;

  test('the key is shown masked', () => {
    expect(maskKey(key)).toBe('crc_live_AbCd…wxyz');
    expect(maskKey('short')).toBe('…hort');
    expect(settingsView({ apiKey: key, baseUrl: null }, 'es')).toEqual({
      locale: 'es',
      hasKey: true,
      maskedKey: 'crc_live_AbCd…wxyz',
      baseUrl: '',
      defaultBaseUrl: DEFAULT_BASE_URL,
      stale: null,
    });
  });

  test('API addresses', () => {
    expect(normalizeBaseUrl('', en)).toBeNull();
    expect(normalizeBaseUrl('  ', en)).toBeNull();
    expect(normalizeBaseUrl('https://Rates.Example.com', en)).toBe('https://rates.example.com/api/v1');
    expect(normalizeBaseUrl('https://rates.example.com/', en)).toBe('https://rates.example.com/api/v1');
    expect(normalizeBaseUrl('https://rates.example.com/api/v1/', en)).toBe('https://rates.example.com/api/v1');
    expect(normalizeBaseUrl('http://127.0.0.1:3000/api/v1', en)).toBe('http://127.0.0.1:3000/api/v1');
    for (const bad of ['rates.example.com', 'ftp://x.com', 'https://user:pw@x.com/api/v1', 'https://x.com/api?x=1', 'javascript:alert(1)']) {
      expect(() => normalizeBaseUrl(bad, en)).toThrow(ArgumentError);
    }
  });

  test('a saved key only goes to the address it was saved with', () => {
    const stored = { apiKey: key, baseUrl: 'https://rates.example.com/api/v1' };
    expect(resolveSettings(stored, { key: '', baseUrl: 'https://rates.example.com/' }, en)).toEqual(stored);
    expect(() => resolveSettings(stored, { baseUrl: 'https://evil.example.com' }, en)).toThrow('Paste the key again to use it with a new API address.');
    expect(() => resolveSettings(stored, {}, es)).toThrow('Pegue la clave de nuevo para usarla con una dirección de API nueva.');
    const other = `crc_live_${'Z'.repeat(43)}`;
    expect(resolveSettings(stored, { key: ` ${other} `, baseUrl: '' }, en)).toEqual({ apiKey: other, baseUrl: null });
    expect(resolveSettings({ apiKey: null, baseUrl: null }, { baseUrl: 'https://x.example.com' }, en)).toEqual({
      apiKey: null,
      baseUrl: 'https://x.example.com/api/v1',
    });
    expect(() => resolveSettings(stored, { key: 'crc_live_ short' }, en)).toThrow(en.badKeyFormat);
  });

  test('boot JSON cannot close its script element', () => {
    const text = scriptJson({ a: '</script><script>alert(1)</script>', b: '\u2028&' });
    expect(text).not.toMatch(/<|>|&|\u2028/);
    expect(JSON.parse(text)).toEqual({ a: '</script><script>alert(1)</script>', b: '\u2028&' });
  });
});

describe('API answers', () => {
  const base = 'https://api.example.com/api/v1';
  const reply = (status: number, body: unknown, headers: Record<string, string> = {}) => ({
    status,
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const fail = (status: number, error: string, message: string, headers?: Record<string, string>, t = en) =>
    thrown(() => readAnswer(reply(status, { success: false, error, message }, headers), base, t, Date.parse('2026-11-22T12:00:00Z'))) as ApiError;

  test('the data of a success', () => {
    expect(readAnswer(reply(200, { success: true, data: [1, 2] }), base, en)).toEqual([1, 2]);
  });

  test('401: rejected or revoked', () => {
    expect(fail(401, 'UNAUTHORIZED', 'The API key is not valid').message).toBe(en.keyRejected());
    expect(fail(401, 'UNAUTHORIZED', 'The API key has been revoked', {}, es).message).toBe(es.keyRevoked());
  });

  test('429: the quota (from X-Quota-Reset, or Retry-After) and the rate limit', () => {
    expect(fail(429, 'QUOTA_EXCEEDED', 'used up', { 'x-quota-reset': '2026-12-01T00:00:00.000Z', 'retry-after': '1' }).message).toBe(
      'Monthly quota used up: resets on 2026-12-01 00:00 UTC',
    );
    expect(fail(429, 'QUOTA_EXCEEDED', 'used up', { 'Retry-After': '3600' }).message).toBe('Monthly quota used up: resets on 2026-11-22 13:00 UTC');
    const limited = fail(429, 'RATE_LIMITED', 'slow down', { 'Retry-After': '17' });
    expect(limited.message).toBe('Too many requests: try again in 17 s');
    expect(limited).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
  });

  test('Retry-After as an HTTP date (a proxy may send one), and never a wait of 0 s', () => {
    const now = Date.parse('2026-11-22T12:00:00Z');
    const limited = (retryAfter: string) =>
      (
        thrown(() =>
          readAnswer(reply(429, { success: false, error: 'RATE_LIMITED', message: 'slow down' }, { 'Retry-After': retryAfter }), base, en, now),
        ) as ApiError
      ).message;
    expect(limited('Sun, 22 Nov 2026 12:00:45 GMT')).toBe('Too many requests: try again in 45 s');
    expect(limited('0')).toBe('Too many requests: try again in 1 s');
    expect(limited('soon')).toBe('Too many requests: try again in 60 s');
  });

  test('an error code this add-on does not know, and envelopes that contradict their status', () => {
    const unknown = thrown(() => readAnswer(reply(402, { success: false, error: 'PAYMENT_REQUIRED', message: 'Pay' }), base, en)) as ApiError;
    expect(unknown).toMatchObject({ status: 402, code: 'UNEXPECTED' });
    const unknown5xx = thrown(() => readAnswer(reply(507, { success: false, error: 'INSUFFICIENT_STORAGE', message: 'Full' }), base, en)) as ApiError;
    expect(unknown5xx).toMatchObject({ status: 507, code: 'UNEXPECTED', message: 'The CRC Rates API is unavailable (HTTP 507): try again later' });
    const failureOn200 = thrown(() => readAnswer(reply(200, { success: false, error: 'BAD_REQUEST', message: 'x' }), base, en)) as ApiError;
    expect(failureOn200).toMatchObject({ status: 200, code: 'UNEXPECTED' });
    expect(thrown(() => readAnswer(reply(200, { success: true }), base, en))).toMatchObject({ status: 200, code: 'UNEXPECTED' });
  });

  test('400, 404, 5xx and answers that are not the envelope', () => {
    expect(fail(400, 'BAD_REQUEST', 'Parameter "days" must be …').message).toBe('The API refused the request: Parameter "days" must be …');
    expect(fail(404, 'NOT_FOUND', 'No exchange rate has been stored yet').message).toBe('No data: No exchange rate has been stored yet');
    expect(fail(503, 'SERVICE_UNAVAILABLE', 'Database unreachable').message).toBe('The CRC Rates API is unavailable (HTTP 503): try again later');
    expect(thrown(() => readAnswer(reply(502, '<html>Bad gateway</html>'), base, en)).message).toBe(
      'The CRC Rates API is unavailable (HTTP 502): try again later',
    );
    expect(thrown(() => readAnswer(reply(200, '<html>login</html>'), base, en)).message).toBe(
      'Unexpected answer from https://api.example.com (HTTP 200): check the API address in Extensions → CRC Rates → Settings',
    );
    expect(thrown(() => readAnswer(reply(301, ''), base, es)).message).toMatch(/^Respuesta inesperada de https:\/\/api\.example\.com \(HTTP 301\)/);
  });

  test('URLs and headers', () => {
    expect(buildUrl(base, '/exchange-rate/range', { from: '2025-01-01', to: '2025-01-31' })).toBe(`${base}/exchange-rate/range?from=2025-01-01&to=2025-01-31`);
    expect(buildUrl(base, '/banking/best', { operation: 'a&b' })).toBe(`${base}/banking/best?operation=a%26b`);
    expect(buildUrl(base, '/exchange-rate/latest')).toBe(`${base}/exchange-rate/latest`);
    expect(originOf('http://127.0.0.1:3000/api/v1')).toBe('http://127.0.0.1:3000');
    expect(header({ 'X-Quota-Reset': 'a' }, 'x-quota-reset')).toBe('a');
    expect(header({ 'retry-after': ['5', '6'] }, 'Retry-After')).toBe('5');
    expect(header({}, 'Retry-After')).toBeUndefined();
  });
});

describe('tables', () => {
  const toDate = (day: string) => new Date(`${day}T06:00:00Z`);

  test('history: header row, real dates, numbers', () => {
    expect(historyTable([{ date: '2025-01-15', buy: 506.47, sell: 512.82 }], es, toDate)).toEqual([
      ['Fecha', 'Compra', 'Venta'],
      [new Date('2025-01-15T06:00:00Z'), 506.47, 512.82],
    ]);
  });

  test('best: rank, name, type label, buy, sell, vs official (blank when unknown)', () => {
    const ranking = [
      { rank: 1, id: 'a', name: 'A', type: 'public_bank', buy: 505, sell: 515, spread: 10, updatedAt: null, stale: false, vsOfficial: 2.18 },
      { rank: 1, id: 'b', name: 'B', type: 'mystery', buy: 505, sell: 516, spread: 11, updatedAt: null, stale: true, vsOfficial: null },
    ] as never;
    expect(bestTable({ ranking }, en)).toEqual([
      ['Rank', 'Institution', 'Type', 'Buy', 'Sell', 'vs official'],
      [1, 'A', 'Public bank', 505, 515, 2.18],
      [1, 'B', 'mystery', 505, 516, ''],
    ]);
  });

  test('analytics: metric and value, dates as dates, trend in words', () => {
    const side = {
      average: 1,
      min: 1,
      minDate: '2025-01-02',
      max: 2,
      maxDate: '2025-01-03',
      first: 1,
      last: 2,
      change: 1,
      changePercent: 100,
      volatility: 0,
      trend: 'up' as const,
      slopePerDay: 0.5,
    };
    const table = analyticsTable({ from: '2025-01-01', to: '2025-01-30', count: 30, buy: side, sell: { ...side, trend: 'stable' } }, es, toDate);
    expect(table[0]).toEqual(['Indicador', 'Valor']);
    expect(table).toContainEqual(['Desde', toDate('2025-01-01')]);
    expect(table).toContainEqual(['Compra: fecha del mínimo', toDate('2025-01-02')]);
    expect(table).toContainEqual(['Compra: tendencia', 'al alza']);
    expect(table).toContainEqual(['Venta: tendencia', 'estable']);
    expect(table.every((r) => r.length === 2)).toBe(true);
  });
});

/** Document properties in memory, with the calls counted. */
describe('the last known good copy', () => {
  test('an answer is kept in ASCII parts under 9 KB each, and comes back whole', () => {
    const props = memoryProperties();
    const lastGood = createLastGood(props.store, {}, () => 1_000);
    const big = Array.from({ length: 400 }, (_, i) => ({ date: `2024-01-${i}`, name: 'Banco Popular – San José', buy: 500 + i / 100, sell: 510 }));
    lastGood.keep([
      { key: 'k|big', value: big },
      { key: 'k|small', value: 512.82 },
    ]);
    expect(props.ops).toEqual([expect.stringMatching(/^setProperties:\d+$/)]);
    const names = [...props.data.keys()];
    const parts = names.filter((n) => n.startsWith(`CRC_RATES_LKG.${hash53('k|big')}.`));
    expect(parts.length).toBeGreaterThan(2);
    for (const n of names) {
      expect(props.data.get(n)!.length).toBeLessThanOrEqual(LAST_GOOD.partChars);
      expect(props.data.get(n)).toMatch(/^[\x20-\x7e]*$/);
    }
    const again = createLastGood(props.store, props.snapshot(), () => 2_000);
    expect(again.recall(['k|big', 'k|small', 'k|none'])).toEqual(
      new Map([
        ['k|big', { value: big, savedAt: 1_000 }],
        ['k|small', { value: 512.82, savedAt: 1_000 }],
      ]),
    );
  });

  test('bounded: the answers saved longest ago go first, and a rewritten answer replaces its old parts', () => {
    const props = memoryProperties();
    const value = 'x'.repeat(2_000);
    for (let i = 0; i < 80; i++) createLastGood(props.store, props.snapshot(), () => i).keep([{ key: `k|${i}`, value }]);
    const { kept } = readKept(props.snapshot());
    const size = [...kept.values()].reduce((total, e) => total + e.size, 0);
    expect(size).toBeLessThanOrEqual(LAST_GOOD.maxChars);
    const keptKeys = [...kept.values()].map((e) => e.key).sort((a, b) => Number(a.slice(2)) - Number(b.slice(2)));
    // The newest that fit, none older than the oldest kept.
    expect(keptKeys.at(-1)).toBe('k|79');
    const oldest = Number(keptKeys[0]!.slice(2));
    expect(keptKeys).toEqual(Array.from({ length: 80 - oldest }, (_, i) => `k|${oldest + i}`));
    expect(size + 2_100).toBeGreaterThan(LAST_GOOD.maxChars);

    // A smaller value for a kept key: its extra parts go.
    const before = [...props.data.keys()].filter((n) => n.includes(`.${hash53('k|79')}.`));
    createLastGood(props.store, props.snapshot(), () => 100).keep([{ key: 'k|79', value: 'y'.repeat(9_000) }]);
    createLastGood(props.store, props.snapshot(), () => 101).keep([{ key: 'k|79', value: 1 }]);
    const after = [...props.data.keys()].filter((n) => n.includes(`.${hash53('k|79')}.`));
    expect(before).toHaveLength(1);
    expect(after).toEqual([`CRC_RATES_LKG.${hash53('k|79')}.0.1`]);
  });

  test('no more than maxEntries answers, however small', () => {
    const props = memoryProperties();
    const lastGood = createLastGood(props.store, {}, () => 5);
    // One call with more answers than the copy holds keeps the first that fit.
    lastGood.keep(Array.from({ length: LAST_GOOD.maxEntries + 20 }, (_, i) => ({ key: `k|${i}`, value: i })));
    expect(readKept(props.snapshot()).kept.size).toBe(LAST_GOOD.maxEntries);
    expect(lastGood.recall([`k|${LAST_GOOD.maxEntries - 1}`, `k|${LAST_GOOD.maxEntries}`]).size).toBe(1);
    // A later answer takes the place of one saved before it.
    createLastGood(props.store, props.snapshot(), () => 6).keep([{ key: 'k|new', value: 1 }]);
    const { kept } = readKept(props.snapshot());
    expect(kept.size).toBe(LAST_GOOD.maxEntries);
    expect([...kept.values()].some((e) => e.key === 'k|new')).toBe(true);
  });

  test('a torn answer (a part missing, unreadable JSON) is not recalled, and goes at the next write', () => {
    const id = hash53('k|a');
    const props = memoryProperties({
      [`CRC_RATES_LKG.${id}.0.2`]: '{"k":"k|a","t":1,"v":',
      [`CRC_RATES_LKG.${hash53('k|b')}.0.1`]: '{"k":"k|b","t":1,"v":[1,',
      'CRC_RATES_LKG.nonsense': 'x',
      CRC_RATES_API_KEY: 'kept',
    });
    const lastGood = createLastGood(props.store, props.snapshot(), () => 2);
    expect(lastGood.recall(['k|a', 'k|b']).size).toBe(0);
    lastGood.keep([{ key: 'k|c', value: 3 }]);
    expect([...props.data.keys()].sort()).toEqual(['CRC_RATES_API_KEY', `CRC_RATES_LKG.${hash53('k|c')}.0.1`]);
  });

  test('stale: marked with why and when, cleared key by key as the API answers again', () => {
    const props = memoryProperties();
    const lastGood = createLastGood(props.store, {}, () => Date.parse('2026-11-21T09:30:00Z'));
    lastGood.keep([
      { key: 'k|a', value: 1 },
      { key: 'k|b', value: 2 },
    ]);
    let now = Date.parse('2026-11-22T14:00:00Z');
    const later = createLastGood(props.store, props.snapshot(), () => now);
    later.markStale(later.recall(['k|a', 'k|b']), 'The CRC Rates API is unavailable (HTTP 503): try again later');
    expect(staleView(later.stale())).toEqual({
      since: '2026-11-22T14:00:00.000Z',
      at: '2026-11-22T14:00:00.000Z',
      reason: 'The CRC Rates API is unavailable (HTTP 503): try again later',
      count: 2,
      oldestSavedAt: '2026-11-21T09:30:00.000Z',
    });
    now += 60_000;
    const third = createLastGood(props.store, props.snapshot(), () => now);
    expect(third.stale()?.keys).toEqual({ 'k|a': Date.parse('2026-11-21T09:30:00Z'), 'k|b': Date.parse('2026-11-21T09:30:00Z') });
    third.keep([{ key: 'k|a', value: 10 }]);
    expect(Object.keys(JSON.parse(props.data.get('CRC_RATES_STALE')!).keys)).toEqual(['k|b']);
    third.keep([{ key: 'k|b', value: 20 }]);
    expect(props.data.has('CRC_RATES_STALE')).toBe(false);
    expect(staleView(third.stale())).toBeNull();
  });

  test('properties that refuse (quota) cost the copy, never the answer', () => {
    const refusing: PropertyStore = {
      setProperties: () => {
        throw new Error('Exception: You have exceeded the property storage quota.');
      },
      setProperty: () => {
        throw new Error('Exception: Service invoked too many times');
      },
      deleteProperty: () => {
        throw new Error('Exception: Service invoked too many times');
      },
    };
    const lastGood = createLastGood(refusing, {}, () => 1);
    expect(() => lastGood.keep([{ key: 'k|a', value: 1 }])).not.toThrow();
    expect(() => lastGood.markStale(new Map([['k|a', { value: 1, savedAt: 1 }]]), 'x')).not.toThrow();
    expect(createLastGood(null, {}, () => 1).recall(['k|a']).size).toBe(0);
  });
});

describe('a transient failure answers from the copy; the user’s errors do not', () => {
  test('503, 502 without an envelope, and 429 give the last value; a 400 or 404 gives its error', () => {
    let reply: HttpAnswer = ok([{ date: '2026-11-22', buy: 500, sell: 510 }]);
    const f = fakeEnv(() => reply);
    expect(exchangeHistory(f.env(), 1)).toEqual([
      ['Date', 'Buy', 'Sell'],
      [expect.any(Date), 500, 510],
    ]);
    for (const failure of [
      fail(503, 'SERVICE_UNAVAILABLE', 'Database unreachable'),
      { status: 502, headers: {}, body: '<html>' },
      fail(429, 'RATE_LIMITED', 'slow down'),
    ]) {
      reply = failure;
      f.advance(301);
      expect(exchangeHistory(f.env(), 1)).toEqual([
        ['Date', 'Buy', 'Sell'],
        [expect.any(Date), 500, 510],
      ]);
    }
    expect(JSON.parse(f.props.data.get('CRC_RATES_STALE')!).reason).toBe('Too many requests: try again in 30 s');
    reply = fail(400, 'BAD_REQUEST', 'Parameter "days" must be an integer from 1 to 365 (got "1")');
    f.advance(301);
    expect(thrown(() => exchangeHistory(f.env(), 1)).message).toBe('The API refused the request: Parameter "days" must be an integer from 1 to 365 (got "1")');
    // The API answered again: nothing is stale any more.
    reply = ok([{ date: '2026-11-22', buy: 501, sell: 511 }]);
    expect(exchangeHistory(f.env(), 1)[1]!.slice(1)).toEqual([501, 511]);
    expect(f.props.data.has('CRC_RATES_STALE')).toBe(false);
    expect(f.urls).toEqual(Array(6).fill('/exchange-rate/history?days=1'));
  });

  test('a range is answered from the copy only when the copy has every day of it', () => {
    let up = true;
    const f = fakeEnv((url) => {
      if (!up) return fail(503, 'SERVICE_UNAVAILABLE', 'down');
      const from = /from=([\d-]+)/.exec(url)![1]!;
      return ok([{ date: from.replace(/-01$/, '-05'), buy: 1, sell: 2 }]);
    });
    expect(exchangeRate(f.env(), [['2026-01-05']], 'sell', '')).toEqual([[2]]);
    up = false;
    f.advance(21_601);
    expect(exchangeRate(f.env(), [['2026-01-05'], ['2026-01-06']], 'sell', '')).toEqual([[2], ['No rate']]);
    expect(thrown(() => exchangeRate(f.env(), [['2026-01-05'], ['2026-02-05']], 'sell', '')).message).toBe(
      'The CRC Rates API is unavailable (HTTP 503): try again later',
    );
  });

  test('EXCHANGECLOSE from the copy: the months kept answer, a month never fetched fails', () => {
    let up = true;
    const period = (month: string) => ({
      period: month,
      from: `${month}-01`,
      to: `${month}-31`,
      count: 31,
      buy: { average: 500.1234, min: 1, max: 2, first: 1, last: 501, change: 0 },
      sell: { average: 510.5, min: 1, max: 2, first: 1, last: 511, change: 0 },
    });
    const f = fakeEnv(() => (up ? ok([period('2025-01'), period('2025-03')]) : null));
    expect(exchangeClose(f.env(), [['2025-01'], ['2025-02'], ['2025-03']], 'buy', 'average', undefined)).toEqual([[500.1234], ['No rate'], [500.1234]]);
    up = false;
    f.advance(21_601);
    expect(exchangeClose(f.env(), [['2025-01'], ['2025-02']], 'sell', 'closing', undefined)).toEqual([[511], ['No rate']]);
    expect(thrown(() => exchangeClose(f.env(), '2024-12', '', '', '')).message).toBe(
      'Could not reach the CRC Rates API at https://api.example.com: Address unavailable',
    );
    expect(f.urls).toEqual([
      '/exchange-rate/stats?period=monthly&from=2025-01-01&to=2025-03-31',
      '/exchange-rate/stats?period=monthly&from=2025-01-01&to=2025-02-28',
      '/exchange-rate/stats?period=monthly&from=2024-12-01&to=2024-12-31',
    ]);
  });
});

describe('month-close figures', () => {
  const period = {
    period: '2024-02',
    from: '2024-02-01',
    to: '2024-02-29',
    count: 29,
    buy: { average: 505.1, min: 500, max: 510, first: 500, last: 506.47, change: 6.47 },
    sell: { average: 511.2, min: 505, max: 515, first: 505, last: 512.82, change: 7.82 },
  };

  test('closing is the last calendar day’s rate, else none; average is the month’s', () => {
    const figures = figuresOf(period);
    expect(figures).toEqual({ n: 29, to: '2024-02-29', buy: [505.1, 506.47], sell: [511.2, 512.82] });
    expect(figureOf('2024-02', figures, 'buy', 'closing', 'USD', '2024-03-01')).toBe(506.47);
    expect(figureOf('2024-02', figures, 'sell', 'average', 'USD', '2024-03-01')).toBe(511.2);
    const shortOfLastDay = figuresOf({ ...period, to: '2024-02-28', count: 28 });
    expect(figureOf('2024-02', shortOfLastDay, 'sell', 'closing', 'USD', '2024-03-01')).toBeNull();
    expect(figureOf('2024-02', shortOfLastDay, 'sell', 'average', 'USD', '2024-03-01')).toBe(511.2);
  });

  test('a derived currency closes with the rate in force on the last day: the last of the carry days before it, once that day has come', () => {
    // 2024-03-31 is a Sunday, and Good Friday the 29th had no euro rate: Thursday's closes March.
    const march = figuresOf({ ...period, period: '2024-03', from: '2024-03-01', to: '2024-03-28', count: 19 });
    expect(figureOf('2024-03', march, 'sell', 'closing', 'EUR', '2024-04-02')).toBe(512.82);
    expect(figureOf('2024-03', march, 'buy', 'closing', 'EUR', '2024-03-31')).toBe(506.47);
    // The last day not yet come: the month is not complete.
    expect(figureOf('2024-03', march, 'sell', 'closing', 'EUR', '2024-03-30')).toBeNull();
    // The dollar carries nothing, and a last rate older than the carry days is none.
    expect(figureOf('2024-03', march, 'sell', 'closing', 'USD', '2024-04-02')).toBeNull();
    const early = figuresOf({ ...period, period: '2024-03', to: addDays('2024-03-31', -(CARRY_DAYS + 1)), count: 10 });
    expect(figureOf('2024-03', early, 'sell', 'closing', 'EUR', '2024-04-02')).toBeNull();
    expect(figureOf('2024-03', early, 'sell', 'average', 'EUR', '2024-04-02')).toBe(511.2);
  });

  test('a complete month that is over is kept 6 h; a running month, a holey one or an empty one a few minutes', () => {
    const figures = figuresOf(period);
    expect(figuresTtl('2024-02', figures, '2024-03-01', 'USD')).toBe(21_600);
    expect(figuresTtl('2024-02', figures, '2024-02-29', 'USD')).toBe(300);
    expect(figuresTtl('2024-02', { ...figures, n: 28 }, '2025-01-01', 'USD')).toBe(300);
    expect(figuresTtl('2024-02', null, '2025-01-01', 'USD')).toBe(300);
  });

  test('a derived month with gaps is final once it ended SETTLED_DAYS ago; a month without a record never is', () => {
    const figures = figuresOf({ ...period, count: 21, to: '2024-02-29' });
    expect(figuresTtl('2024-02', figures, addDays('2024-02-29', SETTLED_DAYS + 1), 'EUR')).toBe(21_600);
    expect(figuresTtl('2024-02', figures, addDays('2024-02-29', SETTLED_DAYS), 'EUR')).toBe(300);
    expect(figuresTtl('2024-02', figures, '2025-01-01', 'USD')).toBe(300);
    expect(figuresTtl('2024-02', null, '2025-01-01', 'EUR')).toBe(300);
  });
});

describe('the freeze plan', () => {
  test('rectangles cover exactly the marked cells, merging equal runs of rows', () => {
    const marked = [
      [true, true, false, true],
      [true, true, false, true],
      [false, true, false, false],
      [false, false, false, false],
    ];
    expect(coverRects(marked)).toEqual([
      { row: 0, column: 0, rows: 2, columns: 2 },
      { row: 0, column: 3, rows: 2, columns: 1 },
      { row: 2, column: 1, rows: 1, columns: 1 },
    ]);
    expect(coverRects([[false]])).toEqual([]);
  });

  test('only the selected formulas; the cells their freeze emptied; values as setValues keeps them', () => {
    const formulas = [
      ['', '=A', ''],
      ['=B', '', '=C'],
    ];
    expect(selectedFormulas(formulas, { row: 0, column: 1, rows: 2, columns: 2 })).toEqual([
      [false, true, false],
      [false, false, true],
    ]);
    const before = [
      ['x', 1, 'spill'],
      [2, 'spill', 3],
    ];
    const after = [
      ['x', 1, ''],
      [2, '', 3],
    ];
    expect(lostCells(before, after, formulas)).toEqual([
      [false, false, true],
      [false, true, false],
    ]);
    expect(slice(before, { row: 0, column: 1, rows: 2, columns: 2 })).toEqual([
      [1, 'spill'],
      ['spill', 3],
    ]);
    const date = new Date(0);
    expect([literal('0123'), literal('#N/A'), literal(''), literal(5), literal(date), literal(true)]).toEqual(["'0123", "'#N/A", '', 5, date, true]);
  });
});
