import { addDays } from '../../../shared/dates';
import type { ExchangeRate } from '../../../shared/types';
import type { RateInput } from '../../../server/store/rates';
import { sliceOrigin } from '../../../server/domain/slices';
import { rate, startTestApp, type TestApp } from '../../helpers/app';

function daily(from: string, to: string): RateInput[] {
  const rows: RateInput[] = [];
  for (let d = from, i = 0; d <= to; d = addDays(d, 1), i++) {
    rows.push(rate(d, Number((500 + (i % 50) / 100).toFixed(2)), Number((510 + (i % 50) / 100).toFixed(2))));
  }
  return rows;
}

const records = (data: unknown) => data as ExchangeRate[];

describe('GET /exchange-rate/range', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ clock: () => new Date('2025-01-16T05:30:00Z') });
    // Every day of 2024 (a leap year) and 2025-01-01 .. 2025-01-20, some of it after today.
    const rows = daily('2024-01-01', '2025-01-20');
    await t.seed(rows.reverse());
  });
  afterAll(() => t.close());

  it('returns the records with from <= date <= to, both ends included, ascending', async () => {
    const { status, body, headers } = await t.get('/exchange-rate/range?from=2024-02-27&to=2024-03-01');
    expect(status).toBe(200);
    expect(body.success).toBe(true);
    expect(records(body.data).map((r) => r.date)).toEqual(['2024-02-27', '2024-02-28', '2024-02-29', '2024-03-01']);
    // 2024-02-27 is day 57 of the series: 500 + 0.07, 510 + 0.07.
    expect(records(body.data)[0]).toEqual({
      date: '2024-02-27',
      currencyFrom: 'USD',
      currencyTo: 'CRC',
      buy: 500.07,
      sell: 510.07,
      source: 'BCCR',
      fetchedAt: '2025-01-14T18:05:12.000Z',
    });
    expect(headers.get('cache-control')).toContain('private');
  });

  it('returns a single record when from = to', async () => {
    const { body } = await t.get('/exchange-rate/range?from=2024-02-29&to=2024-02-29');
    expect(records(body.data).map((r) => r.date)).toEqual(['2024-02-29']);
  });

  it('returns [] (not 404) when no record falls in the range', async () => {
    const { status, body } = await t.get('/exchange-rate/range?from=2023-01-01&to=2023-12-31');
    expect(status).toBe(200);
    expect(body).toEqual({ success: true, data: [] });
  });

  it('is not limited by today: stored records after today are included', async () => {
    const { body } = await t.get('/exchange-rate/range?from=2025-01-15&to=2025-01-31');
    expect(records(body.data).map((r) => r.date)).toEqual(['2025-01-15', '2025-01-16', '2025-01-17', '2025-01-18', '2025-01-19', '2025-01-20']);
  });

  it('allows to - from = 366 days, i.e. 367 records', async () => {
    const { status, body } = await t.get('/exchange-rate/range?from=2024-01-01&to=2025-01-01');
    expect(status).toBe(200);
    const dates = records(body.data).map((r) => r.date);
    expect(dates).toHaveLength(367);
    expect(dates[0]).toBe('2024-01-01');
    expect(dates[366]).toBe('2025-01-01');
    expect([...dates].sort()).toEqual(dates);
    expect(new Set(dates).size).toBe(367);
  });

  it('refuses to - from = 367 days, naming the parameters and the limit', async () => {
    const { status, body, headers } = await t.get('/exchange-rate/range?from=2024-01-01&to=2025-01-02');
    expect(status).toBe(400);
    expect(body).toEqual({ success: false, error: 'BAD_REQUEST', message: expect.stringContaining('366') });
    expect(body.message).toContain('"from"');
    expect(body.message).toContain('"to"');
    expect(headers.get('cache-control')).toBe('no-store');
  });

  it('refuses from after to', async () => {
    const { status, body } = await t.get('/exchange-rate/range?from=2024-03-02&to=2024-03-01');
    expect(status).toBe(400);
    expect(body.error).toBe('BAD_REQUEST');
    expect(body.message).toContain('"from"');
    expect(body.message).toContain('"to"');
  });

  it.each([
    ['', '"from"'],
    ['?to=2024-03-01', '"from"'],
    ['?from=2024-03-01', '"to"'],
  ])('answers 400 when from or to is missing (%s)', async (query, named) => {
    const { status, body } = await t.get(`/exchange-rate/range${query}`);
    expect(status).toBe(400);
    expect(body.error).toBe('BAD_REQUEST');
    expect(body.message).toContain(named);
    expect(body.message).toMatch(/required/);
  });

  it.each([
    ['from', '2024-02-30', '2024-03-01'],
    ['from', '2023-02-29', '2023-03-01'],
    ['from', '2024-1-01', '2024-03-01'],
    ['from', '', '2024-03-01'],
    ['to', '2024-01-01', '2024-02-30'],
    ['to', '2024-01-01', '2024-04-31'],
    ['to', '2024-01-01', 'tomorrow'],
    ['to', '2024-01-01', ''],
  ])('answers 400 naming "%s" for from=%j to=%j', async (named, from, to) => {
    const { status, body } = await t.get(`/exchange-rate/range?from=${from}&to=${to}`);
    expect(status).toBe(400);
    expect(body).toEqual({ success: false, error: 'BAD_REQUEST', message: expect.stringContaining(`"${named}"`) });
  });

  it('accepts the real leap day 2024-02-29 as a bound', async () => {
    const { status, body } = await t.get('/exchange-rate/range?from=2024-02-29&to=2024-03-02');
    expect(status).toBe(200);
    expect(records(body.data)).toHaveLength(3);
  });

  it('refuses from or to given twice', async () => {
    const { status, body } = await t.get('/exchange-rate/range?from=2024-01-01&from=2024-01-02&to=2024-01-03');
    expect(status).toBe(400);
    expect(body.message).toContain('"from"');
  });

  it('hands the JSON writer the window of the series itself, which it writes from kept texts; with inverses, new records', async () => {
    const scope = { today: '2025-01-16', apiKey: null };
    const asked: Array<[string, Record<string, string>]> = [
      ['/exchange-rate/range', { from: '2024-01-01', to: '2024-12-31' }],
      ['/exchange-rate/history', { days: '90' }],
    ];
    for (const [path, query] of asked) {
      const route = t.app.routes.find((r) => r.path === path);
      if (!route) throw new Error(`no route ${path}`);
      const window = (await route.handle(route.parse(query), scope)) as unknown[];
      expect([path, window.length > 32, sliceOrigin(window) !== undefined]).toEqual([path, true, true]);
      const inverted = (await route.handle(route.parse({ ...query, inverse: 'true' }), scope)) as unknown[];
      expect([path, inverted.length, sliceOrigin(inverted)]).toEqual([path, window.length, undefined]);
    }
  });
});
