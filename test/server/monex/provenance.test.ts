/**
 * Where a MONEX day came from and how it changed, over HTTP, on data synced from the fake
 * upstream at three times: a session read, read again (confirmed), then corrected (a revision);
 * a weekend, which is published as nothing; a day not stored (404); and the 400s.
 */
import { addDays } from '../../../shared/dates';
import type { MonexProvenance, MonexRevision } from '../../../shared/types';
import { catchUpMonex } from '../../../server/jobs/sync-monex';
import { startFakeUpstream, type FakeUpstream } from '../../../server/demo/bccr-upstream';
import { createMonexSourceFrom } from '../../../server/sources';
import { startTestApp, type TestApp } from '../../helpers/app';
import { noonInCostaRica, syncDeps } from '../../helpers/sync';

const TODAY = '2026-11-20'; // a Friday
const SINCE = '2026-11-02';
const DAY = '2026-11-18'; // a Wednesday with a session
const SATURDAY = '2026-11-14';
const UPSTREAM = 'BCCR SDDE indicators 3439 3436 3437 3446';
const T1 = noonInCostaRica(TODAY);
const T2 = new Date(T1.getTime() + 60 * 60 * 1000);
const T3 = new Date(T2.getTime() + 60 * 60 * 1000);
let now = T1;
const clock = () => now;

let fake: FakeUpstream;
let t: TestApp;

const sync = async (at: Date) => {
  now = at;
  const source = createMonexSourceFrom({ bccrToken: fake.token, bccrApiUrl: fake.sddeUrl, retries: 0, timeoutMs: 5000 });
  if (!source) throw new Error('a token gives a MONEX source');
  const result = await catchUpMonex({ ...syncDeps(t.database.db, clock), changes: t.changes }, source, { since: SINCE });
  if (!result.ok) throw new Error('the MONEX sync failed');
};

beforeAll(async () => {
  fake = await startFakeUpstream({ today: TODAY });
  t = await startTestApp({ clock });
  await sync(T1);
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

const publishedFigures = () => {
  const figures = fake.monexFor(DAY);
  if (!figures) throw new Error(`the fake publishes ${DAY}`);
  return figures;
};
const corrected = { average: 500.5, min: 499, max: 502, volume: 20.25 };

describe('/monex/provenance and /monex/revisions', () => {
  it('gives a session as read once: where, when, one observation, no revision', async () => {
    expect(await data<MonexProvenance>(`/monex/provenance?date=${DAY}`)).toEqual({
      session: { date: DAY, session: true, ...publishedFigures(), volumeUnit: fake.monexUnit, source: 'BCCR', fetchedAt: T1.toISOString() },
      upstream: UPSTREAM,
      firstSeenAt: T1.toISOString(),
      lastConfirmedAt: T1.toISOString(),
      observations: 1,
      revisions: [],
    });
  });

  it('gives a weekend, published as nothing, as a day without a session and without a reading', async () => {
    expect(await data<MonexProvenance>(`/monex/provenance?date=${SATURDAY}`)).toEqual({
      session: expect.objectContaining({ date: SATURDAY, session: false, average: null, min: null, max: null, volume: null }),
      upstream: UPSTREAM,
      firstSeenAt: T1.toISOString(),
      lastConfirmedAt: T1.toISOString(),
      observations: 0,
      revisions: [],
    });
  });

  it('moves lastConfirmedAt when the same figures are read again', async () => {
    await sync(T2);
    expect(await data<MonexProvenance>(`/monex/provenance?date=${DAY}`)).toMatchObject({
      session: { ...publishedFigures(), fetchedAt: T1.toISOString() },
      firstSeenAt: T1.toISOString(),
      lastConfirmedAt: T2.toISOString(),
      observations: 2,
      revisions: [],
    });
    expect(await data<MonexRevision[]>(`/monex/revisions?from=${SINCE}&to=${TODAY}`)).toEqual([]);
  });

  it('keeps a corrected session as a revision, in its provenance and in the span', async () => {
    const published = publishedFigures();
    fake.setMonex((date) => (date === DAY ? corrected : undefined));
    await sync(T3);
    const revision: MonexRevision = {
      date: DAY,
      before: { session: true, ...published, source: 'BCCR' },
      after: { session: true, ...corrected, source: 'BCCR' },
      observedAt: T1.toISOString(),
      replacedAt: T3.toISOString(),
    };
    expect(await data<MonexProvenance>(`/monex/provenance?date=${DAY}`)).toEqual({
      session: { date: DAY, session: true, ...corrected, volumeUnit: fake.monexUnit, source: 'BCCR', fetchedAt: T3.toISOString() },
      upstream: UPSTREAM,
      firstSeenAt: T3.toISOString(),
      lastConfirmedAt: T3.toISOString(),
      observations: 3,
      revisions: [revision],
    });
    expect(await data<MonexRevision[]>(`/monex/revisions?from=${SINCE}&to=${TODAY}`)).toEqual([revision]);
    expect(await data<MonexRevision[]>(`/monex/revisions?from=${addDays(DAY, 1)}&to=${TODAY}`)).toEqual([]);

    const { status, headers, text } = await t.get(`/monex/revisions?from=${SINCE}&to=${TODAY}&format=csv`);
    expect(status).toBe(200);
    expect(headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const lines = text.split('\r\n');
    expect(lines[0]).toBe(
      'date,before_session,before_average,before_min,before_max,before_volume,before_source,after_session,after_average,after_min,after_max,after_volume,after_source,observedAt,replacedAt',
    );
    expect(lines[1]).toBe(
      [
        DAY,
        true,
        published.average,
        published.min,
        published.max,
        published.volume,
        'BCCR',
        true,
        500.5,
        499,
        502,
        20.25,
        'BCCR',
        T1.toISOString(),
        T3.toISOString(),
      ].join(','),
    );
  });

  it('is a 404 for a day not stored: after the last synced, and before the first', async () => {
    for (const day of [addDays(TODAY, 1), '2026-10-15']) {
      const { status, body } = await t.get(`/monex/provenance?date=${day}`);
      expect({ status, message: body.message }).toEqual({ status: 404, message: `MONEX of ${day} is not stored` });
    }
  });

  it.each([
    ['/monex/provenance', /"date"/],
    ['/monex/provenance?date=2026-02-30', /"date"/],
    ['/monex/revisions?from=2026-01-10', /"to" is required/],
    ['/monex/revisions?from=2026-02-10&to=2026-01-10', /"from"/],
    ['/monex/revisions?from=2025-01-01&to=2026-01-03', /at most 366 days apart/],
  ])('%s is a 400 naming the parameter', async (path, message) => {
    const { status, body } = await t.get(path);
    expect({ status, error: body.error }).toEqual({ status: 400, error: 'BAD_REQUEST' });
    expect(body.message).toMatch(message);
  });
});
