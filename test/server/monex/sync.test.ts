/**
 * The MONEX sync through the fake upstream, which serves indicators 3436, 3437, 3439 and 3446 on
 * business days (0 in all four on its holidays) and the metadata of 3446: what a backfill stores
 * (a session, a holiday, the Holy Week, nothing on a weekend), the amount's unit, the week a
 * later run reads again, a corrected session kept as a revision, days refused by the bounds, and
 * an instance without a token.
 */
import type { Health } from '../../../shared/types';
import { addDays } from '../../../shared/dates';
import { catchUpMonex, scheduledMonex } from '../../../server/jobs/sync-monex';
import { startFakeUpstream, type FakeUpstream } from '../../../server/demo/bccr-upstream';
import { createMonexSourceFrom } from '../../../server/sources';
import { parseSddeMetadataUnit } from '../../../server/sources/bccr-monex';
import { classifyMonexDay } from '../../../server/domain/monex';
import { createMonexStore } from '../../../server/store/monex';
import { startTestApp, type TestApp } from '../../helpers/app';
import { clearTables, noonInCostaRica, syncDeps } from '../../helpers/sync';

const TODAY = '2026-11-20'; // a Friday
const SINCE = '2026-03-01';
const clock = () => noonInCostaRica(TODAY);

let fake: FakeUpstream;
let t: TestApp;

beforeAll(async () => {
  fake = await startFakeUpstream({ today: TODAY });
  t = await startTestApp({ clock });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});
beforeEach(async () => {
  await clearTables(t.database.db);
  fake.setMonex(null);
  fake.setFault('sdde', null);
  fake.requests.length = 0;
});

const source = () => {
  const s = createMonexSourceFrom({ bccrToken: fake.token, bccrApiUrl: fake.sddeUrl, retries: 0, timeoutMs: 5000 });
  if (!s) throw new Error('a token gives a MONEX source');
  return s;
};
const deps = () => ({ ...syncDeps(t.database.db, clock), changes: t.changes });
const sync = (span?: { from: string; to: string }) => catchUpMonex(deps(), source(), { since: SINCE, ...(span ? { span } : {}) });
const store = () => createMonexStore(t.database.db);
const stored = async (date: string) => (await store().range(date, date))[0];

describe('the MONEX sync', () => {
  it('stores a session with its four figures and the unit the metadata states', async () => {
    expect(await sync()).toMatchObject({ ran: true, ok: true });
    const day = '2026-11-18';
    const published = fake.monexFor(day);
    expect(published?.average).toBeGreaterThan(0);
    expect(await stored(day)).toMatchObject({ date: day, session: true, ...published, volumeUnit: fake.monexUnit, source: 'BCCR' });
    expect(fake.requests.some((r) => r.path.endsWith('/indicadoresEconomicos/3446/metadata'))).toBe(true);
  });

  it('stores a holiday (0 in all four) and a weekend (nothing published) as days without a session, with null figures', async () => {
    await sync();
    expect(fake.monexFor('2026-09-15')).toEqual({ average: 0, min: 0, max: 0, volume: 0 });
    expect(await stored('2026-09-15')).toMatchObject({ session: false, average: null, min: null, max: null, volume: null });
    // Saturday and Sunday: the central bank publishes nothing, which is no session either.
    expect(fake.monexFor('2026-11-14')).toBeNull();
    expect((await store().range('2026-11-14', '2026-11-15')).map((d) => [d.date, d.session, d.average])).toEqual([
      ['2026-11-14', false, null],
      ['2026-11-15', false, null],
    ]);
    // Every calendar day from the first published (Monday 2026-03-02; MONEX_SINCE here is a Sunday) is known, up to today's session.
    expect((await store().range(SINCE, TODAY))[0]?.date).toBe('2026-03-02');
    expect(await store().range(SINCE, TODAY)).toHaveLength(264);
    expect(await store().knownThrough()).toBe(TODAY);
  });

  it('stores the Holy Week, Monday to Friday, as five days without a session', async () => {
    await sync();
    const week = await store().range('2026-03-30', '2026-04-03');
    expect(week.map((d) => [d.date, d.session])).toEqual([
      ['2026-03-30', false],
      ['2026-03-31', false],
      ['2026-04-01', false],
      ['2026-04-02', false],
      ['2026-04-03', false],
    ]);
    expect((await stored('2026-03-27'))?.session).toBe(true);
    expect((await stored('2026-04-06'))?.session).toBe(true);
  });

  it('reads again only the last week on the next run', async () => {
    await sync();
    fake.requests.length = 0;
    await sync();
    const asked = fake.requests.filter((r) => r.path.includes('/indicadoresEconomicos/3439/')).map((r) => r.query.get('fechaInicio'));
    expect(asked).toEqual([addDays(TODAY, -6).replaceAll('-', '/')]);
  });

  it('keeps a corrected session as a revision and says which dates changed', async () => {
    await sync();
    const day = addDays(TODAY, -2);
    const before = fake.monexFor(day);
    const corrected = { average: 500.5, min: 499, max: 502, volume: 20.25 };
    fake.setMonex((date) => (date === day ? corrected : undefined));
    const result = await sync();
    expect(result.runs.flatMap((r) => r.changed)).toEqual([day]);
    expect(await stored(day)).toMatchObject({ session: true, ...corrected });
    const revisions = await store().revisions(day, day);
    expect(revisions).toEqual([
      {
        date: day,
        before: { session: true, ...before, source: 'BCCR' },
        after: { session: true, ...corrected, source: 'BCCR' },
        observedAt: expect.any(String),
        replacedAt: expect.any(String),
      },
    ]);
    const observations = await t.database.db('monex_observations').where({ date: day }).orderBy('first_seen_at');
    expect(observations.map((o: { reading: string }) => o.reading)).toEqual([
      [before?.average, before?.min, before?.max, before?.volume].join('/'),
      '500.5/499/502/20.25',
    ]);
    // A run that reads the same again changes nothing.
    expect((await sync()).runs.flatMap((r) => r.changed)).toEqual([]);
  });

  it('refuses a partial zero, figures out of order, and a price outside the band; stores the rest', async () => {
    const bad: Record<string, { average: number; min: number; max: number; volume: number } | null> = {
      '2026-11-16': { average: 0, min: 480, max: 485, volume: 10 },
      '2026-11-17': { average: 490, min: 491, max: 495, volume: 10 },
      '2026-11-18': { average: 4830, min: 4820, max: 4850, volume: 10 },
    };
    fake.setMonex((date) => bad[date]);
    const result = await sync({ from: '2026-11-16', to: TODAY });
    expect(result.ok).toBe(true);
    const rejected = result.runs.flatMap((r) => r.rejected);
    expect(rejected.map((r) => r.date)).toEqual(['2026-11-16', '2026-11-17', '2026-11-18']);
    expect(rejected[0]?.reason).toMatch(/average published as 0/);
    expect(rejected[1]?.reason).toMatch(/min 491 ≤ average 490/);
    expect(rejected[2]?.reason).toMatch(/outside 100\.\.2000/);
    expect((await store().range('2026-11-16', TODAY)).map((d) => d.date)).toEqual(['2026-11-19', '2026-11-20']);
    expect(result.runs[0]?.missing).toEqual([]);
  });

  it('fails a run whose indicator cannot be read, storing nothing of it', async () => {
    fake.setFault('sdde', { kind: 'html', times: 3 });
    const result = await sync({ from: '2026-11-16', to: TODAY });
    expect(result.ok).toBe(false);
    expect(result.runs[0]?.status).toBe('failed');
    expect(await store().range(SINCE, TODAY)).toEqual([]);
  });

  it('the scheduled job rests once today is stored', async () => {
    const job = scheduledMonex(deps(), source(), SINCE);
    await job(new AbortController().signal);
    expect(await store().knownThrough()).toBe(TODAY);
    fake.requests.length = 0;
    await job(new AbortController().signal);
    expect(fake.requests).toEqual([]);
  });
});

