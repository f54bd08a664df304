/**
 * `inverse=true` on the record routes (/exchange-rate, …/latest, …/history, …/range): each record
 * adds buyInverse and sellInverse, 1 / buy and 1 / sell to 10 significant digits, half away from
 * zero; the CSV form has the same columns. Expected values are computed here with decimal.js.
 */
import { parse } from 'csv-parse/sync';
import Decimal from 'decimal.js';
import type { ExchangeRate } from '../../../shared/types';
import { crossRate, rate, startTestApp, type TestApp } from '../../helpers/app';

const Exact = Decimal.clone({ precision: 100 });
const inverse = (value: number) => new Exact(1).div(new Exact(value)).toSignificantDigits(10, Exact.ROUND_HALF_UP).toNumber();
const withInverses = (r: ExchangeRate) => ({ ...r, buyInverse: inverse(r.buy), sellInverse: inverse(r.sell) });

const HEADER = ['date', 'currencyFrom', 'currencyTo', 'buy', 'sell', 'source', 'fetchedAt'];

describe('inverse=true', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Noon of 2025-01-17 in Costa Rica.
    t = await startTestApp({ clock: () => new Date('2025-01-17T18:00:00Z') });
    await t.seed([rate('2025-01-15', 506.47, 512.82), rate('2025-01-16', 327.68, 500.2), rate('2025-01-17', 505.5, 511.9)]);
    await t.seedCross([crossRate('EUR', '2025-01-15', 1.0301)]);
  });
  afterAll(() => t.close());

  const data = async (path: string) => {
    const { status, body } = await t.get(path);
    expect([path, status]).toEqual([path, 200]);
    return body.data;
  };

  it('one day: both inverses, exact to 10 significant digits', async () => {
    const plain = (await data('/exchange-rate?date=2025-01-15')) as ExchangeRate;
    const inverted = await data('/exchange-rate?date=2025-01-15&inverse=true');
    expect(inverted).toEqual(withInverses(plain));
    // 1 / 506.47 = 0.00197445060911…, 1 / 512.82 = 0.00195000195000…
    expect(inverted).toMatchObject({ buyInverse: 0.001974450609, sellInverse: 0.00195000195 });
  });

  it('a tie at the 11th digit rounds away from zero: 1 / 327.68 = 0.0030517578125 → 0.003051757813', async () => {
    expect(await data('/exchange-rate?date=2025-01-16&inverse=true')).toMatchObject({ buyInverse: 0.003051757813, sellInverse: inverse(500.2) });
  });

  it('latest, history and range: every record, case-insensitive', async () => {
    const latest = (await data('/exchange-rate/latest')) as ExchangeRate;
    expect(await data('/exchange-rate/latest?inverse=TRUE')).toEqual(withInverses(latest));
    const history = (await data('/exchange-rate/history?days=3')) as ExchangeRate[];
    expect(history).toHaveLength(3);
    expect(await data('/exchange-rate/history?days=3&inverse=true')).toEqual(history.map(withInverses));
    const range = (await data('/exchange-rate/range?from=2025-01-15&to=2025-01-16')) as ExchangeRate[];
    expect(await data('/exchange-rate/range?from=2025-01-15&to=2025-01-16&inverse=true')).toEqual(range.map(withInverses));
  });

  it('inverse=false, or none, adds nothing', async () => {
    for (const path of ['/exchange-rate?date=2025-01-15&inverse=false', '/exchange-rate/range?from=2025-01-15&to=2025-01-17&inverse=False']) {
      const records = [await data(path)].flat() as ExchangeRate[];
      for (const record of records) expect([path, Object.keys(record)]).toEqual([path, HEADER]);
    }
  });

  it('another currency: the inverse of its derived rate', async () => {
    const euro = (await data('/exchange-rate?date=2025-01-15&currency=EUR')) as ExchangeRate;
    expect(await data('/exchange-rate?date=2025-01-15&currency=EUR&inverse=true')).toEqual(withInverses(euro));
  });

  it('with a purpose: the record, its inverses and the rule', async () => {
    const record = await data('/exchange-rate?date=2025-01-15&inverse=true&purpose=invoice');
    expect(record).toMatchObject({ buyInverse: 0.001974450609, sellInverse: 0.00195000195, purpose: expect.objectContaining({ id: 'invoice', side: 'sell' }) });
  });

  it('anything but true or false is a 400 naming inverse', async () => {
    for (const value of ['yes', '1', '']) {
      const path = `/exchange-rate/history?inverse=${value}`;
      const { status, body } = await t.get(path);
      expect([path, status, body]).toEqual([
        path,
        400,
        { success: false, error: 'BAD_REQUEST', message: `Parameter "inverse" must be one of true, false (got "${value}")` },
      ]);
    }
  });

  describe('as CSV', () => {
    it('the same columns after the usual ones, written in full', async () => {
      const { status, text } = await t.get('/exchange-rate/range?from=2025-01-15&to=2025-01-16&inverse=true&format=csv');
      expect(status).toBe(200);
      expect(parse(text)).toEqual([
        [...HEADER, 'buyInverse', 'sellInverse'],
        ['2025-01-15', 'USD', 'CRC', '506.47', '512.82', 'BCCR', '2025-01-14T18:05:12.000Z', '0.001974450609', '0.00195000195'],
        ['2025-01-16', 'USD', 'CRC', '327.68', '500.2', 'BCCR', '2025-01-14T18:05:12.000Z', '0.003051757813', String(inverse(500.2))],
      ]);
    });

    it('with locale=es, a decimal comma', async () => {
      const { text } = await t.get('/exchange-rate?date=2025-01-15&inverse=true&format=csv&locale=es');
      const [header, row] = parse(text, { delimiter: ';' }) as string[][];
      expect(header?.slice(-2)).toEqual(['buyInverse', 'sellInverse']);
      expect(row?.slice(-2)).toEqual(['0,001974450609', '0,00195000195']);
    });

    it('without inverse, the dollar’s table is as it always was', async () => {
      const { text } = await t.get('/exchange-rate/history?days=3&format=csv');
      expect((parse(text) as string[][])[0]).toEqual(HEADER);
    });
  });
});
