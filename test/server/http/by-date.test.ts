import type { ExchangeRate } from '../../../shared/types';
import { rate, startTestApp, type TestApp } from '../../helpers/app';

describe('GET /exchange-rate?date=', () => {
  let t: TestApp;
  beforeAll(async () => {
    // "Today" is 2025-01-15 in Costa Rica (23:30), already 2025-01-16 in UTC.
    t = await startTestApp({ clock: () => new Date('2025-01-16T05:30:00Z') });
    await t.seed([
      rate('2024-02-29', 508.11, 514.4),
      rate('2025-01-14', 505.1, 511.2),
      rate('2025-01-15', 506.47, 512.82, 'Hacienda'),
      // Published in advance for tomorrow.
      rate('2025-01-16', 507, 513),
    ]);
  });
  afterAll(() => t.close());

  it('returns the record of that day, in the envelope, date unshifted', async () => {
    const { status, body, headers } = await t.get('/exchange-rate?date=2025-01-14');
    expect(status).toBe(200);
    expect(body).toEqual({
      success: true,
      data: {
        date: '2025-01-14',
        currencyFrom: 'USD',
        currencyTo: 'CRC',
        buy: 505.1,
        sell: 511.2,
        source: 'BCCR',
        fetchedAt: '2025-01-14T18:05:12.000Z',
      },
    });
    expect(headers.get('cache-control')).toContain('private');
    expect(headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('names the provider the row came from', async () => {
    const { body } = await t.get('/exchange-rate?date=2025-01-15');
    expect((body.data as ExchangeRate).source).toBe('Hacienda');
  });

  it('accepts a real leap day', async () => {
    const { status, body } = await t.get('/exchange-rate?date=2024-02-29');
    expect(status).toBe(200);
    expect(body.data as ExchangeRate).toMatchObject({ date: '2024-02-29', buy: 508.11, sell: 514.4 });
  });

  it('returns the stored record of a day after today (a rate published in advance)', async () => {
    const { status, body } = await t.get('/exchange-rate?date=2025-01-16');
    expect(status).toBe(200);
    expect((body.data as ExchangeRate).date).toBe('2025-01-16');
  });

  it('answers 404 when the day has no rate', async () => {
    const { status, body, headers } = await t.get('/exchange-rate?date=2025-01-13');
    expect(status).toBe(404);
    expect(body).toEqual({ success: false, error: 'NOT_FOUND', message: expect.stringContaining('2025-01-13') });
    expect(headers.get('cache-control')).toBe('no-store');
    expect(headers.get('etag')).toBeNull();
  });

  it('answers 400 naming "date" when it is missing', async () => {
    const { status, body, headers } = await t.get('/exchange-rate');
    expect(status).toBe(400);
    expect(body).toEqual({ success: false, error: 'BAD_REQUEST', message: expect.stringContaining('"date"') });
    expect(body.message).toMatch(/required/);
    expect(headers.get('cache-control')).toBe('no-store');
  });

  it.each([
    ['2024-02-30', 'a day February never has'],
    ['2023-02-29', 'a leap day in a common year'],
    ['2025-04-31', 'the 31st of a 30-day month'],
    ['2025-13-01', 'month 13'],
    ['2025-00-10', 'month 0'],
    ['2025-01-00', 'day 0'],
    ['2025-1-5', 'unpadded'],
    ['20250115', 'no dashes'],
    ['15-01-2025', 'day first'],
    ['2025/01/15', 'slashes'],
    ['2025-01-15T00:00:00Z', 'a timestamp'],
    [' 2025-01-15', 'a leading space'],
    ['', 'empty'],
    ['today', 'a word'],
  ])('answers 400 naming "date" for %j (%s)', async (value) => {
    const { status, body } = await t.get(`/exchange-rate?date=${encodeURIComponent(value)}`);
    expect(status).toBe(400);
    expect(body).toEqual({ success: false, error: 'BAD_REQUEST', message: expect.stringContaining('"date"') });
  });

  it('refuses the date given twice', async () => {
    const { status, body } = await t.get('/exchange-rate?date=2025-01-14&date=2025-01-14');
    expect(status).toBe(400);
    expect(body.message).toContain('"date"');
  });
});
