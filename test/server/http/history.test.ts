import { addDays } from '../../../shared/dates';
import type { ExchangeRate } from '../../../shared/types';
import type { RateInput } from '../../../server/store/rates';
import { rate, startTestApp, type TestApp } from '../../helpers/app';

/** One row per calendar day from `from` to `to`, minus `skip`; values move 0.01 a day. */
function daily(from: string, to: string, skip: readonly string[] = []): RateInput[] {
  const rows: RateInput[] = [];
  for (let d = from, i = 0; d <= to; d = addDays(d, 1), i++) {
    if (!skip.includes(d)) rows.push(rate(d, Number((500 + i / 100).toFixed(2)), Number((510 + i / 100).toFixed(2))));
  }
  return rows;
}

const dates = (data: unknown) => (data as ExchangeRate[]).map((r) => r.date);

/** Every date from `from` to `to`, inclusive, minus `skip`. */
function span(from: string, to: string, skip: readonly string[] = []): string[] {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) if (!skip.includes(d)) out.push(d);
  return out;
}

describe('GET /exchange-rate/history', () => {
  let t: TestApp;
  // No record on 2025-01-11 and 2025-01-12.
  const gap = ['2025-01-11', '2025-01-12'];

  beforeAll(async () => {
    // "Today" is 2025-01-15 in Costa Rica (23:30), already 2025-01-16 in UTC.
    t = await startTestApp({ clock: () => new Date('2025-01-16T05:30:00Z') });
  });
  afterAll(() => t.close());

  it('answers 404 while the database is empty (there is no latest date)', async () => {
    const { status, body, headers } = await t.get('/exchange-rate/history');
    expect(status).toBe(404);
    expect(body).toEqual({ success: false, error: 'NOT_FOUND', message: expect.any(String) });
    expect(headers.get('cache-control')).toBe('no-store');
  });

  describe('with a series from 2024-11-01 to 2025-01-16 (tomorrow) and a two-day gap', () => {
    beforeAll(async () => {
      // Seeded out of order: the answer's order must come from the query, not the insertion.
      const rows = daily('2024-11-01', '2025-01-16', gap);
      await t.seed([...rows.slice(40), ...rows.slice(0, 40)]);
    });

    it('defaults to the 30 calendar days ending at the latest date, ascending', async () => {
      const { status, body, headers } = await t.get('/exchange-rate/history');
      expect(status).toBe(200);
      expect(body.success).toBe(true);
      // 2024-12-17 .. 2025-01-15 is 30 calendar days; two of them have no record.
      expect(dates(body.data)).toEqual(span('2024-12-17', '2025-01-15', gap));
      expect((body.data as ExchangeRate[]).length).toBe(28);
      expect(headers.get('cache-control')).toContain('private');
    });

    it('returns whole records with their values', async () => {
      const { body } = await t.get('/exchange-rate/history?days=1');
      // 2025-01-15 is day index 75 after 2024-11-01: 500 + 0.75, 510 + 0.75.
      expect(body.data).toEqual([
        {
          date: '2025-01-15',
          currencyFrom: 'USD',
          currencyTo: 'CRC',
          buy: 500.75,
          sell: 510.75,
          source: 'BCCR',
          fetchedAt: '2025-01-14T18:05:12.000Z',
        },
      ]);
    });

    it('counts calendar days, not records, and leaves out the rate published for tomorrow', async () => {
      const { body } = await t.get('/exchange-rate/history?days=7');
      // 2025-01-09 .. 2025-01-15 minus the gap: 5 records; 2025-01-16 is after today.
      expect(dates(body.data)).toEqual(['2025-01-09', '2025-01-10', '2025-01-13', '2025-01-14', '2025-01-15']);
    });

    it('takes today in Costa Rica, not in UTC', async () => {
      // In UTC it is already 2025-01-16, which has a record: a UTC "today" would end there.
      const { body } = await t.get('/exchange-rate/history?days=2');
      expect(dates(body.data)).toEqual(['2025-01-14', '2025-01-15']);
    });

    it('accepts the largest window and returns every record it holds', async () => {
      const { status, body } = await t.get('/exchange-rate/history?days=365');
      expect(status).toBe(200);
      expect(dates(body.data)).toEqual(span('2024-11-01', '2025-01-15', gap));
    });

    it('ends the window at the latest date when today has no record yet', async () => {
      // Same database, later clock: today is 2025-01-20 in Costa Rica, the latest date 2025-01-16.
      const later = await startTestApp({ database: t.database, clock: () => new Date('2025-01-20T18:00:00Z') });
      try {
        const { body } = await later.get('/exchange-rate/history?days=3');
        expect(dates(body.data)).toEqual(['2025-01-14', '2025-01-15', '2025-01-16']);
        const none = await later.get('/exchange-rate/history?days=5');
        // 2025-01-12 .. 2025-01-16: 2025-01-12 is in the gap.
        expect(dates(none.body.data)).toEqual(['2025-01-13', '2025-01-14', '2025-01-15', '2025-01-16']);
      } finally {
        await later.close();
      }
    });

    it('sends a strong ETag per answer and answers If-None-Match with 304', async () => {
      const first = await t.get('/exchange-rate/history?days=7');
      const etag = first.headers.get('etag') ?? '';
      expect(etag).toMatch(/^"[\w-]+"$/);
      const other = await t.get('/exchange-rate/history?days=8');
      expect(other.headers.get('etag')).not.toBe(etag);

      const again = await t.get('/exchange-rate/history?days=7', { 'If-None-Match': etag });
      expect(again.status).toBe(304);
      expect(again.headers.get('etag')).toBe(etag);
      expect(again.headers.get('cache-control')).toContain('private');
      expect(again.body).toBeNull();

      // A list of candidates, one of them matching, with the Cache-Control: no-cache browsers add.
      const listed = await t.get('/exchange-rate/history?days=7', { 'If-None-Match': `"nope", ${etag}`, 'Cache-Control': 'no-cache' });
      expect(listed.status).toBe(304);

      const stale = await t.get('/exchange-rate/history?days=7', { 'If-None-Match': '"stale"' });
      expect(stale.status).toBe(200);
      expect(stale.body.data as ExchangeRate[]).toHaveLength(5);
    });

    it('changes the ETag when the data changes', async () => {
      const before = await t.get('/exchange-rate/history?days=7');
      await t.seed([rate('2025-01-11', 499, 509)]);
      const after = await t.get('/exchange-rate/history?days=7');
      expect(dates(after.body.data)).toContain('2025-01-11');
      expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));
    });

    it('gives one answer to the same query however it is written, and drops every spelling when the data changes', async () => {
      const spellings = ['days=6', 'days=06', 'days=%2B6', 'days=6&unknown=1'];
      const first = await Promise.all(spellings.map((q) => t.get(`/exchange-rate/history?${q}`)));
      const etag = first[0]?.headers.get('etag');
      for (const answer of first) {
        expect(answer.status).toBe(200);
        expect(answer.headers.get('etag')).toBe(etag);
      }
      // Asked again, each spelling is served from the cache: still the same answer.
      for (const q of spellings) expect((await t.get(`/exchange-rate/history?${q}`)).headers.get('etag')).toBe(etag);

      await t.seed([rate('2025-01-10', 498, 508)]);
      for (const q of spellings) {
        const answer = await t.get(`/exchange-rate/history?${q}`);
        expect(answer.headers.get('etag')).not.toBe(etag);
        expect((answer.body.data as ExchangeRate[]).find((r) => r.date === '2025-01-10')?.buy).toBe(498);
      }
    });

    it('never keeps a refused query string: the same text is refused again, not served', async () => {
      expect((await t.get('/exchange-rate/history?days=0')).status).toBe(400);
      expect((await t.get('/exchange-rate/history?days=0')).status).toBe(400);
    });
  });

  it.each(['0', '366', '-1', '1.5', '7.0', '', 'abc', '1e2', '0x10', ' 7', 'Infinity', 'NaN', '9999999999999999999'])(
    'answers 400 naming "days" for days=%j',
    async (value) => {
      const { status, body, headers } = await t.get(`/exchange-rate/history?days=${encodeURIComponent(value)}`);
      expect(status).toBe(400);
      expect(body).toEqual({ success: false, error: 'BAD_REQUEST', message: expect.stringContaining('"days"') });
      expect(body.message).toContain('1 to 365');
      expect(headers.get('cache-control')).toBe('no-store');
    },
  );

  it('refuses days given twice, even with the same value', async () => {
    const { status, body } = await t.get('/exchange-rate/history?days=7&days=7');
    expect(status).toBe(400);
    expect(body.message).toContain('"days"');
  });
});
