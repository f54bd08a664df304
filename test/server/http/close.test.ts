import { addDays } from '../../../shared/dates';
import type { ExchangeRate, MonthClose, PeriodStats } from '../../../shared/types';
import { rate, startTestApp, type TestApp } from '../../helpers/app';
import type { RateInput } from '../../../server/store/rates';

const close = (data: unknown) => data as MonthClose;

/** The record the API answers for a seeded row. */
const record = (row: RateInput): ExchangeRate => ({
  date: row.date,
  currencyFrom: 'USD',
  currencyTo: 'CRC',
  buy: row.buy,
  sell: row.sell,
  source: row.source,
  fetchedAt: row.fetchedAt.toISOString(),
});

/** Every day from `first` to `last`, inclusive. */
function days(first: string, last: string): string[] {
  const out: string[] = [];
  for (let day = first; day <= last; day = addDays(day, 1)) out.push(day);
  return out;
}

/** buy 500 + day of month, sell 510 + day of month: averages and extremes are easy to work out. */
const byDayOfMonth = (day: string) => rate(day, 500 + Number(day.slice(8)), 510 + Number(day.slice(8)));

// February 2024 (leap year, 29 days) and February 2023 (28 days), every day.
const FEB_2024 = days('2024-02-01', '2024-02-29').map(byDayOfMonth);
const FEB_2023 = days('2023-02-01', '2023-02-28').map(byDayOfMonth);

// November 2024 with holes: no 1st (so `from` is the 2nd), 5th, 6th, 17th, nor 30th (its last day).
const NOVEMBER_HOLES = ['2024-11-01', '2024-11-05', '2024-11-06', '2024-11-17', '2024-11-30'];
const NOVEMBER = days('2024-11-01', '2024-11-30')
  .filter((day) => !NOVEMBER_HOLES.includes(day))
  .map(byDayOfMonth);

// December 2024: eight records with irregular values, for statistics worked out by hand.
const DECEMBER = [
  rate('2024-12-01', 506.47, 512.82),
  rate('2024-12-02', 505.01, 511.9),
  rate('2024-12-03', 507.33, 513.07),
  rate('2024-12-10', 504.99, 511.11),
  rate('2024-12-15', 508.1, 514.25, 'Hacienda'),
  rate('2024-12-20', 506, 512.5),
  rate('2024-12-30', 503.75, 510.3),
  rate('2024-12-31', 504.36, 510.61),
];

// March 2025, the running month at first: the 1st to the 8th but the 4th.
const MARCH_FIRST_WEEK = days('2025-03-01', '2025-03-08')
  .filter((day) => day !== '2025-03-04')
  .map(byDayOfMonth);

// 12:00 on 2025-03-10 in Costa Rica (UTC−6).
const TODAY_NOON = new Date('2025-03-10T18:00:00Z');

