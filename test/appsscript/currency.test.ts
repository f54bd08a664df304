/**
 * The custom functions in a currency other than the dollar, against a fake API whose euro skips
 * weekends and holidays as the central bank's cross rates do: what is asked (one request for a
 * column, the currency in the query), what a day without a rate shows (the rate in force), what
 * is cached under which key, and what the last known good copy answers.
 */
import { exchangeClose } from '../../appsscript/src/close';
import { exchangeConvert, exchangeRate } from '../../appsscript/src/service';
import { addDays, daysBetween } from '../../shared/dates';
import { fakeEnv, ok } from './support/fake-env';

/** Monday. */
const TODAY = '2025-02-10';
/** The euro's days: weekdays from 2023-06-01 to today, but these holidays. */
const EUR_FIRST = '2023-06-01';
const HOLIDAYS = new Set(['2024-01-01', '2024-12-25', '2024-12-26']);
const isWeekend = (d: string) => [0, 6].includes(new Date(`${d}T00:00:00Z`).getUTCDay());
const hasEuro = (d: string) => d >= EUR_FIRST && d <= TODAY && !isWeekend(d) && !HOLIDAYS.has(d);
const euro = (d: string) => {
  const sell = 600 + daysBetween(EUR_FIRST, d) / 100;
  return { date: d, buy: Math.round((sell - 10) * 100) / 100, sell };
};
/** The dollar's days: every one, tomorrow's included (published the afternoon before). */
const dollar = (d: string) => (d <= addDays(TODAY, 1) ? { date: d, buy: 500, sell: 510 } : null);

/** The fake API: /range, /latest and /stats in USD (every day) or EUR (weekdays), as asked. */
function api(url: string) {
  const u = new URL(url);
  const q = Object.fromEntries(u.searchParams);
  const currency = q.currency ?? 'USD';
  const record = (d: string) => (currency === 'EUR' ? (hasEuro(d) ? euro(d) : null) : dollar(d));
  if (u.pathname.endsWith('/exchange-rate/range')) {
    const out = [];
    for (let d = q.from!; d <= q.to!; d = addDays(d, 1)) {
      const r = record(d);
      if (r) out.push(r);
    }
    return ok(out);
  }
  if (u.pathname.endsWith('/exchange-rate/latest')) return ok(currency === 'EUR' ? euro(TODAY) : dollar(TODAY));
  if (u.pathname.endsWith('/exchange-rate/stats')) {
    // One Period per month of the span that has a record: its average and its last record.
    const periods = [];
    for (let month = q.from!.slice(0, 7); month <= q.to!.slice(0, 7); month = addDays(`${month}-28`, 4).slice(0, 7)) {
      const records = daysOfMonth(month).flatMap((d) => record(d) ?? []);
      if (records.length === 0) continue;
      const side = (s: 'buy' | 'sell') => {
        const values = records.map((r) => r[s]);
        const average = Math.round((values.reduce((a, b) => a + b, 0) / values.length) * 1e4) / 1e4;
        return { average, min: Math.min(...values), max: Math.max(...values), first: values[0], last: values.at(-1), change: 0 };
      };
      periods.push({ period: month, from: records[0]!.date, to: records.at(-1)!.date, count: records.length, buy: side('buy'), sell: side('sell') });
    }
    return ok(periods);
  }
  throw new Error(`unexpected request ${url}`);
}

