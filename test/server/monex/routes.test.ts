/**
 * The MONEX routes and the market calendar over HTTP, on data synced from the fake upstream (a
 * session, a holiday, the Holy Week, weekends), with what each answers for a day not known yet,
 * the 400s that name their parameters, and the CSV form.
 */
import { addDays } from '../../../shared/dates';
import type { CalendarDay, MonexSession } from '../../../shared/types';
import { catchUpOfficial } from '../../../server/jobs/catch-up';
import { catchUpMonex } from '../../../server/jobs/sync-monex';
import { startFakeUpstream, type FakeUpstream } from '../../../server/demo/bccr-upstream';
import { createMonexSourceFrom } from '../../../server/sources';
import { startTestApp, type TestApp } from '../../helpers/app';
import { fakeSources, noonInCostaRica, syncDeps } from '../../helpers/sync';

const TODAY = '2026-11-20'; // a Friday
const SINCE = '2026-03-01';
const clock = () => noonInCostaRica(TODAY);

let fake: FakeUpstream;
let t: TestApp;

beforeAll(async () => {
  fake = await startFakeUpstream({ today: TODAY });
  t = await startTestApp({ clock });
  const deps = { ...syncDeps(t.database.db, clock), changes: t.changes };
  await catchUpOfficial(deps, fakeSources(fake, 'sdde').sources, { from: SINCE, to: TODAY });
  const source = createMonexSourceFrom({ bccrToken: fake.token, bccrApiUrl: fake.sddeUrl, retries: 0 });
  if (!source) throw new Error('a token gives a MONEX source');
  const result = await catchUpMonex(deps, source, { since: SINCE });
  if (!result.ok) throw new Error('the MONEX sync failed');
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const data = async <T>(path: string): Promise<T> => {
  const { status, body } = await t.get(path);
  expect({ path, status }).toEqual({ path, status: 200 });
  return body.data as T;
};

describe('/monex', () => {
  it('answers a session day with its figures and the unit the metadata states', async () => {
    const day = '2026-11-18';
    expect(await data<MonexSession>(`/monex?date=${day}`)).toEqual({
      date: day,
      session: true,
      ...fake.monexFor(day),
      volumeUnit: fake.monexUnit,
      source: 'BCCR',
      fetchedAt: expect.any(String),
    });
  });

  it('answers a holiday and a weekend as session:false with null figures, never the day before', async () => {
    for (const day of ['2026-09-15', '2026-11-14', '2026-11-15']) {
      expect(await data<MonexSession>(`/monex?date=${day}`)).toMatchObject({ date: day, session: false, average: null, min: null, max: null, volume: null });
    }
  });

  it('is a 404 for a day not known yet, and for a day before the stored ones', async () => {
    const future = await t.get(`/monex?date=${addDays(TODAY, 1)}`);
    expect(future.status).toBe(404);
    expect(future.body.message).toBe(`MONEX of ${addDays(TODAY, 1)} is not known yet: the latest day synced is ${TODAY}`);
    expect((await t.get('/monex?date=2026-02-27')).status).toBe(404);
  });

  it('latest is the last day with a session', async () => {
    expect(await data<MonexSession>('/monex/latest')).toMatchObject({ date: TODAY, session: true, average: fake.monexFor(TODAY)?.average });
  });

  it('range gives every day of the Holy Week without a session, between two sessions', async () => {
    const week = await data<MonexSession[]>('/monex/range?from=2026-03-27&to=2026-04-06');
    expect(week.map((d) => [d.date, d.session])).toEqual([
      ['2026-03-27', true],
      ['2026-03-28', false],
      ['2026-03-29', false],
      ['2026-03-30', false],
      ['2026-03-31', false],
      ['2026-04-01', false],
      ['2026-04-02', false],
      ['2026-04-03', false],
      ['2026-04-04', false],
      ['2026-04-05', false],
      ['2026-04-06', true],
    ]);
  });

  it('history gives the last `days` calendar days up to the latest known, ascending', async () => {
    const days = await data<MonexSession[]>('/monex/history?days=7');
    expect(days.map((d) => d.date)).toEqual(Array.from({ length: 7 }, (_, i) => addDays(TODAY, i - 6)));
    expect(days.filter((d) => d.session).map((d) => d.date)).toEqual(['2026-11-16', '2026-11-17', '2026-11-18', '2026-11-19', '2026-11-20']);
  });
});

describe('/calendar', () => {
  it('gives a span: ISO weekdays, sessions, null for days not known yet, and whether the official rate is stored', async () => {
    const days = await data<CalendarDay[]>('/calendar?from=2026-11-14&to=2026-11-23');
    expect(days).toEqual([
      { date: '2026-11-14', weekday: 6, session: false, referenceRate: true },
      { date: '2026-11-15', weekday: 7, session: false, referenceRate: true },
      { date: '2026-11-16', weekday: 1, session: true, referenceRate: true },
      { date: '2026-11-17', weekday: 2, session: true, referenceRate: true },
      { date: '2026-11-18', weekday: 3, session: true, referenceRate: true },
      { date: '2026-11-19', weekday: 4, session: true, referenceRate: true },
      { date: '2026-11-20', weekday: 5, session: true, referenceRate: true },
      { date: '2026-11-21', weekday: 6, session: null, referenceRate: false },
      { date: '2026-11-22', weekday: 7, session: null, referenceRate: false },
      { date: '2026-11-23', weekday: 1, session: null, referenceRate: false },
    ]);
  });

  it('gives a whole year, with days before the stored ones unknown', async () => {
    const days = await data<CalendarDay[]>('/calendar?year=2026');
    expect(days).toHaveLength(365);
    expect(days[0]).toEqual({ date: '2026-01-01', weekday: 4, session: null, referenceRate: false });
    expect(days.find((d) => d.date === '2026-09-15')).toEqual({ date: '2026-09-15', weekday: 2, session: false, referenceRate: true });
    expect(days.at(-1)).toEqual({ date: '2026-12-31', weekday: 4, session: null, referenceRate: false });
    expect(days.filter((d) => d.session === true)).toHaveLength(
      days.filter((d) => d.date >= SINCE && d.date <= TODAY && (fake.monexFor(d.date)?.average ?? 0) > 0).length,
    );
  });
});

describe('bad requests', () => {
  it.each([
    ['/monex', /"date"/],
    ['/monex?date=2026-02-30', /"date"/],
    ['/monex/history?days=0', /"days"/],
    ['/monex/history?days=366', /"days"/],
    ['/monex/range?from=2026-01-10', /"to" is required/],
    ['/monex/range?from=2026-02-10&to=2026-01-10', /"from"/],
    ['/monex/range?from=2025-01-01&to=2026-01-03', /at most 366 days apart/],
    ['/calendar', /"from" and "to", or "year"/],
    ['/calendar?year=2026&from=2026-01-01&to=2026-01-31', /"year" or "from" and "to"/],
    ['/calendar?year=twenty', /"year"/],
    ['/calendar?from=2026-01-01&to=2027-01-03', /at most 366 days apart/],
  ])('%s is a 400 naming the parameter', async (path, message) => {
    const { status, body } = await t.get(path);
    expect({ status, error: body.error }).toEqual({ status: 400, error: 'BAD_REQUEST' });
    expect(body.message).toMatch(message);
  });
});

describe('CSV', () => {
  it('writes sessions with empty cells for a day without one', async () => {
    const { status, headers, text } = await t.get('/monex/range?from=2026-09-14&to=2026-09-15&format=csv');
    expect(status).toBe(200);
    expect(headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const lines = text.split('\r\n');
    expect(lines[0]).toBe('date,session,average,min,max,volume,volumeUnit,source,fetchedAt');
    const d = fake.monexFor('2026-09-14');
    expect(lines[1]).toMatch(new RegExp(`^2026-09-14,true,${d?.average},${d?.min},${d?.max},${d?.volume},${fake.monexUnit},BCCR,`));
    expect(lines[2]).toMatch(/^2026-09-15,false,,,,,Millones de dólares,BCCR,/);
  });

  it('writes the calendar, with locale=es separators', async () => {
    const { text } = await t.get('/calendar?from=2026-11-20&to=2026-11-21&format=csv&locale=es');
    expect(text.split('\r\n').slice(0, 3)).toEqual(['date;weekday;session;referenceRate', '2026-11-20;5;true;true', '2026-11-21;6;;false']);
  });

  it('writes the latest session and one day', async () => {
    expect((await t.get('/monex/latest?format=csv')).text.split('\r\n')[1]).toMatch(new RegExp(`^${TODAY},true,`));
    expect((await t.get('/monex?date=2026-11-14&format=csv')).text.split('\r\n')[1]).toMatch(/^2026-11-14,false,,,,,/);
  });
});
