import type { Conversion } from '../../../shared/types';
import { rate, startTestApp, type TestApp } from '../../helpers/app';

const conversion = (data: unknown) => data as Conversion;

describe('GET /convert', () => {
  let t: TestApp;
  beforeAll(async () => {
    // "Today" is 2025-01-15 in Costa Rica (23:30), already 2025-01-16 in UTC.
    t = await startTestApp({ clock: () => new Date('2025-01-16T05:30:00Z') });
  });
  afterAll(() => t.close());

  it('answers 404 when no rate is stored yet', async () => {
    const { status, body, headers } = await t.get('/convert?amount=100');
    expect(status).toBe(404);
    expect(body).toEqual({ success: false, error: 'NOT_FOUND', message: expect.any(String) });
    expect(headers.get('cache-control')).toBe('no-store');
  });

  describe('with rates stored', () => {
    beforeAll(async () => {
      await t.seed([
        rate('2025-01-14', 505.1, 511.2),
        rate('2025-01-15', 493.35, 506.47),
        // Tomorrow's rate, already published: not the latest yet.
        rate('2025-01-16', 507, 513),
      ]);
    });

    it('defaults to USD → CRC at the latest sell rate', async () => {
      const { status, body, headers } = await t.get('/convert?amount=100');
      expect(status).toBe(200);
      expect(body).toEqual({
        success: true,
        data: { amount: 100, from: 'USD', to: 'CRC', rate: 'sell', rateValue: 506.47, date: '2025-01-15', result: 50647, currency: 'USD' },
      });
      expect(headers.get('cache-control')).toContain('private');
    });

    it('multiplies in exact decimals: 0.1 USD × 506.47 = 50.647 → 50.65', async () => {
      const { body } = await t.get('/convert?amount=0.1');
      expect(conversion(body.data)).toMatchObject({ amount: 0.1, result: 50.65, rateValue: 506.47 });
    });

    it('rounds half away from zero: 0.5 USD × 493.35 (buy) = 246.675 → 246.68', async () => {
      const { body } = await t.get('/convert?amount=0.5&rate=buy');
      expect(body.data).toEqual({ amount: 0.5, from: 'USD', to: 'CRC', rate: 'buy', rateValue: 493.35, date: '2025-01-15', result: 246.68, currency: 'USD' });
    });

    it('divides CRC → USD, defaulting `to` to the other currency', async () => {
      const { body } = await t.get('/convert?amount=1000&from=CRC');
      // 1000 / 506.47 = 1.974450… → 1.97
      expect(body.data).toEqual({ amount: 1000, from: 'CRC', to: 'USD', rate: 'sell', rateValue: 506.47, date: '2025-01-15', result: 1.97, currency: 'USD' });
    });

    it('defaults `from` to the other currency when only `to` is given, and divides exactly', async () => {
      // 63.30875 / 506.47 = 0.125 exactly (506.47 / 8): half a cent, rounded away from zero → 0.13.
      const { body } = await t.get('/convert?amount=63.30875&to=USD');
      expect(conversion(body.data)).toMatchObject({ from: 'CRC', to: 'USD', rate: 'sell', result: 0.13 });
      // 246.675 / 493.35 = 0.5
      const buy = await t.get('/convert?amount=246.675&to=USD&rate=buy');
      expect(conversion(buy.body.data).result).toBe(0.5);
    });

    it('takes the rate of the day given', async () => {
      const { body } = await t.get('/convert?amount=2&rate=buy&date=2025-01-14');
      // 2 × 505.1 = 1010.2
      expect(body.data).toEqual({ amount: 2, from: 'USD', to: 'CRC', rate: 'buy', rateValue: 505.1, date: '2025-01-14', result: 1010.2, currency: 'USD' });
    });

    it('answers 404 for a day with no rate', async () => {
      const { status, body } = await t.get('/convert?amount=2&date=2025-01-13');
      expect(status).toBe(404);
      expect(body).toEqual({ success: false, error: 'NOT_FOUND', message: expect.stringContaining('2025-01-13') });
    });

    it('returns the amount itself for the same currency, rateValue 1, rate and date echoed', async () => {
      const usd = await t.get('/convert?amount=12.345&from=USD&to=USD');
      expect(usd.body.data).toEqual({ amount: 12.345, from: 'USD', to: 'USD', rate: 'sell', rateValue: 1, date: '2025-01-15', result: 12.35, currency: 'USD' });
      const crc = await t.get('/convert?amount=1000&from=crc&to=Crc&rate=BUY&date=2025-01-14');
      expect(crc.body.data).toEqual({ amount: 1000, from: 'CRC', to: 'CRC', rate: 'buy', rateValue: 1, date: '2025-01-14', result: 1000, currency: 'USD' });
      const missing = await t.get('/convert?amount=1&from=USD&to=USD&date=2025-01-13');
      expect(missing.status).toBe(404);
    });

    it('takes enumerated values case-insensitively: rate echoed lower case, currencies upper case', async () => {
      const { status, body } = await t.get('/convert?amount=100&from=usd&to=cRc&rate=BUY');
      expect(status).toBe(200);
      // 100 × 493.35 = 49335
      expect(body.data).toEqual({ amount: 100, from: 'USD', to: 'CRC', rate: 'buy', rateValue: 493.35, date: '2025-01-15', result: 49335, currency: 'USD' });
    });

    it.each([
      ['1e3', 1000, 506470],
      ['2.5E-1', 0.25, 126.62], // 126.6175 → 126.62
      ['.5', 0.5, 253.24], // 253.235 → 253.24
      ['+3', 3, 1519.41],
      ['1e12', 1e12, 506470000000000],
      ['1000000000000', 1e12, 506470000000000],
    ])('accepts amount=%s (%d USD → %d CRC)', async (raw, amount, result) => {
      const { status, body } = await t.get(`/convert?amount=${encodeURIComponent(raw)}`);
      expect(status).toBe(200);
      expect(conversion(body.data)).toMatchObject({ amount, result });
    });

    it.each([
      '0',
      '0.00',
      '0e5',
      '-5',
      '-0.01',
      '1000000000000.01',
      '1.0000000000001e12',
      '1e13',
      'abc',
      '',
      '0x10',
      '1,000',
      'Infinity',
      'NaN',
      ' 5',
      '5 USD',
      '1e',
    ])('answers 400 naming "amount" for amount=%j', async (raw) => {
      const { status, body, headers } = await t.get(`/convert?amount=${encodeURIComponent(raw)}`);
      expect(status).toBe(400);
      expect(body).toEqual({ success: false, error: 'BAD_REQUEST', message: expect.stringContaining('"amount"') });
      expect(headers.get('cache-control')).toBe('no-store');
    });

    it.each([
      ['', '"amount"'],
      ['from=USD', '"amount"'],
      ['amount=1&amount=2', '"amount"'],
      ['amount=1&from=XYZ', '"from"'],
      ['amount=1&from=', '"from"'],
      ['amount=1&to=xyz', '"to"'],
      ['amount=1&from=EUR&to=USD', '"from" and "to"'],
      ['amount=1&from=USD&from=CRC', '"from"'],
      ['amount=1&rate=mid', '"rate"'],
      ['amount=1&rate=', '"rate"'],
      ['amount=1&date=2023-02-29', '"date"'],
      ['amount=1&date=2025-1-15', '"date"'],
    ])('answers 400 for %j, naming %s', async (query, named) => {
      const { status, body } = await t.get(`/convert?${query}`);
      expect(status).toBe(400);
      expect(body).toEqual({ success: false, error: 'BAD_REQUEST', message: expect.stringContaining(named) });
    });

    it('says which values are allowed', async () => {
      expect((await t.get('/convert?amount=1&from=XYZ')).body.message).toMatch(/CRC or a supported ISO 4217 code .*\/api\/v1\/currencies lists them/);
      expect((await t.get('/convert?amount=1&to=ZZZ')).body.message).toMatch(/CRC or a supported ISO 4217 code/);
      expect((await t.get('/convert?amount=1&rate=mid')).body.message).toMatch(/buy.*sell/);
      expect((await t.get('/convert?amount=1&date=2024-02-30')).body.message).toContain('YYYY-MM-DD');
      expect((await t.get('/convert?amount=0')).body.message).toMatch(/greater than 0/);
    });
  });
});