describe('EXCHANGERATE in euros', () => {
  test('a weekend day gives Friday’s rate; the month comes with one request that names the currency, then from the cache', () => {
    const f = fakeEnv(api, TODAY);
    // 2025-01-18 is a Saturday, 2025-01-17 a Friday.
    expect(exchangeRate(f.env(), '2025-01-18', 'sell', 'eur')).toBe(euro('2025-01-17').sell);
    expect(f.urls).toEqual(['/exchange-rate/range?from=2025-01-01&to=2025-01-31&currency=EUR']);
    expect(exchangeRate(f.env(), '2025-01-19', 'buy', 'EUR')).toBe(euro('2025-01-17').buy);
    expect(exchangeRate(f.env(), '2025-01-20', '', 'EUR')).toBe(euro('2025-01-20').sell);
    expect(f.urls).toHaveLength(1);
    // The dollar's month is another entry: its own request, with no currency.
    expect(exchangeRate(f.env(), '2025-01-18', 'sell', '')).toBe(510);
    expect(f.urls[1]).toBe('/exchange-rate/range?from=2025-01-01&to=2025-01-31');
  });

  test('a column of dates is one request; weekends and holidays carry the rate before them; before the series, no rate', () => {
    const f = fakeEnv(api, TODAY);
    const dates = daysBetween('2024-12-20', '2025-01-05') + 1;
    const rows = Array.from({ length: dates }, (_, i) => [addDays('2024-12-20', i)]);
    rows.push(['not a date'], ['']);
    const out = exchangeRate(f.env(), rows, 'sell', 'EUR') as unknown[][];
    expect(f.urls).toEqual(['/exchange-rate/range?from=2024-12-01&to=2025-01-31&currency=EUR']);
    const byDate = new Map(rows.map((r, i) => [r[0], out[i]![0]]));
    expect(byDate.get('2024-12-20')).toBe(euro('2024-12-20').sell);
    // Saturday to Sunday, then the 25th and 26th (holidays): the last rate before them.
    for (const d of ['2024-12-21', '2024-12-22']) expect(byDate.get(d)).toBe(euro('2024-12-20').sell);
    for (const d of ['2024-12-25', '2024-12-26']) expect(byDate.get(d)).toBe(euro('2024-12-24').sell);
    expect(byDate.get('2024-12-27')).toBe(euro('2024-12-27').sell);
    expect(byDate.get('2025-01-01')).toBe(euro('2025-01-01').sell);
    expect(byDate.get('2025-01-05')).toBe(euro('2025-01-03').sell);
    expect(out.slice(-2)).toEqual([['Not a date'], ['']]);
    expect(exchangeRate(f.env(), [['2023-05-20'], ['2023-06-01']], 'sell', 'EUR')).toEqual([['No rate'], [euro('2023-06-01').sell]]);
    expect(f.urls).toHaveLength(2);
  });

  test('a day early in a month is asked with the month before it, in the same request', () => {
    const f = fakeEnv(api, TODAY);
    // 2024-06-01 is a Saturday: its rate in force is 2024-05-31's.
    expect(exchangeRate(f.env(), '2024-06-01', 'sell', 'EUR')).toBe(euro('2024-05-31').sell);
    expect(f.urls).toEqual(['/exchange-rate/range?from=2024-05-01&to=2024-06-30&currency=EUR']);
  });

  test('a full year of dates from a holiday: the year in one request, the days before it in a second', () => {
    const f = fakeEnv(api, TODAY);
    const rows = daysOfYear('2024').map((d) => [d]);
    const out = exchangeRate(f.env(), rows, 'buy', 'EUR') as unknown[][];
    expect(f.urls).toEqual([
      '/exchange-rate/range?from=2023-12-31&to=2024-12-31&currency=EUR',
      '/exchange-rate/range?from=2023-12-01&to=2023-12-31&currency=EUR',
    ]);
    // 2024-01-01 (a holiday, a Monday) has Friday 2023-12-29's rate.
    expect(out[0]![0]).toBe(euro('2023-12-29').buy);
    expect(out[5]![0]).toBe(euro('2024-01-05').buy);
    expect(out[6]![0]).toBe(euro('2024-01-05').buy);
    // Now every month is cached: no request.
    exchangeRate(f.env(), rows, 'sell', 'EUR');
    expect(f.urls).toHaveLength(2);
  });

  test('carried only up to today: a later day without a rate is not published yet, not a gap', () => {
    const f = fakeEnv(api, TODAY);
    // TODAY is Monday 2025-02-10; the 8th is the Saturday before, the 15th the Saturday after; the
    // dollar has tomorrow already, the euro not.
    expect(exchangeRate(f.env(), [['2025-02-08'], ['2025-02-15'], ['2025-02-11'], [TODAY]], 'sell', 'EUR')).toEqual([
      [euro('2025-02-07').sell],
      ['No rate'],
      ['No rate'],
      [euro(TODAY).sell],
    ]);
    expect(exchangeRate(f.env(), '2025-02-11', 'sell', 'USD')).toBe(510);
    expect(() => exchangeRate(f.env(), '2025-02-16', 'sell', 'EUR')).toThrow('No EUR rate for 2025-02-16');
  });

  test('the latest rate: /latest in that currency, cached apart from the dollar’s', () => {
    const f = fakeEnv(api, TODAY);
    expect(exchangeRate(f.env(), '', 'sell', 'EUR')).toBe(euro(TODAY).sell);
    expect(exchangeRate(f.env(), undefined, 'sell', 'USD')).toBe(510);
    expect(exchangeRate(f.env(), '', 'buy', 'eur')).toBe(euro(TODAY).buy);
    expect(f.urls).toEqual(['/exchange-rate/latest?currency=EUR', '/exchange-rate/latest']);
  });

  test('the dollar carries nothing: a day without its rate says so', () => {
    const f = fakeEnv((url) => (url.includes('currency=') ? api(url) : ok([dollar('2025-01-17')])), TODAY);
    expect(() => exchangeRate(f.env(), '2025-01-18', 'sell', 'USD')).toThrow('No rate for 2025-01-18');
    expect(() => exchangeRate(f.env(), '2023-05-20', 'sell', 'EUR')).toThrow('No EUR rate for 2023-05-20');
  });

  test('an unknown currency fails before any request', () => {
    const f = fakeEnv(api, TODAY);
    expect(() => exchangeRate(f.env(), '2025-01-18', 'sell', 'EURO')).toThrow(/^currency must be a supported currency code \(USD when empty\): USD, AED/);
    expect(() => exchangeRate(f.env(), [['2025-01-18']], 'sell', 'CRC')).toThrow(/\(got "CRC"\)$/);
    expect(f.urls).toEqual([]);
  });

  test('the API down: the copy answers what it kept, carried days included; a month it never had fails', () => {
    let up = true;
    const f = fakeEnv((url) => (up ? api(url) : null), TODAY);
    const rows = [['2025-01-17'], ['2025-01-18'], ['2025-01-19']];
    const before = exchangeRate(f.env(), rows, 'sell', 'EUR');
    up = false;
    f.advance(21_601);
    expect(exchangeRate(f.env(), rows, 'sell', 'EUR')).toEqual(before);
    expect(JSON.parse(f.props.data.get('CRC_RATES_STALE')!).keys).toHaveProperty(['crc-rates:v1|https://api.example.com/api/v1|month|2025-01|EUR']);
    expect(() => exchangeRate(f.env(), '2024-03-01', 'sell', 'EUR')).toThrow(/^Could not reach the CRC Rates API/);
    // The dollar's month was never fetched: the euro's copy does not stand for it.
    expect(() => exchangeRate(f.env(), '2025-01-17', 'sell', 'USD')).toThrow(/^Could not reach the CRC Rates API/);
  });
});

