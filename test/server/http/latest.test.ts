import { rate, startTestApp, type TestApp } from '../../helpers/app';

describe('GET /exchange-rate/latest', () => {
  let t: TestApp;
  beforeAll(async () => {
    // "Today" is 2025-01-15 in Costa Rica at 23:30, already 2025-01-16 in UTC.
    t = await startTestApp({ clock: () => new Date('2025-01-16T05:30:00Z') });
  });
  afterAll(() => t.close());

  it('answers 404 in the envelope before any rate is stored', async () => {
    const { status, body, headers } = await t.get('/exchange-rate/latest');
    expect(status).toBe(404);
    expect(body).toEqual({ success: false, error: 'NOT_FOUND', message: expect.any(String) });
    expect(headers.get('cache-control')).toBe('no-store');
  });

  it('returns the record of the greatest date not after today, dates unshifted', async () => {
    await t.seed([rate('2025-01-14', 505.1, 511.2), rate('2025-01-15', 506.47, 512.82), rate('2025-01-16', 507, 513)]);
    const { status, body } = await t.get('/exchange-rate/latest');
    expect(status).toBe(200);
    expect(body).toEqual({
      success: true,
      data: {
        date: '2025-01-15',
        currencyFrom: 'USD',
        currencyTo: 'CRC',
        buy: 506.47,
        sell: 512.82,
        source: 'BCCR',
        fetchedAt: '2025-01-14T18:05:12.000Z',
      },
    });
  });

  it('sends a strong ETag and answers If-None-Match with 304', async () => {
    const first = await t.get('/exchange-rate/latest');
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers.get('cache-control')).toContain('private');
    const again = await fetch(`${t.api}/exchange-rate/latest`, { headers: { 'If-None-Match': etag ?? '', 'x-api-key': t.key } });
    expect(again.status).toBe(304);
  });

  it('drops cached answers when rates are written', async () => {
    await t.seed([rate('2025-01-15', 500, 510)]);
    const { body } = await t.get('/exchange-rate/latest');
    expect(body.data).toMatchObject({ date: '2025-01-15', buy: 500, sell: 510 });
  });
});