describe('without a token', () => {
  it('has no MONEX source, and health says why', async () => {
    expect(createMonexSourceFrom({ bccrToken: undefined, bccrApiUrl: fake.sddeUrl })).toBeNull();
    const app = await startTestApp({ clock, monexNeedsToken: true, database: t.database });
    try {
      const health = (await app.get('/health')).body.data as Health;
      expect(health.reasons).toContain('MONEX sessions and the market calendar need BCCR_TOKEN: cuadro 219 comes only from the central bank’s SDDE API');
    } finally {
      await app.close();
    }
  });
});

describe('the metadata parser', () => {
  it('reads the unit wherever a tolerant reading finds it', () => {
    expect(parseSddeMetadataUnit('{"estado":true,"mensaje":"ok","datos":[{"codigoIndicador":"3446","unidadMedida":"Millones de dólares"}]}')).toBe(
      'Millones de dólares',
    );
    expect(parseSddeMetadataUnit('{"estado":true,"datos":[{"indicador":{"Unidad":"US$ millones"}}]}')).toBe('US$ millones');
    expect(parseSddeMetadataUnit('[{"unit":"USD millions"}]')).toBe('USD millions');
    expect(parseSddeMetadataUnit('{"estado":true,"datos":[{"codigoIndicador":"3446"}]}')).toBeNull();
    expect(() => parseSddeMetadataUnit('{"estado":false,"mensaje":"Error"}')).toThrow(/estado false/);
    expect(() => parseSddeMetadataUnit('{"CodigoError":"400","Mensaje":"No existe"}')).toThrow(/metadata error/);
  });
});

describe('a published day', () => {
  it('is refused when a figure is missing, after today, or before MONEX began', () => {
    expect(classifyMonexDay('2026-11-18', { average: 480, min: 479, max: 481 }, TODAY)).toEqual({ kind: 'refused', reason: 'volume not published' });
    expect(classifyMonexDay('2026-11-21', { average: 480, min: 479, max: 481, volume: 1 }, TODAY)).toMatchObject({ kind: 'refused' });
    expect(classifyMonexDay('2005-12-30', { average: 480, min: 479, max: 481, volume: 1 }, TODAY)).toMatchObject({ kind: 'refused' });
    expect(classifyMonexDay('2026-11-18', { average: 0, min: 0, max: 0, volume: 0 }, TODAY)).toEqual({ kind: 'none' });
  });
});