describe('EXCHANGECONVERT in other currencies', () => {
  test('EUR→CRC multiplies by the euro’s rate in force; CRC→EUR divides; one request', () => {
    const f = fakeEnv(api, TODAY);
    const friday = euro('2025-01-17').sell;
    expect(exchangeConvert(f.env(), 100, 'EUR', 'CRC', 'sell', '2025-01-18')).toBe(Math.round(friday * 100 * 100) / 100);
    expect(exchangeConvert(f.env(), [[friday], ['']], 'crc', 'eur', '', '2025-01-19')).toEqual([[1], ['']]);
    expect(f.urls).toEqual(['/exchange-rate/range?from=2025-01-01&to=2025-01-31&currency=EUR']);
    expect(exchangeConvert(f.env(), 10, 'EUR', 'CRC', 'buy', '')).toBe(Math.round(euro(TODAY).buy * 10 * 100) / 100);
    expect(f.urls[1]).toBe('/exchange-rate/latest?currency=EUR');
  });

  test('neither side CRC is refused before any request; the same currency needs no rate', () => {
    const f = fakeEnv(api, TODAY);
    expect(() => exchangeConvert(f.env(), 100, 'EUR', 'USD', '', '')).toThrow(
      'from or to must be "CRC": every rate is in colones (got "EUR" and "USD"); convert in two steps, through CRC',
    );
    expect(exchangeConvert(f.env(), 100.005, 'EUR', 'eur', '', '')).toBe(100.01);
    expect(f.urls).toEqual([]);
  });
});

