/**
 * The Power Query text the Excel page and /excel/crc-rates.pq hand out, asked of a real server:
 * every URL it builds answers CSV to the key sent as the X-API-Key header, with the columns the
 * query types, dates as ISO and numbers in the query's decimal separator.
 */
import { parse } from 'csv-parse/sync';
import { rate, startTestApp, type TestApp } from '../../helpers/app';
import { requestsOf, type MRequest } from './m-requests';

let t: TestApp;

beforeAll(async () => {
  // Today is 2025-02-10 in Costa Rica: the examples ask for January 2025, which is complete.
  t = await startTestApp({ clock: () => new Date('2025-02-10T18:00:00Z') });
  const rows = [];
  for (let day = new Date('2024-12-01T00:00:00Z'); day <= new Date('2025-02-10T00:00:00Z'); day.setUTCDate(day.getUTCDate() + 1)) {
    const n = day.getUTCDate();
    rows.push(rate(day.toISOString().slice(0, 10), 500 + n / 4, 510 + n / 4));
  }
  await t.seed(rows);
});

afterAll(async () => {
  await t?.close();
});

const fromHtml = (html: string) =>
  html
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

async function askFor(request: MRequest, separator: ',' | ';'): Promise<Array<Record<string, string>>> {
  expect(request.url.startsWith(`${t.api}/`)).toBe(true);
  expect(request.url).not.toMatch(/[?&]key=/);
  const response = await fetch(request.url, { headers: request.headers });
  const body = await response.text();
  expect({ url: request.url, status: response.status }).toEqual({ url: request.url, status: 200 });
  expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
  const records = parse(body, { columns: true, delimiter: separator }) as Array<Record<string, string>>;
  expect(records.length).toBeGreaterThan(0);
  for (const record of records) {
    for (const column of request.dates) expect(record[column]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    for (const column of request.numbers) expect(record[column]).toMatch(separator === ',' ? /^\d+(\.\d+)?$/ : /^\d+(,\d+)?$/);
  }
  return records;
}

describe('the queries on the Excel page', () => {
  it.each(['es', 'en'])('each asks the API for CSV with the key in a header (%s)', async (lang) => {
    const page = await (await fetch(`${t.url}/${lang}/excel`)).text();
    const queries = [...page.matchAll(/<code id="query-(\w+)">([^<]*)<\/code>/g)].map(([, table, code]) => ({ table, m: fromHtml(code ?? '') }));
    expect(queries.map((q) => q.table)).toEqual(['history', 'range', 'close', 'latest']);
    const seen: string[] = [];
    for (const { table, m } of queries) {
      const requests = requestsOf(m, { CrcRatesKey: t.key });
      expect(requests).toHaveLength(1);
      const [request] = requests as [MRequest];
      expect(request.headers).toEqual({ 'X-API-Key': t.key });
      const records = await askFor(request, ',');
      seen.push(`${table}: ${records.length} ${records[0]?.date ?? records[0]?.month}`);
    }
    // 30 days back from today, January, its close and today: what the examples promise.
    expect(seen).toEqual(['history: 30 2025-01-12', 'range: 31 2025-01-01', 'close: 1 2025-01', 'latest: 1 2025-02-10']);
  });
});

describe('/excel/crc-rates.pq', () => {
  it.each([
    { locale: '', separator: ',' as const },
    { locale: '?locale=es', separator: ';' as const },
  ])('holds the four queries, each answering CSV ($locale)', async ({ locale, separator }) => {
    const response = await fetch(`${t.url}/excel/crc-rates.pq${locale}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="crc-rates.pq"');
    const m = await response.text();
    // The answer is a record of the four tables; a field named like the step it reads would be a
    // cyclic reference in M ([History = History] refers to itself).
    const fields = [...(/\nin\n\s*\[([^\]]*)\]\s*$/.exec(m)?.[1]?.matchAll(/(\w+) = (\w+)/g) ?? [])].map(([, field, step]) => ({ field, step }));
    expect(fields.map((f) => f.field)).toEqual(['History', 'Range', 'Close', 'Latest']);
    for (const { field, step } of fields) {
      expect(step).not.toBe(field);
      expect(m).toMatch(new RegExp(`\\n    ${step} = Read\\(`));
    }
    const requests = requestsOf(m, { CrcRatesKey: t.key });
    expect(requests.map((r) => new URL(r.url).pathname)).toEqual([
      '/api/v1/exchange-rate/history',
      '/api/v1/exchange-rate/range',
      '/api/v1/exchange-rate/close',
      '/api/v1/exchange-rate/latest',
    ]);
    for (const request of requests) {
      expect(new URL(request.url).searchParams.get('locale')).toBe(separator === ';' ? 'es' : null);
      await askFor(request, separator);
    }
  });

  it('refuses a locale it does not know with a 400 naming it', async () => {
    const response = await fetch(`${t.url}/excel/crc-rates.pq?locale=fr`);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ success: false, error: 'BAD_REQUEST', message: expect.stringContaining('"locale"') });
  });

  it('names no key: without one the requests it builds are refused', async () => {
    const m = await (await fetch(`${t.url}/excel/crc-rates.pq`)).text();
    const [request] = requestsOf(m, { CrcRatesKey: '' }) as [MRequest];
    expect((await fetch(request.url, { headers: request.headers })).status).toBe(401);
  });
});
