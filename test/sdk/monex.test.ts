/**
 * The SDK's MONEX and calendar methods (from its source) against the real server in-process:
 * each returns the route's data, typed as the shared types say, takes a `Date`, and turns a day
 * not known yet into NOT_FOUND and a bad calendar request into BAD_REQUEST; provenance and revisions too.
 */
import { ExchangeRateClient, ExchangeRateError, type CalendarDay, type MonexProvenance, type MonexRevision, type MonexSession } from '../../sdk/src';
import { createMonexStore, type MonexInput } from '../../server/store/monex';
import { rate, startTestApp, type TestApp } from '../helpers/app';

// 12:00 on 2025-01-16 in Costa Rica (UTC−6).
const NOW = new Date('2025-01-16T18:00:00Z');
const day = (date: string, average: number | null): MonexInput => ({
  date,
  session: average !== null,
  average,
  min: average === null ? null : average - 1,
  max: average === null ? null : average + 1.5,
  volume: average === null ? null : 10.25,
  volumeUnit: 'Millones de dólares',
  source: 'BCCR',
  fetchedAt: NOW,
});

let t: TestApp;
let client: ExchangeRateClient;

beforeAll(async () => {
  t = await startTestApp({ clock: () => NOW });
  await t.seed(['2025-01-13', '2025-01-14', '2025-01-15', '2025-01-16'].map((d, i) => rate(d, 500 + i, 510 + i)));
  // Monday 13 to Thursday 16, with Wednesday 15 a day without a session.
  await createMonexStore(t.database.db).writeSessions([day('2025-01-13', 505.5), day('2025-01-14', 506), day('2025-01-15', null), day('2025-01-16', 507.25)]);
  await t.changes.ratesChanged();
  client = new ExchangeRateClient({ apiKey: t.key, baseUrl: t.api, retries: 0 });
});
afterAll(() => t.close());

const raw = async (path: string) => (await t.get(path)).body.data;

describe('the MONEX methods', () => {
  it('getMonexLatest, getMonex (a string or a Date), getMonexHistory and getMonexRange give the routes’ data', async () => {
    const latest: MonexSession = await client.getMonexLatest();
    expect(latest).toMatchObject({ date: '2025-01-16', session: true, average: 507.25, volumeUnit: 'Millones de dólares' });
    expect(await client.getMonex('2025-01-15')).toEqual({ ...day('2025-01-15', null), fetchedAt: NOW.toISOString() });
    // A Date is its calendar day in Costa Rica: 02:00 UTC on the 16th is still the 15th there.
    expect((await client.getMonex(new Date('2025-01-16T02:00:00Z'))).date).toBe('2025-01-15');
    expect(await client.getMonexHistory({ days: 3 })).toEqual(await raw('/monex/history?days=3'));
    expect((await client.getMonexRange({ from: '2025-01-13', to: '2025-01-14' })).map((d) => d.average)).toEqual([505.5, 506]);
  });

  it('getCalendar takes from/to or a year', async () => {
    const span: CalendarDay[] = await client.getCalendar({ from: '2025-01-15', to: '2025-01-17' });
    expect(span).toEqual([
      { date: '2025-01-15', weekday: 3, session: false, referenceRate: true },
      { date: '2025-01-16', weekday: 4, session: true, referenceRate: true },
      { date: '2025-01-17', weekday: 5, session: null, referenceRate: false },
    ]);
    expect(await client.getCalendar({ year: 2025 })).toHaveLength(365);
  });

  it('getMonexProvenance and getMonexRevisions give the routes’ data, with strings and Dates', async () => {
    // Written outside a sync: no reading logged, so the indicators and the row's fetch time are all there is to say.
    const provenance: MonexProvenance = await client.getMonexProvenance('2025-01-14');
    expect(provenance).toEqual({
      session: { ...day('2025-01-14', 506), fetchedAt: NOW.toISOString() },
      upstream: 'BCCR SDDE indicators 3439 3436 3437 3446',
      firstSeenAt: NOW.toISOString(),
      lastConfirmedAt: NOW.toISOString(),
      observations: 0,
      revisions: [],
    });
    // A correction and its undoing: two revisions, and the day as it was for the other tests.
    const store = createMonexStore(t.database.db);
    await store.writeSessions([day('2025-01-14', 506.5)]);
    await store.writeSessions([day('2025-01-14', 506)]);
    await t.changes.ratesChanged();
    const revisions: MonexRevision[] = await client.getMonexRevisions('2025-01-01', new Date('2025-01-16T18:00:00Z'));
    expect(revisions).toEqual(await raw('/monex/revisions?from=2025-01-01&to=2025-01-16'));
    expect(revisions.map((r) => [r.date, r.before.average, r.after.average])).toEqual([
      ['2025-01-14', 506, 506.5],
      ['2025-01-14', 506.5, 506],
    ]);
    expect((await client.getMonexProvenance(new Date('2025-01-14T12:00:00Z'))).revisions).toEqual(revisions);
    await expect(client.getMonexProvenance('2025-01-17')).rejects.toMatchObject({ code: 'NOT_FOUND', status: 404 });
    await expect(client.getMonexRevisions('2025-01-16', '2025-01-01')).rejects.toMatchObject({ code: 'BAD_REQUEST', status: 400 });
  });

  it('a day not known yet is NOT_FOUND, a bad calendar request BAD_REQUEST', async () => {
    await expect(client.getMonex('2025-01-17')).rejects.toMatchObject({ code: 'NOT_FOUND', status: 404 });
    const error = await client.getCalendar({ from: '2025-01-01', to: '2026-03-01' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExchangeRateError);
    expect(error).toMatchObject({ code: 'BAD_REQUEST', status: 400 });
  });
});
