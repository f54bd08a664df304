import type { Analytics, SideAnalytics } from '../../../shared/types';
import { rate, startTestApp, type TestApp } from '../../helpers/app';

const analytics = (data: unknown) => data as Analytics;

describe('GET /exchange-rate/analytics', () => {
  let t: TestApp;
  beforeAll(async () => {
    // "Today" is 2025-01-05 in Costa Rica (20:00), already 2025-01-06 in UTC.
    t = await startTestApp({ clock: () => new Date('2025-01-06T02:00:00Z') });
  });
  afterAll(() => t.close());

  it('answers 404 while the database is empty', async () => {
    const { status, body, headers } = await t.get('/exchange-rate/analytics');
    expect(status).toBe(404);
    expect(body).toEqual({ success: false, error: 'NOT_FOUND', message: expect.any(String) });
    expect(headers.get('cache-control')).toBe('no-store');
  });

  describe('on a hand-computed example', () => {
    beforeAll(async () => {
      await t.seed([
        // Outside the 5-day window (before it).
        rate('2024-12-31', 390, 480),
        // The example: x = calendar days since 2025-01-01 = 0, 1, 3, 4 (2025-01-03 is missing).
        rate('2025-01-01', 400, 500),
        rate('2025-01-02', 404, 495),
        rate('2025-01-04', 412.08, 485.1),
        rate('2025-01-05', 412.08, 485.1),
        // Published for tomorrow: after today, never in a `days` window.
        rate('2025-01-06', 999, 999),
        // A quiet stretch for the `stable` trend, far from the rest.
        rate('2024-06-01', 490, 500),
        rate('2024-06-02', 490.01, 500.1),
        rate('2024-06-03', 490.01, 500.2),
      ]);
    });

    // buy: 400, 404, 412.08, 412.08 at x = 0, 1, 3, 4
    //   average = (400 + 404 + 412.08 + 412.08) / 4 = 1628.16 / 4 = 407.04
    //   min 400 on 2025-01-01; max 412.08 first on 2025-01-04 (tied on 2025-01-05: earliest wins)
    //   change = 412.08 − 400 = 12.08; changePercent = 12.08 / 400 × 100 = 3.02
    //   % changes: 404/400 → +1, 412.08/404 = 1.02 → +2, 412.08/412.08 → 0
    //     mean 1, deviations 0, 1, −1, squares sum 2, / (3 − 1) = 1, volatility = √1 = 1
    //   slope: mean x = 2, mean y = 407.04; dx = −2, −1, 1, 2; dy = −7.04, −3.04, 5.04, 5.04
    //     Sxy = 14.08 + 3.04 + 5.04 + 10.08 = 32.24, Sxx = 4 + 1 + 1 + 4 = 10, slope = 3.224
    //   trend: |3.224 × 4 days| = 12.896 ≥ 0.1 % × 407.04 = 0.40704, slope > 0 → up
    const buy: SideAnalytics = {
      average: 407.04,
      min: 400,
      minDate: '2025-01-01',
      max: 412.08,
      maxDate: '2025-01-04',
      first: 400,
      last: 412.08,
      change: 12.08,
      changePercent: 3.02,
      volatility: 1,
      trend: 'up',
      slopePerDay: 3.224,
    };
    // sell: 500, 495, 485.1, 485.1 at x = 0, 1, 3, 4
    //   average = 1965.2 / 4 = 491.3
    //   min 485.1 first on 2025-01-04 (tied on 2025-01-05); max 500 on 2025-01-01
    //   change = 485.1 − 500 = −14.9; changePercent = −14.9 / 500 × 100 = −2.98
    //   % changes: 495/500 → −1, 485.1/495 = 0.98 → −2, then 0
    //     mean −1, deviations 0, −1, 1 → volatility = √(2 / 2) = 1
    //   slope: dy = 8.7, 3.7, −6.2, −6.2; Sxy = −17.4 − 3.7 − 6.2 − 12.4 = −39.7; / 10 = −3.97
    //   trend: |−3.97 × 4| = 15.88 ≥ 0.4913, slope < 0 → down
    const sell: SideAnalytics = {
      average: 491.3,
      min: 485.1,
      minDate: '2025-01-04',
      max: 500,
      maxDate: '2025-01-01',
      first: 500,
      last: 485.1,
      change: -14.9,
      changePercent: -2.98,
      volatility: 1,
      trend: 'down',
      slopePerDay: -3.97,
    };

    it('computes every statistic over the `days` calendar days ending at the latest date', async () => {
      const { status, body, headers } = await t.get('/exchange-rate/analytics?days=5');
      expect(status).toBe(200);
      // 2025-01-01 .. 2025-01-05: the record of 2024-12-31 and tomorrow's are out.
      expect(body).toEqual({ success: true, data: { from: '2025-01-01', to: '2025-01-05', count: 4, buy, sell } });
      expect(headers.get('cache-control')).toContain('private');
    });

    it('gives the same answer for the same window given as from/to', async () => {
      const { status, body } = await t.get('/exchange-rate/analytics?from=2025-01-01&to=2025-01-05');
      expect(status).toBe(200);
      expect(body.data).toEqual({ from: '2025-01-01', to: '2025-01-05', count: 4, buy, sell });
    });

    it('answers with the first and last dates actually present, not the bounds asked for', async () => {
      const { body } = await t.get('/exchange-rate/analytics?from=2024-12-20&to=2025-01-03');
      const data = analytics(body.data);
      expect([data.from, data.to, data.count]).toEqual(['2024-12-31', '2025-01-02', 3]);
      // buy 390 → 400 → 404: first 390, last 404, change 14, changePercent 14 / 390 × 100 = 3.58974… → 3.5897
      expect(data.buy).toMatchObject({ first: 390, last: 404, change: 14, changePercent: 3.5897, min: 390, max: 404 });
    });

    it('defaults to 30 days', async () => {
      const { body } = await t.get('/exchange-rate/analytics');
      // 2024-12-07 .. 2025-01-05: 2024-12-31 joins the example.
      expect(analytics(body.data)).toMatchObject({ from: '2024-12-31', to: '2025-01-05', count: 5 });
    });

    it('counts a 1-day window as the latest record alone: no change, no slope, no volatility', async () => {
      const { body } = await t.get('/exchange-rate/analytics?days=1');
      expect(body.data).toEqual({
        from: '2025-01-05',
        to: '2025-01-05',
        count: 1,
        buy: {
          average: 412.08,
          min: 412.08,
          minDate: '2025-01-05',
          max: 412.08,
          maxDate: '2025-01-05',
          first: 412.08,
          last: 412.08,
          change: 0,
          changePercent: 0,
          volatility: 0,
          trend: 'stable',
          slopePerDay: 0,
        },
        sell: {
          average: 485.1,
          min: 485.1,
          minDate: '2025-01-05',
          max: 485.1,
          maxDate: '2025-01-05',
          first: 485.1,
          last: 485.1,
          change: 0,
          changePercent: 0,
          volatility: 0,
          trend: 'stable',
          slopePerDay: 0,
        },
      });
    });

    it('reports volatility 0 with two records, but a slope', async () => {
      const { body } = await t.get('/exchange-rate/analytics?from=2025-01-01&to=2025-01-02');
      const data = analytics(body.data);
      // buy 400 → 404 in one day: slope 4, change 4, 1 %; sell 500 → 495: slope −5, −1 %.
      expect(data.buy).toMatchObject({ volatility: 0, slopePerDay: 4, change: 4, changePercent: 1, trend: 'up' });
      expect(data.sell).toMatchObject({ volatility: 0, slopePerDay: -5, change: -5, changePercent: -1, trend: 'down' });
    });

    it('calls a move under 0.1 % of the average stable and rounds to 4 decimals', async () => {
      const { body } = await t.get('/exchange-rate/analytics?from=2024-06-01&to=2024-06-03');
      const data = analytics(body.data);
      expect([data.from, data.to, data.count]).toEqual(['2024-06-01', '2024-06-03', 3]);
      // buy: 490, 490.01, 490.01 at x = 0, 1, 2
      //   average = 1470.02 / 3 = 490.006666… → 490.0067
      //   max 490.01 first on 2024-06-02; change 0.01; changePercent 0.01 / 490 × 100 = 0.0020408… → 0.002
      //   % changes 0.0020408…, 0: sample sd of two values = |a − b| / √2 = 0.0014430… → 0.0014
      //   slope: dy = −0.00667, 0.00333, 0.00333; Sxy = 0.00667 + 0.00333 = 0.01; Sxx = 2 → 0.005
      //   trend: |0.005 × 2| = 0.01 < 0.49 → stable
      expect(data.buy).toEqual({
        average: 490.0067,
        min: 490,
        minDate: '2024-06-01',
        max: 490.01,
        maxDate: '2024-06-02',
        first: 490,
        last: 490.01,
        change: 0.01,
        changePercent: 0.002,
        volatility: 0.0014,
        trend: 'stable',
        slopePerDay: 0.005,
      });
      // sell: 500, 500.1, 500.2: slope 0.1; |0.1 × 2| = 0.2 < 0.1 % × 500.1 = 0.5001 → stable
      //   % changes 0.02 and 0.0199960… differ by 0.000004: volatility 0.0000028… → 0
      expect(data.sell).toMatchObject({ average: 500.1, slopePerDay: 0.1, trend: 'stable', volatility: 0, changePercent: 0.04 });
    });

    it('takes from/to of any span, beyond a year', async () => {
      const { status, body } = await t.get('/exchange-rate/analytics?from=1990-01-01&to=2030-12-31');
      expect(status).toBe(200);
      // Every record, tomorrow's included: an explicit range is not cut at today.
      expect(analytics(body.data)).toMatchObject({ from: '2024-06-01', to: '2025-01-06', count: 9 });
    });

    it('accepts the largest `days`', async () => {
      const { status, body } = await t.get('/exchange-rate/analytics?days=20000');
      expect(status).toBe(200);
      expect(analytics(body.data)).toMatchObject({ from: '2024-06-01', to: '2025-01-05', count: 8 });
    });

    it('answers 404 when a from/to window holds no record', async () => {
      const { status, body } = await t.get('/exchange-rate/analytics?from=2024-07-01&to=2024-12-30');
      expect(status).toBe(404);
      expect(body).toEqual({ success: false, error: 'NOT_FOUND', message: expect.any(String) });
    });
  });

  it.each(['0', '20001', '-5', '1.5', '', 'abc', '1e2', '30days'])('answers 400 naming "days" for days=%j', async (value) => {
    const { status, body } = await t.get(`/exchange-rate/analytics?days=${encodeURIComponent(value)}`);
    expect(status).toBe(400);
    expect(body).toEqual({ success: false, error: 'BAD_REQUEST', message: expect.stringContaining('"days"') });
  });

  it.each([
    ['days=30&from=2025-01-01&to=2025-01-05', '"days"'],
    ['days=30&from=2025-01-01', '"days"'],
    ['days=30&to=2025-01-05', '"days"'],
    ['from=2025-01-01', '"to"'],
    ['to=2025-01-05', '"from"'],
    ['from=2025-01-05&to=2025-01-01', '"from"'],
    ['from=2025-02-30&to=2025-03-01', '"from"'],
    ['from=2025-01-01&to=2023-02-29', '"to"'],
    ['days=5&days=6', '"days"'],
  ])('answers 400 for %s, naming %s', async (query, named) => {
    const { status, body } = await t.get(`/exchange-rate/analytics?${query}`);
    expect(status).toBe(400);
    expect(body).toEqual({ success: false, error: 'BAD_REQUEST', message: expect.stringContaining(named) });
  });

  it('says why: the expected form of each parameter', async () => {
    expect((await t.get('/exchange-rate/analytics?days=0')).body.message).toContain('1 to 20000');
    expect((await t.get('/exchange-rate/analytics?from=2025-02-30&to=2025-03-01')).body.message).toContain('YYYY-MM-DD');
    expect((await t.get('/exchange-rate/analytics?from=2025-01-01&to=2025-01-3')).body.message).toContain('YYYY-MM-DD');
  });
});
