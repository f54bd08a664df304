/**
 * Provenance through real syncs against the fake central bank and Hacienda, read over HTTP: a
 * correction changes the record and shows as a revision (in /provenance and /revisions), and so
 * does the central bank's value replacing the fallback's; reading the same values again only
 * counts and confirms them; and every cached answer that a sync makes stale is dropped.
 */
import { createHash } from 'node:crypto';
import { addDays } from '../../../shared/dates';
import type { Provenance, RateAnswer, Revision } from '../../../shared/types';
import { createLocalChangeFeed } from '../../../server/changes';
import { catchUpOfficial } from '../../../server/jobs/catch-up';
import { startFakeUpstream, type FakeUpstream } from '../../../server/demo/bccr-upstream';
import { startTestApp, type TestApp } from '../../helpers/app';
import { clearTables, fakeSources, noonInCostaRica, PRIMARY_ROUTES, type PrimaryRoute, syncDeps } from '../../helpers/sync';

const TODAY = '2026-11-20';
const WEEK = { from: addDays(TODAY, -7), to: addDays(TODAY, -1) };
const DAY = addDays(TODAY, -3);
const UPSTREAM: Record<PrimaryRoute, { buy: string; sell: string }> = {
  sdde: { buy: 'BCCR SDDE indicator 317', sell: 'BCCR SDDE indicator 318' },
  site: { buy: 'BCCR public site (SDDE group 1), indicator 317', sell: 'BCCR public site (SDDE group 1), indicator 318' },
};
const HACIENDA = { buy: 'Hacienda /indicadores/tc/dolar (compra)', sell: 'Hacienda /indicadores/tc/dolar (venta)' };

/** A value moved by `delta`, with the two decimals the central bank publishes. */
const moved = (value: number, delta: number) => Math.round((value + delta) * 100) / 100;

/** Times within TODAY in Costa Rica (noon, then later that afternoon). */
const at = (hours: number) => new Date(noonInCostaRica(TODAY).getTime() + hours * 3_600_000);

let fake: FakeUpstream;
let t: TestApp;
let now = at(0);
const changes = createLocalChangeFeed();
const deps = () => syncDeps(t.database.db, () => now, changes);

beforeAll(async () => {
  fake = await startFakeUpstream({ today: TODAY });
  t = await startTestApp({ clock: () => now, changes });
});
afterAll(async () => {
  await fake.close();
  await t.close();
});
beforeEach(async () => {
  await clearTables(t.database.db);
  // Cleared behind the app's back: its caches must not answer from before.
  await changes.ratesChanged();
  fake.setFault('sdde', null);
  fake.setFault('site', null);
  fake.setRates(null);
});

async function provenance(date: string): Promise<Provenance> {
  const { status, body } = await t.get(`/exchange-rate/provenance?date=${date}`);
  expect([date, status]).toEqual([date, 200]);
  return body.data as Provenance;
}

async function revisions(from: string, to: string): Promise<Revision[]> {
  const { status, body } = await t.get(`/exchange-rate/revisions?from=${from}&to=${to}`);
  expect(status).toBe(200);
  return body.data as Revision[];
}