describe('EXCHANGECLOSE in euros', () => {
  test('/stats in that currency, cached apart from the dollar’s', () => {
    const f = fakeEnv(api, TODAY);
    const januaryEuros = daysOfMonth('2025-01').filter(hasEuro).map(euro);
    const average = (s: 'buy' | 'sell') => Math.round((januaryEuros.reduce((a, r) => a + r[s], 0) / januaryEuros.length) * 1e4) / 1e4;
    expect(exchangeClose(f.env(), '2025-01', 'sell', 'average', 'EUR')).toBe(average('sell'));
    expect(exchangeClose(f.env(), [['2025-01']], 'buy', 'promedio', 'eur')).toEqual([[average('buy')]]);
    expect(exchangeClose(f.env(), '2025-01', 'sell', 'average', '')).toBe(510);
    expect(f.urls).toEqual([
      '/exchange-rate/stats?period=monthly&from=2025-01-01&to=2025-01-31&currency=EUR',
      '/exchange-rate/stats?period=monthly&from=2025-01-01&to=2025-01-31',
    ]);
    expect(() => exchangeClose(f.env(), '2025-01', 'sell', 'average', 'XYZ')).toThrow(/^currency must be a supported currency code/);
  });

  test('a month ending on a weekend or a holiday closes with the rate in force on its last day', () => {
    const f = fakeEnv(api, TODAY);
    // 2024-08-31 is a Saturday; 2024-12-31 a Tuesday after the holidays; 2025-02 is still running.
    const out = exchangeClose(f.env(), [['2024-08'], ['2024-12'], ['2025-02'], ['2023-05']], 'sell', 'closing', 'EUR');
    expect(out).toEqual([[euro('2024-08-30').sell], [euro('2024-12-31').sell], ['#N/A'], ['No rate']]);
    expect(f.urls).toEqual(['/exchange-rate/stats?period=monthly&from=2023-05-01&to=2025-02-28&currency=EUR']);
    expect(exchangeClose(f.env(), '2024-08', 'buy', 'cierre', 'EUR')).toBe(euro('2024-08-30').buy);
    expect(() => exchangeClose(f.env(), '2025-02', 'sell', 'closing', 'EUR')).toThrow(
      '#N/A: 2025-02 has no closing rate: the month is not complete (2025-02-28 has no rate)',
    );
    expect(() => exchangeClose(f.env(), '2023-05', 'sell', 'closing', 'EUR')).toThrow('No EUR rate in 2023-05');
  });
});

function daysOfMonth(month: string): string[] {
  const out: string[] = [];
  for (let d = `${month}-01`; d.startsWith(month); d = addDays(d, 1)) out.push(d);
  return out;
}

function daysOfYear(year: string): string[] {
  const out: string[] = [];
  for (let d = `${year}-01-01`; d <= `${year}-12-31`; d = addDays(d, 1)) out.push(d);
  return out;
}

describe('EXCHANGERATE in euros today, before the central bank publishes', () => {
  /** The API of the morning: today's euro is Hacienda's provisional one (sell only), absent from ranges. */
  const PROVISIONAL_SELL = 612.34;
  const morning = (url: string) => {
    const u = new URL(url);
    if (u.pathname.endsWith('/exchange-rate/latest') && u.searchParams.get('currency') === 'EUR') {
      return ok({ date: TODAY, currencyFrom: 'EUR', currencyTo: 'CRC', buy: null, sell: PROVISIONAL_SELL, source: 'Hacienda' });
    }
    if (u.pathname.endsWith('/exchange-rate/range') && u.searchParams.get('currency') === 'EUR') {
      const to = u.searchParams.get('to') as string;
      u.searchParams.set('to', to < TODAY ? to : addDays(TODAY, -1));
      return api(u.toString());
    }
    return api(url);
  };

  test('the buy side is a clear error, never an empty cell, 0 or yesterday’s buy', () => {
    const f = fakeEnv(morning, TODAY);
    const message = `No EUR buy rate for ${TODAY} yet: until the central bank publishes its cross rate there is only Hacienda's provisional sell (use "sell", or an earlier date)`;
    expect(() => exchangeRate(f.env(), TODAY, 'buy', 'EUR')).toThrow(message);
    expect(() => exchangeRate(f.env(), '', 'compra', 'EUR')).toThrow(message);
  });

  test('the sell side is Hacienda’s provisional sell, for today and for a blank date', () => {
    const f = fakeEnv(morning, TODAY);
    expect(exchangeRate(f.env(), TODAY, 'sell', 'EUR')).toBe(PROVISIONAL_SELL);
    expect(exchangeRate(f.env(), '', '', 'EUR')).toBe(PROVISIONAL_SELL);
    // An earlier day is the central bank's, buy included; the dollar is untouched.
    expect(exchangeRate(f.env(), '2025-02-07', 'buy', 'EUR')).toBe(euro('2025-02-07').buy);
    expect(exchangeRate(f.env(), TODAY, 'buy', 'USD')).toBe(500);
  });

  test('once published, today’s record is the central bank’s, buy included', () => {
    const f = fakeEnv(api, TODAY);
    expect(exchangeRate(f.env(), TODAY, 'buy', 'EUR')).toBe(euro(TODAY).buy);
  });
});
