import type { PeriodStats } from '../../../shared/types';
import { rate, startTestApp, type TestApp } from '../../helpers/app';

const periods = (data: unknown) => data as PeriodStats[];

describe('GET /exchange-rate/stats', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ clock: () => new Date('2025-03-01T12:00:00Z') });
    await t.seed([
      rate('2023-12-31', 400, 410),
      rate('2024-11-28', 500, 510),
      rate('2024-11-29', 500.01, 510.5),
      rate('2024-11-30', 500.01, 509.9),
      // No record in December 2024.
      rate('2025-01-02', 502, 512),
      rate('2025-01-15', 506.47, 512.82),
      rate('2025-01-31', 503.5, 511),
      rate('2025-02-01', 504, 514),
      rate('2025-02-02', 505, 513),
      rate('2025-02-03', 506, 515),
    ]);
  });
  afterAll(() => t.close());

  // Requested range 2024-11-15 .. 2025-02-02.
  // 2024-11: 2024-11-28 .. 2024-11-30, 3 records
  //   buy 500, 500.01, 500.01: average 1500.02 / 3 = 500.006666… → 500.0067; change 500.01 − 500 = 0.01
  //   sell 510, 510.5, 509.9: average 1530.4 / 3 = 510.133333… → 510.1333; change 509.9 − 510 = −0.1
  const november: PeriodStats = {
    period: '2024-11',
    from: '2024-11-28',
    to: '2024-11-30',
    count: 3,
    buy: { average: 500.0067, min: 500, max: 500.01, first: 500, last: 500.01, change: 0.01 },
    sell: { average: 510.1333, min: 509.9, max: 510.5, first: 510, last: 509.9, change: -0.1 },
  };
  // 2025-01: 2025-01-02, 2025-01-15, 2025-01-31
  //   buy 502, 506.47, 503.5: 1511.97 / 3 = 503.99; change 1.5
  //   sell 512, 512.82, 511: 1535.82 / 3 = 511.94; change −1
  const january: PeriodStats = {
    period: '2025-01',
    from: '2025-01-02',
    to: '2025-01-31',
    count: 3,
    buy: { average: 503.99, min: 502, max: 506.47, first: 502, last: 503.5, change: 1.5 },
    sell: { average: 511.94, min: 511, max: 512.82, first: 512, last: 511, change: -1 },
  };
  // 2025-02: 2025-02-01, 2025-02-02 (2025-02-03 is after `to`)
  const february: PeriodStats = {
    period: '2025-02',
    from: '2025-02-01',
    to: '2025-02-02',
    count: 2,
    buy: { average: 504.5, min: 504, max: 505, first: 504, last: 505, change: 1 },
    sell: { average: 513.5, min: 513, max: 514, first: 514, last: 513, change: -1 },
  };

  it('returns monthly periods, ascending, leaving out the month with no record', async () => {
    const { status, body, headers } = await t.get('/exchange-rate/stats?period=monthly&from=2024-11-15&to=2025-02-02');
    expect(status).toBe(200);
    expect(body).toEqual({ success: true, data: [november, january, february] });
    expect(headers.get('cache-control')).toContain('private');
  });

  it('defaults to monthly', async () => {
    const { body } = await t.get('/exchange-rate/stats?from=2024-11-15&to=2025-02-02');
    expect(body.data).toEqual([november, january, february]);
  });

  it('returns yearly periods with the first and last dates present within the range', async () => {
    const { status, body } = await t.get('/exchange-rate/stats?period=yearly&from=2024-11-15&to=2025-02-02');
    expect(status).toBe(200);
    // 2025: 2025-01-02 .. 2025-02-02, 5 records
    //   buy 502, 506.47, 503.5, 504, 505: 2520.97 / 5 = 504.194; change 505 − 502 = 3
    //   sell 512, 512.82, 511, 514, 513: 2562.82 / 5 = 512.564; change 513 − 512 = 1
    expect(body.data).toEqual([
      { ...november, period: '2024' },
      {
        period: '2025',
        from: '2025-01-02',
        to: '2025-02-02',
        count: 5,
        buy: { average: 504.194, min: 502, max: 506.47, first: 502, last: 505, change: 3 },
        sell: { average: 512.564, min: 511, max: 514, first: 512, last: 513, change: 1 },
      },
    ]);
  });

  it('takes the period case-insensitively and any span', async () => {
    const { status, body } = await t.get('/exchange-rate/stats?period=YEARLY&from=2000-01-01&to=2030-12-31');
    expect(status).toBe(200);
    expect(periods(body.data).map((p) => [p.period, p.from, p.to, p.count])).toEqual([
      ['2023', '2023-12-31', '2023-12-31', 1],
      ['2024', '2024-11-28', '2024-11-30', 3],
      ['2025', '2025-01-02', '2025-02-03', 6],
    ]);
    const monthly = await t.get('/exchange-rate/stats?period=Monthly&from=2000-01-01&to=2030-12-31');
    expect(periods(monthly.body.data).map((p) => p.period)).toEqual(['2023-12', '2024-11', '2025-01', '2025-02']);
  });

  it('cuts a period at the requested bounds', async () => {
    const { body } = await t.get('/exchange-rate/stats?from=2025-01-10&to=2025-01-20');
    expect(body.data).toEqual([
      {
        period: '2025-01',
        from: '2025-01-15',
        to: '2025-01-15',
        count: 1,
        buy: { average: 506.47, min: 506.47, max: 506.47, first: 506.47, last: 506.47, change: 0 },
        sell: { average: 512.82, min: 512.82, max: 512.82, first: 512.82, last: 512.82, change: 0 },
      },
    ]);
  });

  it('takes first, last, from and to within the range when it cuts into a month on both sides', async () => {
    // 2025-01-02 (before `from`) and 2025-02-03 (after `to`) are left out.
    // 2025-01: 2025-01-15, 2025-01-31
    //   buy 506.47, 503.5: average 504.985; change 503.5 − 506.47 = −2.97
    //   sell 512.82, 511: average 511.91; change 511 − 512.82 = −1.82
    const { status, body } = await t.get('/exchange-rate/stats?period=monthly&from=2025-01-10&to=2025-02-02');
    expect(status).toBe(200);
    expect(body.data).toEqual([
      {
        period: '2025-01',
        from: '2025-01-15',
        to: '2025-01-31',
        count: 2,
        buy: { average: 504.985, min: 503.5, max: 506.47, first: 506.47, last: 503.5, change: -2.97 },
        sell: { average: 511.91, min: 511, max: 512.82, first: 512.82, last: 511, change: -1.82 },
      },
      february,
    ]);
  });

  it('takes first, last, from and to within the range when it cuts into a year on both sides', async () => {
    // 2025: 2025-01-15, 2025-01-31, 2025-02-01, 2025-02-02
    //   buy 506.47, 503.5, 504, 505: 2018.97 / 4 = 504.7425; change 505 − 506.47 = −1.47
    //   sell 512.82, 511, 514, 513: 2050.82 / 4 = 512.705; change 513 − 512.82 = 0.18
    const { status, body } = await t.get('/exchange-rate/stats?period=yearly&from=2025-01-10&to=2025-02-02');
    expect(status).toBe(200);
    expect(body.data).toEqual([
      {
        period: '2025',
        from: '2025-01-15',
        to: '2025-02-02',
        count: 4,
        buy: { average: 504.7425, min: 503.5, max: 506.47, first: 506.47, last: 505, change: -1.47 },
        sell: { average: 512.705, min: 511, max: 514, first: 512.82, last: 513, change: 0.18 },
      },
    ]);
  });

  it('returns [] when the range holds no record', async () => {
    const { status, body } = await t.get('/exchange-rate/stats?from=2024-12-01&to=2024-12-31');
    expect(status).toBe(200);
    expect(body).toEqual({ success: true, data: [] });
  });

  it.each([
    ['period=weekly&from=2025-01-01&to=2025-01-31', '"period"'],
    ['period=&from=2025-01-01&to=2025-01-31', '"period"'],
    ['period=month&from=2025-01-01&to=2025-01-31', '"period"'],
    ['period=monthly&period=yearly&from=2025-01-01&to=2025-01-31', '"period"'],
    ['', '"from"'],
    ['from=2025-01-01', '"to"'],
    ['to=2025-01-31', '"from"'],
    ['from=2025-02-01&to=2025-01-31', '"from"'],
    ['from=2025-02-29&to=2025-03-31', '"from"'],
    ['from=2025-01-01&to=2025-01-32', '"to"'],
  ])('answers 400 for %j, naming %s', async (query, named) => {
    const { status, body, headers } = await t.get(`/exchange-rate/stats?${query}`);
    expect(status).toBe(400);
    expect(body).toEqual({ success: false, error: 'BAD_REQUEST', message: expect.stringContaining(named) });
    expect(headers.get('cache-control')).toBe('no-store');
  });

  it('lists the allowed periods in the 400 message', async () => {
    const { body } = await t.get('/exchange-rate/stats?period=weekly&from=2025-01-01&to=2025-01-31');
    expect(body.message).toContain('monthly');
    expect(body.message).toContain('yearly');
  });
});
