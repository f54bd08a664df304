import { addDays } from '../../../shared/dates';
import type { Chart } from '../../../shared/types';
import type { RateInput } from '../../../server/store/rates';
import { rate, startTestApp, type TestApp } from '../../helpers/app';

const chart = (data: unknown) => data as Chart;

describe('GET /exchange-rate/chart on a hand-computed example', () => {
  let t: TestApp;
  beforeAll(async () => {
    // "Today" is 2025-01-05 in Costa Rica (20:00), already 2025-01-06 in UTC.
    t = await startTestApp({ clock: () => new Date('2025-01-06T02:00:00Z') });
  });
  afterAll(() => t.close());

  it('answers 404 while the database is empty (the window holds no record)', async () => {
    const { status, body, headers } = await t.get('/exchange-rate/chart');
    expect(status).toBe(404);
    expect(body).toEqual({ success: false, error: 'NOT_FOUND', message: expect.any(String) });
    expect(headers.get('cache-control')).toBe('no-store');
  });

  describe('with five records in the window', () => {
    beforeAll(async () => {
      await t.seed([
        rate('2024-12-31', 300, 900), // before a 5-day window
        rate('2025-01-01', 490, 500),
        rate('2025-01-02', 495, 510),
        rate('2025-01-03', 492, 502),
        rate('2025-01-04', 493, 503),
        rate('2025-01-05', 494, 504),
        rate('2025-01-06', 300, 900), // tomorrow: after today
      ]);
    });

    // Least squares over all five records, x = 0..4, mean x = 2, Sxx = 10:
    //   sell 500, 510, 502, 503, 504: mean 2519 / 5 = 503.8; dy = −3.8, 6.2, −1.8, −0.8, 0.2
    //     Sxy = 7.6 − 6.2 + 0 − 0.8 + 0.4 = 1; slope 0.1; start = 503.8 − 0.1 × 2 = 503.6; end = 503.6 + 0.4 = 504
    //   buy 490, 495, 492, 493, 494: mean 2464 / 5 = 492.8; dy = −2.8, 2.2, −0.8, 0.2, 1.2
    //     Sxy = 5.6 − 2.2 + 0 + 0.2 + 2.4 = 6; slope 0.6; start = 492.8 − 1.2 = 491.6; end = 491.6 + 2.4 = 494
    // (A line through the kept points only would differ: through the first and last it is slope 1 on sell.)
    const trend = {
      buy: { slopePerDay: 0.6, start: 491.6, end: 494 },
      sell: { slopePerDay: 0.1, start: 503.6, end: 504 },
    };

    it('keeps every record when the window has no more than `points`', async () => {
      const { status, body, headers } = await t.get('/exchange-rate/chart?days=5');
      expect(status).toBe(200);
      expect(body).toEqual({
        success: true,
        data: {
          from: '2025-01-01',
          to: '2025-01-05',
          points: 5,
          series: [
            { date: '2025-01-01', buy: 490, sell: 500 },
            { date: '2025-01-02', buy: 495, sell: 510 },
            { date: '2025-01-03', buy: 492, sell: 502 },
            { date: '2025-01-04', buy: 493, sell: 503 },
            { date: '2025-01-05', buy: 494, sell: 504 },
          ],
          trend,
        },
      });
      expect(headers.get('cache-control')).toContain('private');
    });

    it('downsamples on sell with LTTB, keeping first and last, and fits the trend on every record', async () => {
      const { body } = await t.get('/exchange-rate/chart?days=5&points=3');
      // One bucket (records 2..4) between the first and the last: the kept record makes the
      // largest triangle with (0, 500) and (4, 504). Twice the areas: 2025-01-02 |−4 × 10 + 4 × 1| = 36,
      // 2025-01-03 |−4 × 2 + 4 × 2| = 0, 2025-01-04 |−4 × 3 + 4 × 3| = 0. Buy comes from the same dates.
      expect(body.data).toEqual({
        from: '2025-01-01',
        to: '2025-01-05',
        points: 3,
        series: [
          { date: '2025-01-01', buy: 490, sell: 500 },
          { date: '2025-01-02', buy: 495, sell: 510 },
          { date: '2025-01-05', buy: 494, sell: 504 },
        ],
        trend,
      });
    });

    it('keeps just the first and last with points=2', async () => {
      const { status, body } = await t.get('/exchange-rate/chart?days=5&points=2');
      expect(status).toBe(200);
      const data = chart(body.data);
      expect(data.points).toBe(2);
      expect(data.series.map((p) => p.date)).toEqual(['2025-01-01', '2025-01-05']);
      expect(data.trend).toEqual(trend);
    });

    it('defaults to 30 days: the window then starts at the earlier record, tomorrow left out', async () => {
      const { body } = await t.get('/exchange-rate/chart');
      const data = chart(body.data);
      expect([data.from, data.to, data.points]).toEqual(['2024-12-31', '2025-01-05', 6]);
      expect(data.series.map((p) => p.date)).toEqual(['2024-12-31', '2025-01-01', '2025-01-02', '2025-01-03', '2025-01-04', '2025-01-05']);
    });

    it('gives a single record a flat trend at its value', async () => {
      const { body } = await t.get('/exchange-rate/chart?days=1');
      expect(body.data).toEqual({
        from: '2025-01-05',
        to: '2025-01-05',
        points: 1,
        series: [{ date: '2025-01-05', buy: 494, sell: 504 }],
        trend: { buy: { slopePerDay: 0, start: 494, end: 494 }, sell: { slopePerDay: 0, start: 504, end: 504 } },
      });
    });
  });

  it.each([
    ['days=0', '"days"'],
    ['days=20001', '"days"'],
    ['days=1.5', '"days"'],
    ['days=', '"days"'],
    ['days=abc', '"days"'],
    ['days=1e2', '"days"'],
    ['points=0', '"points"'],
    ['points=1', '"points"'],
    ['points=501', '"points"'],
    ['points=2.5', '"points"'],
    ['points=', '"points"'],
    ['points=abc', '"points"'],
    ['points=1e2', '"points"'],
    ['points=10&points=20', '"points"'],
  ])('answers 400 for %s, naming %s', async (query, named) => {
    const { status, body } = await t.get(`/exchange-rate/chart?${query}`);
    expect(status).toBe(400);
    expect(body).toEqual({ success: false, error: 'BAD_REQUEST', message: expect.stringContaining(named) });
  });
});

