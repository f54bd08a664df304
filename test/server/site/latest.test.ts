/**
 * The site's latest rate per currency (server/site/latest.ts) against a fake set of series: each
 * currency read once until rates change or the day turns, its own answer and ETag, and nothing
 * kept under a code the catalog does not have, so requests cannot make it hold more than 43.
 */
import { CURRENCY_CODES } from '../../../shared/currency-catalog';
import type { ExchangeRate } from '../../../shared/types';
import { createLatestRate } from '../../../server/site/latest';
import type { CurrencySeries } from '../../../server/store/currency-series';
import type { RateSeries } from '../../../server/store/series-reader';

const record = (currency: string, buy: number): ExchangeRate => ({
  date: '2025-01-15',
  currencyFrom: currency,
  currencyTo: 'CRC',
  buy,
  sell: buy + 6,
  source: 'BCCR',
  fetchedAt: '2025-01-14T18:05:12.000Z',
});

function fakeCurrencies() {
  const reads: Array<[code: string, today: string]> = [];
  const asked: string[] = [];
  const currencies: CurrencySeries = {
    of(code) {
      asked.push(code);
      const latest = async (today: string) => {
        reads.push([code, today]);
        return code === 'GBP' ? null : record(code, code === 'USD' ? 500 : 600);
      };
      return { latest } as unknown as RateSeries;
    },
    provisional: async () => null,
  };
  return { currencies, reads, asked };
}

function setUp(start = '2025-01-15T18:00:00Z') {
  const fake = fakeCurrencies();
  let now = new Date(start);
  const listeners: Array<() => void> = [];
  const latest = createLatestRate({ currencies: fake.currencies, clock: () => now, onRatesChanged: (listener) => listeners.push(listener) });
  return {
    ...fake,
    latest,
    changed: () => {
      for (const listener of listeners) listener();
    },
    setNow: (iso: string) => {
      now = new Date(iso);
    },
  };
}

it('reads each currency once until rates change, each with its own body and ETag', async () => {
  const s = setUp();
  const usd = await s.latest.get();
  const eur = await s.latest.get('EUR');
  await Promise.all([s.latest.get('USD'), s.latest.get('EUR'), s.latest.get('EUR')]);
  expect(s.reads).toEqual([
    ['USD', '2025-01-15'],
    ['EUR', '2025-01-15'],
  ]);
  expect(JSON.parse(usd.json)).toMatchObject({ currency: 'USD', kind: 'official', buy: 500 });
  expect(JSON.parse(eur.json)).toMatchObject({ currency: 'EUR', kind: 'derived', buy: 600 });
  expect(eur.etag).not.toBe(usd.etag);

  s.changed();
  await s.latest.get('EUR');
  expect(s.reads.at(-1)).toEqual(['EUR', '2025-01-15']);
  expect(s.reads).toHaveLength(3);
});

it('reads again once the day turns in Costa Rica', async () => {
  const s = setUp('2025-01-16T05:30:00Z');
  await s.latest.get('JPY');
  s.setNow('2025-01-16T06:30:00Z');
  await s.latest.get('JPY');
  expect(s.reads).toEqual([
    ['JPY', '2025-01-15'],
    ['JPY', '2025-01-16'],
  ]);
});

it('answers nulls for a currency without a rate yet, under its code', async () => {
  const s = setUp();
  expect(JSON.parse((await s.latest.get('GBP')).json)).toEqual({
    currency: 'GBP',
    kind: 'derived',
    date: null,
    buy: null,
    sell: null,
    source: null,
    fetchedAt: null,
  });
});

it('refuses a code the catalog does not have before reading or keeping anything under it', () => {
  const s = setUp();
  for (const code of ['XYZ', 'eur', '', 'CRC']) expect(() => s.latest.get(code)).toThrow(RangeError);
  expect(s.asked).toEqual([]);
});

it('holds at most one entry per code of the catalog, however often each is asked', async () => {
  const s = setUp();
  for (let round = 0; round < 3; round++) await Promise.all(CURRENCY_CODES.map((code) => s.latest.get(code)));
  expect(s.reads).toHaveLength(CURRENCY_CODES.length);
});