/** The digest as anyone would recompute it from the record, with node:crypto. */
function digestOf(r: RateAnswer): string {
  // The values here print without an exponent: pad the decimals to at least two.
  const plain = (n: number) => {
    const [whole, decimals = ''] = String(n).split('.');
    return `${whole}.${decimals.padEnd(2, '0')}`;
  };
  const text = [r.date, r.currencyFrom, r.currencyTo, r.buy === null ? '' : plain(r.buy), plain(r.sell), r.source].join('|');
  return `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;
}

describe.each(PRIMARY_ROUTES)('through %s', (_name, route) => {
  it('a correction by the central bank changes the record and shows as a revision; the cached answers are dropped', async () => {
    const { sources } = fakeSources(fake, route);
    now = at(0);
    await catchUpOfficial(deps(), sources, WEEK);
    const was = fake.rateFor(DAY) as { buy: number; sell: number };

    const first = await provenance(DAY);
    expect(first).toEqual({
      record: { date: DAY, currencyFrom: 'USD', currencyTo: 'CRC', buy: was.buy, sell: was.sell, source: 'BCCR', fetchedAt: at(0).toISOString() },
      upstream: UPSTREAM[route],
      firstSeenAt: at(0).toISOString(),
      lastConfirmedAt: at(0).toISOString(),
      observations: 1,
      revisions: [],
      digest: digestOf(first.record),
    });
    expect(await revisions(WEEK.from, WEEK.to)).toEqual([]);
    // Kept in the cache now: what follows must drop them.
    expect((await t.get(`/exchange-rate/provenance?date=${DAY}`)).headers.get('etag')).toBeTruthy();
    const page = await t.get(`/exchange-rate/provenance?date=${DAY}&format=html&locale=en`);
    expect(page.text).toContain(first.digest);

    const corrected = { buy: moved(was.buy, 1.25), sell: moved(was.sell, 1.3) };
    fake.setRates((date) => (date === DAY ? corrected : undefined));
    now = at(2);
    const rerun = await catchUpOfficial(deps(), sources, WEEK);
    expect(rerun.runs[0]).toMatchObject({ inserted: 0, updated: 1 });

    const after = await provenance(DAY);
    expect(after).toEqual({
      record: { ...first.record, ...corrected, fetchedAt: at(2).toISOString() },
      upstream: UPSTREAM[route],
      firstSeenAt: at(2).toISOString(),
      lastConfirmedAt: at(2).toISOString(),
      observations: 2,
      revisions: [{ buy: was.buy, sell: was.sell, source: 'BCCR', observedAt: at(0).toISOString(), replacedAt: at(2).toISOString() }],
      digest: digestOf(after.record),
    });
    expect(after.digest).not.toBe(first.digest);
    expect(await revisions(WEEK.from, WEEK.to)).toEqual([
      { date: DAY, before: { buy: was.buy, sell: was.sell, source: 'BCCR' }, after: { ...corrected, source: 'BCCR' }, revisedAt: at(2).toISOString() },
    ]);
    const pageAfter = await t.get(`/exchange-rate/provenance?date=${DAY}&format=html&locale=en`);
    expect(pageAfter.text).toContain(after.digest);
    expect(pageAfter.text).not.toContain(first.digest);
    expect((await t.get(`/exchange-rate?date=${DAY}`)).body.data).toEqual(after.record);
  });
});

it('reading the same values again counts and confirms them: no new revision, no new log entry, the provenance cache dropped', async () => {
  const { sources } = fakeSources(fake, 'sdde');
  now = at(0);
  await catchUpOfficial(deps(), sources, WEEK);
  const corrected = { buy: 600.5, sell: 606.75 };
  fake.setRates((date) => (date === DAY ? corrected : undefined));
  now = at(1);
  await catchUpOfficial(deps(), sources, WEEK);
  const before = await provenance(DAY);
  expect(before).toMatchObject({ firstSeenAt: at(1).toISOString(), lastConfirmedAt: at(1).toISOString(), observations: 2 });
  const record = await t.get(`/exchange-rate?date=${DAY}`);
  await t.get(`/exchange-rate?date=${DAY}`);
  const logSize = async () => (await t.database.db('rate_observations').count({ n: '*' }))[0];

  // Asked for a second time, the answer is kept.
  expect(await provenance(DAY)).toEqual(before);
  const kept = `${TODAY} /exchange-rate/provenance?date=${DAY}`;
  expect(t.app.responseCache.get(kept)).toBeDefined();

  now = at(3);
  const again = await catchUpOfficial(deps(), sources, WEEK);

  expect(again.runs.map((r) => [r.inserted, r.updated])).toEqual([[0, 0]]);
  expect(t.app.responseCache.get(kept)).toBeUndefined();
  expect(await provenance(DAY)).toEqual({
    ...before,
    firstSeenAt: at(1).toISOString(),
    lastConfirmedAt: at(3).toISOString(),
    observations: 3,
  });
  // Another day, never corrected: read three times, one entry.
  expect(await provenance(WEEK.from)).toMatchObject({ firstSeenAt: at(0).toISOString(), lastConfirmedAt: at(3).toISOString(), observations: 3, revisions: [] });
  expect(await revisions(WEEK.from, WEEK.to)).toHaveLength(1);
  // One entry per day, and one more for the values the corrected day had before.
  expect(await logSize()).toEqual({ n: 7 + 1 });
  // The rates did not change: their cached answers stay (same ETag, served from the cache).
  const key = `${TODAY} /exchange-rate?date=${DAY}`;
  expect(t.app.responseCache.get(key)?.etag).toBe(record.headers.get('etag'));
});

it("the central bank's value replacing Hacienda's shows as a revision of the fallback's value", async () => {
  const { sources } = fakeSources(fake, 'sdde');
  now = at(0);
  await catchUpOfficial(deps(), sources, { from: WEEK.from, to: WEEK.to });
  const hacienda = fake.rateFor(TODAY) as { buy: number; sell: number };

  // The central bank cannot be reached: Hacienda gives today.
  fake.setFault('sdde', '500');
  now = at(1);
  const down = await catchUpOfficial(deps(), sources);
  expect(down.runs.map((r) => [r.source, r.status])).toEqual([
    ['bccr-sdde', 'failed'],
    ['hacienda', 'succeeded'],
  ]);
  const fallback = await provenance(TODAY);
  expect(fallback).toMatchObject({
    record: { date: TODAY, ...hacienda, source: 'Hacienda' },
    upstream: HACIENDA,
    firstSeenAt: at(1).toISOString(),
    observations: 1,
    revisions: [],
  });
  expect(fallback.digest).toBe(digestOf(fallback.record));

  fake.setFault('sdde', null);
  const official = { buy: moved(hacienda.buy, 0.75), sell: moved(hacienda.sell, 0.5) };
  fake.setRates((date) => (date === TODAY ? official : undefined));
  now = at(4);
  await catchUpOfficial(deps(), sources);

  const replaced = await provenance(TODAY);
  expect(replaced).toEqual({
    record: { date: TODAY, currencyFrom: 'USD', currencyTo: 'CRC', ...official, source: 'BCCR', fetchedAt: at(4).toISOString() },
    upstream: UPSTREAM.sdde,
    firstSeenAt: at(4).toISOString(),
    lastConfirmedAt: at(4).toISOString(),
    observations: 2,
    revisions: [{ ...hacienda, source: 'Hacienda', observedAt: at(1).toISOString(), replacedAt: at(4).toISOString() }],
    digest: digestOf(replaced.record),
  });
  expect(await revisions(WEEK.from, TODAY)).toEqual([
    { date: TODAY, before: { ...hacienda, source: 'Hacienda' }, after: { ...official, source: 'BCCR' }, revisedAt: at(4).toISOString() },
  ]);
});

it('lists revisions ascending by day, then by time, within the span only', async () => {
  const { sources } = fakeSources(fake, 'sdde');
  now = at(0);
  await catchUpOfficial(deps(), sources, WEEK);
  const days = [addDays(TODAY, -2), addDays(TODAY, -6)];
  const base = fake.rateFor(days[0] as string) as { buy: number; sell: number };
  // Day -2 is corrected twice, day -6 once (in between).
  fake.setRates((date) => (date === days[0] ? { buy: moved(base.buy, 1), sell: moved(base.sell, 1) } : undefined));
  now = at(1);
  await catchUpOfficial(deps(), sources, WEEK);
  fake.setRates((date) => (date === days[0] ? { buy: moved(base.buy, 2), sell: moved(base.sell, 2) } : date === days[1] ? { buy: 700, sell: 705 } : undefined));
  now = at(2);
  await catchUpOfficial(deps(), sources, WEEK);

  const listed = await revisions(WEEK.from, WEEK.to);
  expect(listed.map((r) => [r.date, r.revisedAt])).toEqual([
    [days[1], at(2).toISOString()],
    [days[0], at(1).toISOString()],
    [days[0], at(2).toISOString()],
  ]);
  // Each revision's "after" is the next one's "before".
  expect(listed[1]?.after).toEqual(listed[2]?.before);
  expect(await revisions(WEEK.from, addDays(TODAY, -3))).toHaveLength(1);
  expect(await revisions('2020-01-01', '2020-12-31')).toEqual([]);
  expect((await provenance(days[0] as string)).revisions.map((r) => r.replacedAt)).toEqual([at(1).toISOString(), at(2).toISOString()]);
});