describe('GET /exchange-rate/chart over a long series', () => {
  let t: TestApp;
  const rows: RateInput[] = [];
  const spike = '2024-07-04';
  const today = '2025-01-15';

  beforeAll(async () => {
    t = await startTestApp({ clock: () => new Date('2025-01-15T18:00:00Z') });
    // 500 daily records ending today: buy exactly linear, sell linear with a small zigzag and one spike.
    const first = addDays(today, -499);
    for (let i = 0; i < 500; i++) {
      const date = addDays(first, i);
      const zigzag = [0, 0.3, 0, -0.3][i % 4];
      const sell = date === spike ? 560 : 500 + 0.05 * i + zigzag;
      rows.push(rate(date, Number((480 + 0.05 * i).toFixed(2)), Number(sell.toFixed(2))));
    }
    await t.seed(rows);
  });
  afterAll(() => t.close());

  const byDate = () => new Map(rows.map((r) => [r.date, r]));

  it('returns exactly `points` entries, first and last of the window kept, ascending, real records', async () => {
    const { status, body } = await t.get('/exchange-rate/chart?days=365&points=90');
    expect(status).toBe(200);
    const data = chart(body.data);
    const windowFrom = addDays(today, -364);
    expect([data.from, data.to]).toEqual([windowFrom, today]);
    expect(data.series).toHaveLength(90);
    expect(data.points).toBe(90);
    expect(data.series[0].date).toBe(windowFrom);
    expect(data.series[89].date).toBe(today);
    const dates = data.series.map((p) => p.date);
    expect([...new Set(dates)].sort()).toEqual(dates);
    const stored = byDate();
    for (const p of data.series) {
      expect(p.date >= windowFrom && p.date <= today).toBe(true);
      expect({ buy: p.buy, sell: p.sell }).toEqual({ buy: stored.get(p.date)?.buy, sell: stored.get(p.date)?.sell });
    }
    // LTTB on sell keeps the one peak.
    expect(dates).toContain(spike);
  });

  it('fits the trend on every record of the window, valued at from and to', async () => {
    const { body } = await t.get('/exchange-rate/chart?days=365&points=10');
    const data = chart(body.data);
    expect(data.points).toBe(10);
    // buy = 480 + 0.05 i is a line: slope 0.05, and its values at the window's ends are the records'.
    const stored = byDate();
    expect(data.trend.buy).toEqual({
      slopePerDay: 0.05,
      start: stored.get(data.from)?.buy,
      end: stored.get(data.to)?.buy,
    });
    // sell: compare with a plain least-squares fit over all 365 records (not the 10 kept).
    const window = rows.filter((r) => r.date >= data.from && r.date <= data.to);
    expect(window).toHaveLength(365);
    const xs = window.map((_, i) => i);
    const ys = window.map((r) => r.sell);
    const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
    const my = ys.reduce((a, b) => a + b, 0) / ys.length;
    const slope = xs.reduce((s, x, i) => s + (x - mx) * (ys[i] - my), 0) / xs.reduce((s, x) => s + (x - mx) ** 2, 0);
    const start = my - slope * mx;
    expect(data.trend.sell.slopePerDay).toBeCloseTo(slope, 4);
    expect(data.trend.sell.start).toBeCloseTo(start, 4);
    expect(data.trend.sell.end).toBeCloseTo(start + slope * 364, 4);
  });

  it('never returns more entries than records, nor more than `points`', async () => {
    const all = await t.get('/exchange-rate/chart?days=365&points=500');
    expect(chart(all.body.data).points).toBe(365);
    expect(chart(all.body.data).series).toHaveLength(365);
    const everything = await t.get('/exchange-rate/chart?days=20000&points=500');
    const data = chart(everything.body.data);
    expect([data.from, data.to, data.points]).toEqual([rows[0].date, today, 500]);
    const capped = await t.get('/exchange-rate/chart?days=20000&points=499');
    expect(chart(capped.body.data).series).toHaveLength(499);
    expect(chart(capped.body.data).points).toBe(499);
  });

  it('defaults to 90 points over 30 days, which hold only 30 records', async () => {
    const { body } = await t.get('/exchange-rate/chart');
    const data = chart(body.data);
    expect([data.from, data.to, data.points, data.series.length]).toEqual([addDays(today, -29), today, 30, 30]);
    const longer = await t.get('/exchange-rate/chart?days=200');
    expect(chart(longer.body.data).points).toBe(90);
  });
});