describe('GET /exchange-rate/close', () => {
  let t: TestApp;
  let now = TODAY_NOON;

  beforeAll(async () => {
    t = await startTestApp({ clock: () => now });
    await t.seed([...FEB_2023, ...FEB_2024, ...NOVEMBER, ...DECEMBER, ...MARCH_FIRST_WEEK]);
  });
  beforeEach(() => {
    now = TODAY_NOON;
  });
  afterAll(() => t.close());

  describe('a complete month', () => {
    it('February of a leap year: 29 days, none missing, closed by the 29th', async () => {
      const { status, body, headers } = await t.get('/exchange-rate/close?month=2024-02');
      expect(status).toBe(200);
      expect(headers.get('cache-control')).toContain('private');
      // buy 501 … 529: average (501 + 529) / 2 = 515, change 28; sell 511 … 539: average 525.
      expect(body).toEqual({
        success: true,
        data: {
          month: '2024-02',
          from: '2024-02-01',
          to: '2024-02-29',
          daysInMonth: 29,
          daysPresent: 29,
          missing: [],
          complete: true,
          closing: record(FEB_2024[28] as RateInput),
          buy: { average: 515, min: 501, max: 529, first: 501, last: 529, change: 28 },
          sell: { average: 525, min: 511, max: 539, first: 511, last: 539, change: 28 },
        },
      });
    });

    it('February of a common year: 28 days, closed by the 28th', async () => {
      const { status, body } = await t.get('/exchange-rate/close?month=2023-02');
      expect(status).toBe(200);
      // buy 501 … 528: average (501 + 528) / 2 = 514.5, change 27; sell 511 … 538: average 524.5.
      expect(body.data).toEqual({
        month: '2023-02',
        from: '2023-02-01',
        to: '2023-02-28',
        daysInMonth: 28,
        daysPresent: 28,
        missing: [],
        complete: true,
        closing: record(FEB_2023[27] as RateInput),
        buy: { average: 514.5, min: 501, max: 528, first: 501, last: 528, change: 27 },
        sell: { average: 524.5, min: 511, max: 538, first: 511, last: 538, change: 27 },
      });
    });
  });

  describe('a month with holes', () => {
    it('lists the missing days, is not complete, and has no closing record when its last day has none', async () => {
      const { status, body } = await t.get('/exchange-rate/close?month=2024-11');
      expect(status).toBe(200);
      const month = close(body.data);
      expect(month).toMatchObject({
        month: '2024-11',
        from: '2024-11-02',
        // The last record is the 29th, but the close is the 30th's or none: never another day's.
        to: '2024-11-29',
        daysInMonth: 30,
        daysPresent: 25,
        missing: NOVEMBER_HOLES,
        complete: false,
        closing: null,
      });
      // buy 502 … 529 without 505, 506, 517: first 502, last 529, change 27.
      expect(month.buy).toMatchObject({ min: 502, max: 529, first: 502, last: 529, change: 27 });
    });

    it('says so at once when a sync fills a hole (the cached answer is dropped)', async () => {
      const before = await t.get('/exchange-rate/close?month=2024-11');
      expect(close(before.body.data).closing).toBeNull();
      const lastDay = rate('2024-11-30', 530.5, 540.25);
      await t.seed([lastDay]);
      const after = await t.get('/exchange-rate/close?month=2024-11');
      expect(close(after.body.data)).toMatchObject({
        to: '2024-11-30',
        daysPresent: 26,
        missing: ['2024-11-01', '2024-11-05', '2024-11-06', '2024-11-17'],
        complete: false,
        closing: record(lastDay),
      });
      expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));
    });
  });

  describe('exact statistics', () => {
    // December 2024, 8 records:
    //   buy  506.47, 505.01, 507.33, 504.99, 508.10, 506.00, 503.75, 504.36
    //     sum 4046.01; average 4046.01 / 8 = 505.75125 exactly, a tie at the 5th decimal: half
    //     away from zero gives 505.7513 (half to even would give 505.7512)
    //     min 503.75, max 508.10, first 506.47, last 504.36, change 504.36 − 506.47 = −2.11
    //   sell 512.82, 511.90, 513.07, 511.11, 514.25, 512.50, 510.30, 510.61
    //     sum 4096.56; average 512.07; min 510.30, max 514.25, change 510.61 − 512.82 = −2.21
    //     (in binary floating point 510.61 − 512.82 is −2.2100000000000364)
    const expected: MonthClose = {
      month: '2024-12',
      from: '2024-12-01',
      to: '2024-12-31',
      daysInMonth: 31,
      daysPresent: 8,
      missing: days('2024-12-01', '2024-12-31').filter((day) => !DECEMBER.some((r) => r.date === day)),
      complete: false,
      closing: record(DECEMBER[7] as RateInput),
      buy: { average: 505.7513, min: 503.75, max: 508.1, first: 506.47, last: 504.36, change: -2.11 },
      sell: { average: 512.07, min: 510.3, max: 514.25, first: 512.82, last: 510.61, change: -2.21 },
    };

    it('match the hand-computed figures, rounded half away from zero', async () => {
      const { status, body } = await t.get('/exchange-rate/close?month=2024-12');
      expect(status).toBe(200);
      expect(body.data).toEqual(expected);
      expect(expected.missing).toHaveLength(23);
    });

    it('are those of the Period object /exchange-rate/stats gives for the same month', async () => {
      const stats = await t.get('/exchange-rate/stats?period=monthly&from=2024-12-01&to=2024-12-31');
      const [period] = stats.body.data as PeriodStats[];
      expect(period).toEqual({ period: '2024-12', from: '2024-12-01', to: '2024-12-31', count: 8, buy: expected.buy, sell: expected.sell });
    });
  });

  describe('the running month', () => {
    it('is never complete, and lists missing days only up to the latest date', async () => {
      const { status, body } = await t.get('/exchange-rate/close?month=2025-03');
      expect(status).toBe(200);
      // Today is the 10th; the latest date is the 8th: the 9th and 10th are not missing yet.
      // buy 501, 502, 503, 505, 506, 507, 508: 3532 / 7 = 504.571428… → 504.5714; sell 10 more.
      expect(body.data).toEqual({
        month: '2025-03',
        from: '2025-03-01',
        to: '2025-03-08',
        daysInMonth: 31,
        daysPresent: 7,
        missing: ['2025-03-04'],
        complete: false,
        closing: null,
        buy: { average: 504.5714, min: 501, max: 508, first: 501, last: 508, change: 7 },
        sell: { average: 514.5714, min: 511, max: 518, first: 511, last: 518, change: 7 },
      });
    });

    it('is not complete on its last day even with every day stored; it is the day after', async () => {
      const march = days('2025-03-01', '2025-03-31').map(byDayOfMonth);
      await t.seed(march);
      // 21:00 on 2025-03-31 in Costa Rica, already April in UTC: the month is still running.
      now = new Date('2025-04-01T03:00:00Z');
      const running = await t.get('/exchange-rate/close?month=2025-03');
      expect(close(running.body.data)).toMatchObject({ daysPresent: 31, missing: [], complete: false, closing: record(march[30] as RateInput) });
      // And April is still the future there.
      const april = await t.get('/exchange-rate/close?month=2025-04');
      expect(april.status).toBe(400);

      // 00:30 on 2025-04-01 in Costa Rica: same data, a new day, so not the answer kept yesterday.
      now = new Date('2025-04-01T06:30:00Z');
      const closed = await t.get('/exchange-rate/close?month=2025-03');
      expect(close(closed.body.data)).toMatchObject({ daysPresent: 31, missing: [], complete: true, closing: record(march[30] as RateInput) });
      // The current month, with no record yet.
      expect((await t.get('/exchange-rate/close?month=2025-04')).status).toBe(404);
    });
  });

  describe('refusals', () => {
    it('404 for a month with no record', async () => {
      for (const month of ['2024-10', '1999-01', '2023-03']) {
        const { status, body, headers } = await t.get(`/exchange-rate/close?month=${month}`);
        expect([month, status, body]).toEqual([month, 404, { success: false, error: 'NOT_FOUND', message: `No exchange rate in ${month}` }]);
        expect(headers.get('cache-control')).toBe('no-store');
      }
    });

    it('400 for a month after the current one, naming the parameter', async () => {
      for (const month of ['2025-04', '2026-01', '9999-12']) {
        const { status, body } = await t.get(`/exchange-rate/close?month=${month}`);
        expect([month, status, body.error]).toEqual([month, 400, 'BAD_REQUEST']);
        expect(body.message).toBe(`Parameter "month" must not be after the current month, 2025-03 (got "${month}")`);
      }
    });

    it('400 for a malformed month, naming the parameter', async () => {
      for (const month of ['2025-13', '2025-00', '2025-1', '2025-01-01', '', '0000-01', '25-01', '2025/01', 'march']) {
        const { status, body } = await t.get(`/exchange-rate/close?month=${encodeURIComponent(month)}`);
        expect([month, status, body.error]).toEqual([month, 400, 'BAD_REQUEST']);
        expect(body.message).toBe(`Parameter "month" must be a calendar month as YYYY-MM, not after the current month (got "${month}")`);
      }
    });

    it('400 when the month is missing or given twice', async () => {
      const missing = await t.get('/exchange-rate/close');
      expect([missing.status, missing.body.error]).toEqual([400, 'BAD_REQUEST']);
      expect(missing.body.message).toBe('Parameter "month" is required: a calendar month as YYYY-MM, not after the current month');
      const twice = await t.get('/exchange-rate/close?month=2024-02&month=2024-02');
      expect([twice.status, twice.body.error]).toEqual([400, 'BAD_REQUEST']);
      expect(twice.body.message).toBe('Parameter "month" must be given only once');
    });

    it('a month of the first century answers as its days do: 404, no rate stored then', async () => {
      const month = await t.get('/exchange-rate/close?month=0099-12');
      const day = await t.get('/exchange-rate?date=0099-12-31');
      expect([month.status, month.body.error, day.status, day.body.error]).toEqual([404, 'NOT_FOUND', 404, 'NOT_FOUND']);
      expect((await t.get('/exchange-rate?date=0000-12-31')).status).toBe(400);
    });

    it('ignores unknown parameters', async () => {
      const { status, body } = await t.get('/exchange-rate/close?month=2024-02&format=json&foo=1&foo=2');
      expect(status).toBe(200);
      expect(close(body.data).month).toBe('2024-02');
    });
  });
});
