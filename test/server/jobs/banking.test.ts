/**
 * The window (ventanilla) sync through the fake upstream, on both routes of the central bank:
 * what a good answer stores (every institution with its catalog id and type, unknown ones kept
 * with an inferred type, update times read in Costa Rica time), what the banking endpoints then
 * answer from it, that every kind of bad answer leaves the stored quotes and institutions exactly
 * as they were, idempotence, history kept, intraday corrections, and the scheduled run.
 */
import { addDays } from '../../../shared/dates';
import type { InstitutionType } from '../../../shared/institutions';
import type { BankingRates, BestRate, Institution } from '../../../shared/types';
import { startScheduler, type Scheduler } from '../../../server/jobs/scheduler';
import { syncBanking, type BankingSummary } from '../../../server/jobs/sync-banking';
import type { RequestPolicy } from '../../../server/sources/http';
import { createBankingStore, type InstitutionInput, type QuoteInput } from '../../../server/store/banking';
import { createRatesStore } from '../../../server/store/rates';
import { createSyncRunsStore } from '../../../server/store/sync-runs';
import { startFakeUpstream, type Fault, type FakeInstitutionRow, type FakeRoute, type FakeUpstream } from '../../../server/demo/bccr-upstream';
import { costaRicaInstant, SYNTHETIC_UNKNOWN_INSTITUTION, syntheticVentanilla } from '../../../server/demo/synthetic-history';
import { startTestApp } from '../../helpers/app';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import {
  clearBankingTables,
  clearTables,
  daysOf,
  fakeSources,
  fakeVentanilla,
  noonInCostaRica,
  PRIMARY_ROUTES,
  snapshotBanking,
  syncDeps,
  waitFor,
  type PrimaryRoute,
  type StoredBankingRow,
} from '../../helpers/sync';

const TODAY = '2026-11-20'; // a Friday
/** Monday to today: five days, five requests on the site API, one on the token API. */
const SPAN = { from: '2026-11-16', to: TODAY };
const SPAN_DAYS = daysOf(SPAN.from, SPAN.to);
const ROUTE_OF: Record<PrimaryRoute, FakeRoute> = { site: 'ventanillaSite', sdde: 'ventanillaSdde' };
const ALL_ROUTES: FakeRoute[] = ['sdde', 'siteToken', 'site', 'hacienda', 'ventanillaSdde', 'ventanillaSite'];

/**
 * What each institution of the synthetic table must be stored as: the catalog's id, name and type
 * (whatever spelling the central bank printed), and for the one the catalog does not know, a slug
 * of the printed name, the printed name, and a type read from its group or its name.
 */
const STORED_AS: Record<string, { id: string; name: string; type: InstitutionType; known: boolean }> = {
  'Banco de Costa Rica': { id: 'banco-de-costa-rica', name: 'Banco de Costa Rica', type: 'public_bank', known: true },
  'Banco Nacional de Costa Rica': { id: 'banco-nacional', name: 'Banco Nacional de Costa Rica', type: 'public_bank', known: true },
  'Banco Popular y de Desarrollo Comunal': { id: 'banco-popular', name: 'Banco Popular y de Desarrollo Comunal', type: 'public_bank', known: true },
  'Banco BAC San José S.A.': { id: 'bac-san-jose', name: 'Banco BAC San José', type: 'private_bank', known: true },
  'Banco Davivienda (Costa Rica) S.A.': { id: 'banco-davivienda', name: 'Banco Davivienda (Costa Rica)', type: 'private_bank', known: true },
  'Banco Promerica de Costa Rica S.A.': { id: 'banco-promerica', name: 'Banco Promerica de Costa Rica', type: 'private_bank', known: true },
  'Financiera Desyfin S.A.': { id: 'financiera-desyfin', name: 'Financiera Desyfin', type: 'financial', known: true },
  'Grupo Mutual Alajuela - La Vivienda de Ahorro y Préstamo': {
    id: 'mutual-alajuela',
    name: 'Grupo Mutual Alajuela - La Vivienda de Ahorro y Préstamo',
    type: 'mutual',
    known: true,
  },
  'Coopenae R.L.': { id: 'coopenae', name: 'Coopenae', type: 'cooperative', known: true },
  'Teledolar S.A.': { id: 'teledolar', name: 'Teledolar', type: 'exchange_house', known: true },
  [SYNTHETIC_UNKNOWN_INSTITUTION]: { id: 'casa-de-cambio-ficticia', name: SYNTHETIC_UNKNOWN_INSTITUTION, type: 'exchange_house', known: false },
  'BN Valores Puesto de Bolsa S.A.': { id: 'bn-valores', name: 'BN Valores Puesto de Bolsa', type: 'brokerage', known: true },
};

let fake: FakeUpstream;
let database: TestDatabase;
let now = noonInCostaRica(TODAY);
const clock = () => now;

beforeAll(async () => {
  fake = await startFakeUpstream({ today: TODAY });
  database = await createTestDatabase();
});
afterAll(async () => {
  await fake.close();
  await database.drop();
});
beforeEach(async () => {
  await clearBankingTables(database.db);
  await clearTables(database.db);
  for (const route of ALL_ROUTES) fake.setFault(route, null);
  fake.setRates(null);
  fake.setVentanilla(null);
  fake.requests.length = 0;
  now = noonInCostaRica(TODAY);
});

const deps = () => syncDeps(database.db, clock);
const lastRun = async () => (await createSyncRunsStore(database.db).recent(1))[0];

function storedAs(name: string): { id: string; name: string; type: InstitutionType; known: boolean } {
  const entry = STORED_AS[name];
  if (!entry) throw new Error(`no expectation for ${name}`);
  return entry;
}

/** The rows the fake serves for `days` as they must be stored: both sides quoted (the N/D one left out). */
function expectedRows(days: readonly string[], route: PrimaryRoute): Array<Omit<StoredBankingRow, 'fetched_at'>> {
  return days
    .flatMap((date) =>
      fake
        .ventanillaFor(date)
        .filter((r) => r.buy !== null && r.sell !== null)
        .map((r) => ({
          date,
          institution_id: storedAs(r.name).id,
          buy: r.buy!,
          sell: r.sell!,
          // The token API's cuadro has no update times; the site prints them.
          updated_at: route === 'site' && r.updatedAt ? new Date(r.updatedAt) : null,
          source: `bccr-${route}`,
        })),
    )
    .sort((a, b) => (`${a.date} ${a.institution_id}` < `${b.date} ${b.institution_id}` ? -1 : 1));
}

async function storedRows(): Promise<Array<Omit<StoredBankingRow, 'fetched_at'>>> {
  return (await snapshotBanking(database.db)).rates.map(({ fetched_at: _f, ...rest }) => rest);
}

/** Every institution of the synthetic table that has both sides quoted, as the institutions table must hold it. */
function expectedInstitutions() {
  return Object.values(STORED_AS)
    .filter((i) => i.id !== 'banco-promerica')
    .sort((a, b) => (a.id < b.id ? -1 : 1));
}

/**
 * Quotes already stored for SPAN and the day before that a successful sync would change: every
 * institution one colón off the fake, under an older spelling of its name, plus one institution
 * the fake does not list at all.
 */
async function seedQuotesTheFakeWouldChange(): Promise<void> {
  const banking = createBankingStore(database.db);
  for (const date of [addDays(SPAN.from, -1), ...SPAN_DAYS]) {
    const rows = fake.ventanillaFor(date).filter((r) => r.buy !== null && r.sell !== null);
    const institutions: InstitutionInput[] = [
      ...rows.map((r) => ({ ...storedAs(r.name), name: `${storedAs(r.name).name} (old spelling)` })),
      { id: 'banco-bct', name: 'Banco BCT', type: 'private_bank', known: true },
    ];
    const quotes: QuoteInput[] = [
      ...rows.map((r) => ({ institutionId: storedAs(r.name).id, buy: r.buy! + 1, sell: r.sell! + 1, updatedAt: new Date(`${date}T15:00:00.000Z`) })),
      { institutionId: 'banco-bct', buy: 500, sell: 510, updatedAt: null },
    ];
    await banking.saveDay({ date, source: 'bccr-site', fetchedAt: new Date('2026-01-01T00:00:00.000Z'), institutions, quotes });
  }
}

interface FaultCase {
  name: string;
  fault: Fault;
  error: RegExp;
  policy?: RequestPolicy;
  /** Requests the window route gets: the first one plus every retry (and, on the site, one more with a fresh token after a 401). */
  attempts: Record<PrimaryRoute, number>;
}

const FAULTS: FaultCase[] = [
  { name: '401', fault: '401', error: /HTTP 401/, attempts: { site: 2, sdde: 1 } },
  { name: 'a 400 CodigoError body', fault: '400', error: /HTTP 400.*CodigoError/, attempts: { site: 1, sdde: 1 } },
  { name: '429 persisting past the retries', fault: '429', error: /HTTP 429.*gave up after 3 attempts/, attempts: { site: 3, sdde: 3 } },
  { name: '500', fault: '500', error: /HTTP 500.*gave up after 3 attempts/, attempts: { site: 3, sdde: 3 } },
  { name: 'an HTML page instead of JSON', fault: 'html', error: /HTML/, attempts: { site: 1, sdde: 1 } },
  { name: 'a truncated body', fault: 'truncated', error: /not valid JSON \(truncated\?\)/, attempts: { site: 1, sdde: 1 } },
  {
    name: 'a hang past the timeout',
    fault: 'hang',
    error: /no answer .* within 300 ms.*gave up after 2 attempts/,
    policy: { timeoutMs: 300, retries: 1 },
    attempts: { site: 2, sdde: 2 },
  },
  { name: 'estado:false', fault: 'estadoFalse', error: /estado false/, attempts: { site: 1, sdde: 1 } },
];

describe.each(PRIMARY_ROUTES)('window sync through %s', (_label, route) => {
  const source = `bccr-${route}`;

  it('stores exactly the fake’s quotes of every day, with catalog ids and types, and keeps the unknown institution', async () => {
    const { source: ventanilla } = fakeVentanilla(fake, route);
    const progress: Array<[number, number, readonly [string, string]]> = [];

    const summary = await syncBanking(deps(), ventanilla, SPAN, (done, total, chunk) => progress.push([done, total, chunk]));

    const perDay = 11; // twelve institutions, one of them without a sell quote (N/D)
    expect(summary).toEqual<BankingSummary>({
      status: 'succeeded',
      source,
      ...SPAN,
      inserted: perDay * SPAN_DAYS.length,
      updated: 0,
      rejected: [],
      missing: [],
      unknownInstitutions: [SYNTHETIC_UNKNOWN_INSTITUTION],
    });
    expect(progress).toEqual([[1, 1, [SPAN.from, SPAN.to]]]);
    for (const date of SPAN_DAYS) expect(fake.ventanillaFor(date)).toHaveLength(12);
    expect(await storedRows()).toEqual(expectedRows(SPAN_DAYS, route));

    const { institutions, rates } = await snapshotBanking(database.db);
    expect(institutions.map(({ id, name, type, known }) => ({ id, name, type, known }))).toEqual(expectedInstitutions());
    expect(rates.every((r) => r.fetched_at.getTime() === now.getTime())).toBe(true);

    expect(await lastRun()).toMatchObject({
      kind: 'banking',
      source,
      status: 'succeeded',
      spanFrom: SPAN.from,
      spanTo: SPAN.to,
      inserted: perDay * SPAN_DAYS.length,
      updated: 0,
      rejected: 0,
      missing: 0,
      error: null,
      finishedAt: expect.any(String),
    });

    // The token goes only to the token API; the site API gets its CSRF token and origin instead.
    const windowRequests = fake.requests.filter((r) => r.route === 'ventanillaSite' || r.route === 'ventanillaSdde');
    expect(new Set(windowRequests.map((r) => r.route))).toEqual(new Set([ROUTE_OF[route]]));
    expect(windowRequests).toHaveLength(route === 'site' ? SPAN_DAYS.length : 1);
    for (const r of windowRequests) expect(r.headers.authorization).toBe(route === 'sdde' ? `Bearer ${fake.token}` : undefined);
  });

  it('reads the last 7 days when no span is given', async () => {
    const { source: ventanilla } = fakeVentanilla(fake, route);
    const week = daysOf(addDays(TODAY, -6), TODAY);

    const summary = await syncBanking(deps(), ventanilla);

    expect(summary).toMatchObject({ status: 'succeeded', from: week[0], to: TODAY, inserted: 11 * 7, updated: 0, missing: [] });
    expect(await storedRows()).toEqual(expectedRows(week, route));
  });

  it('keeps an unknown institution whose name tells nothing, typed as the central bank’s catch-all group', async () => {
    const stranger: FakeInstitutionRow = { name: 'Inversiones Zeta S.A.', buy: 498.5, sell: 509.25, updatedAt: costaRicaInstant(TODAY, '10:10') };
    // First in the table, so no group heading stands above it on the site.
    fake.setVentanilla((date) => (date === TODAY ? [stranger, ...syntheticVentanilla(date)] : undefined));
    const { source: ventanilla } = fakeVentanilla(fake, route);

    const summary = await syncBanking(deps(), ventanilla, { from: TODAY, to: TODAY });

    expect(summary).toMatchObject({ status: 'succeeded', inserted: 12, rejected: [] });
    expect([...summary.unknownInstitutions].sort()).toEqual(['Casa de Cambio Ficticia S.A.', 'Inversiones Zeta S.A.']);
    const { institutions, rates } = await snapshotBanking(database.db);
    expect(institutions.find((i) => i.id === 'inversiones-zeta')).toMatchObject({ name: 'Inversiones Zeta S.A.', type: 'financial', known: false });
    expect(rates.find((r) => r.institution_id === 'inversiones-zeta')).toMatchObject({ date: TODAY, buy: 498.5, sell: 509.25 });
  });

  describe('a bad answer fails the run and not a single stored quote or institution changes', () => {
    it.each(FAULTS)('$name', async ({ fault, error, policy, attempts }) => {
      await seedQuotesTheFakeWouldChange();
      const before = await snapshotBanking(database.db);
      expect(before.rates).toHaveLength(12 * (SPAN_DAYS.length + 1));
      fake.setFault(ROUTE_OF[route], fault);
      const { source: ventanilla } = fakeVentanilla(fake, route, policy);

      const summary = await syncBanking(deps(), ventanilla, SPAN);

      expect(summary).toMatchObject({ status: 'failed', source, inserted: 0, updated: 0 });
      expect(summary.error).toMatch(error);
      expect(await snapshotBanking(database.db)).toEqual(before);
      expect(await lastRun()).toMatchObject({
        kind: 'banking',
        source,
        status: 'failed',
        spanFrom: SPAN.from,
        spanTo: SPAN.to,
        error: summary.error,
        finishedAt: expect.any(String),
        inserted: 0,
        updated: 0,
      });
      expect(fake.requests.filter((r) => r.route === ROUTE_OF[route])).toHaveLength(attempts[route]);
    });

    it('(control) the same seeded quotes are all changed by a good answer', async () => {
      await seedQuotesTheFakeWouldChange();
      const before = await snapshotBanking(database.db);
      const summary = await syncBanking(deps(), fakeVentanilla(fake, route).source, SPAN);
      expect(summary).toMatchObject({ status: 'succeeded', inserted: 0, updated: 11 * SPAN_DAYS.length });
      const after = await snapshotBanking(database.db);
      expect(after.institutions).not.toEqual(before.institutions);
      // The day before the span and the institution the fake no longer lists stay as they were.
      const untouched = (rows: StoredBankingRow[]) => rows.filter((r) => r.date < SPAN.from || r.institution_id === 'banco-bct');
      expect(untouched(after.rates)).toEqual(untouched(before.rates));
      expect(untouched(after.rates)).toHaveLength(12 + SPAN_DAYS.length);
    });
  });

  it('takes an empty answer as valid: nothing stored, every day listed as missing, the run succeeds', async () => {
    await seedQuotesTheFakeWouldChange();
    const before = await snapshotBanking(database.db);
    fake.setFault(ROUTE_OF[route], 'empty');

    const summary = await syncBanking(deps(), fakeVentanilla(fake, route).source, SPAN);

    expect(summary).toMatchObject({ status: 'succeeded', inserted: 0, updated: 0, rejected: [], missing: SPAN_DAYS, unknownInstitutions: [] });
    expect(await snapshotBanking(database.db)).toEqual(before);
    expect(await lastRun()).toMatchObject({ kind: 'banking', status: 'succeeded', inserted: 0, updated: 0, missing: SPAN_DAYS.length, error: null });
  });

  it('rejects every quote of an answer out of bounds, naming each institution, and changes nothing', async () => {
    await seedQuotesTheFakeWouldChange();
    const before = await snapshotBanking(database.db);
    fake.setFault(ROUTE_OF[route], 'outOfBounds');

    const summary = await syncBanking(deps(), fakeVentanilla(fake, route).source, SPAN);

    expect(summary).toMatchObject({ status: 'succeeded', inserted: 0, updated: 0, missing: SPAN_DAYS, unknownInstitutions: [] });
    // The fault prices all twelve (the N/D one included) at buy 99999, sell 5.
    const names = syntheticVentanilla(TODAY).map((r) => storedAs(r.name).name);
    expect([...summary.rejected].sort((a, b) => (a.date + a.reason < b.date + b.reason ? -1 : 1))).toEqual(
      SPAN_DAYS.flatMap((date) => names.map((name) => ({ date, reason: `${name}: buy 99999 is above sell 5` }))).sort((a, b) =>
        a.date + a.reason < b.date + b.reason ? -1 : 1,
      ),
    );
    expect(await snapshotBanking(database.db)).toEqual(before);
    expect(await lastRun()).toMatchObject({ kind: 'banking', status: 'succeeded', inserted: 0, updated: 0, rejected: 12 * SPAN_DAYS.length });
  });

  it('rejects only the quotes out of bounds, with reasons naming the institution, and stores the others', async () => {
    await seedQuotesTheFakeWouldChange();
    const day = SPAN_DAYS[2]!;
    const bad: Record<string, { buy: number; sell: number }> = {
      'Banco de Costa Rica': { buy: 5000, sell: 5010 },
      'Banco BAC San José S.A.': { buy: 520, sell: 510 },
      'Teledolar S.A.': { buy: 500, sell: 560 },
    };
    fake.setVentanilla((date) => (date === day ? syntheticVentanilla(date).map((r) => ({ ...r, ...bad[r.name] })) : undefined));
    const before = await snapshotBanking(database.db);

    const summary = await syncBanking(deps(), fakeVentanilla(fake, route).source, SPAN);

    expect(summary).toMatchObject({ status: 'succeeded', inserted: 0, updated: 11 * SPAN_DAYS.length - 3, missing: [] });
    expect(summary.rejected).toEqual([
      { date: day, reason: 'Banco de Costa Rica: buy 5000 is outside 100..2000 CRC' },
      { date: day, reason: 'Banco BAC San José: buy 520 is above sell 510' },
      { date: day, reason: 'Teledolar: spread 60.00 is not under 50 CRC' },
    ]);
    const rejectedIds = new Set(['banco-de-costa-rica', 'bac-san-jose', 'teledolar']);
    const isRejected = (r: { date: string; institution_id: string }) => r.date === day && rejectedIds.has(r.institution_id);
    const after = await snapshotBanking(database.db);
    // A rejected quote is never stored: the one already there stays.
    expect(after.rates.filter(isRejected)).toEqual(before.rates.filter(isRejected));
    expect(after.rates.filter(isRejected)).toHaveLength(3);
    const others = (await storedRows()).filter((r) => r.date >= SPAN.from && r.institution_id !== 'banco-bct' && !isRejected(r));
    expect(others).toEqual(expectedRows(SPAN_DAYS, route).filter((r) => !isRejected(r)));
    expect(await lastRun()).toMatchObject({ kind: 'banking', status: 'succeeded', rejected: 3 });
  });

  it('is idempotent: a second identical sync inserts 0 and updates 0 and changes nothing', async () => {
    const { source: ventanilla } = fakeVentanilla(fake, route);
    expect(await syncBanking(deps(), ventanilla, SPAN)).toMatchObject({ status: 'succeeded', inserted: 11 * SPAN_DAYS.length });
    const before = await snapshotBanking(database.db);
    now = new Date(now.getTime() + 30 * 60_000);

    const second = await syncBanking(deps(), ventanilla, SPAN);

    expect(second).toMatchObject({ status: 'succeeded', inserted: 0, updated: 0 });
    expect(await snapshotBanking(database.db)).toEqual(before);
    expect(await lastRun()).toMatchObject({ kind: 'banking', status: 'succeeded', inserted: 0, updated: 0 });
  });

  it('never overwrites earlier days from a later day’s sync, even when the upstream now says otherwise', async () => {
    const earlier = { from: SPAN.from, to: SPAN_DAYS[2]! };
    const later = { from: SPAN_DAYS[3]!, to: TODAY };
    const { source: ventanilla } = fakeVentanilla(fake, route);
    await syncBanking(deps(), ventanilla, earlier);
    const before = await snapshotBanking(database.db);
    const shifted = (date: string) => syntheticVentanilla(date).map((r) => ({ ...r, buy: r.buy! + 2, sell: r.sell === null ? null : r.sell + 2 }));
    fake.setVentanilla(shifted);

    const summary = await syncBanking(deps(), ventanilla, later);

    expect(summary).toMatchObject({ status: 'succeeded', inserted: 22, updated: 0 });
    const after = await snapshotBanking(database.db);
    expect(after.rates.filter((r) => r.date <= earlier.to)).toEqual(before.rates);
    expect(after.rates.filter((r) => r.date >= later.from).map(({ date, institution_id, buy, sell }) => ({ date, institution_id, buy, sell }))).toEqual(
      expectedRows(daysOf(later.from, later.to), route).map(({ date, institution_id, buy, sell }) => ({ date, institution_id, buy, sell })),
    );
  });

  it('updates the day’s row when an institution changes its quote during that day', async () => {
    const { source: ventanilla } = fakeVentanilla(fake, route);
    await syncBanking(deps(), ventanilla, SPAN);
    const before = await snapshotBanking(database.db);
    const revised = (date: string) =>
      date === TODAY
        ? syntheticVentanilla(date).map((r) =>
            r.name === 'Banco de Costa Rica' ? { ...r, buy: r.buy! + 0.5, sell: r.sell! + 0.75, updatedAt: costaRicaInstant(TODAY, '14:20') } : r,
          )
        : undefined;
    fake.setVentanilla(revised);
    now = new Date(now.getTime() + 2 * 3_600_000);

    const summary = await syncBanking(deps(), ventanilla, SPAN);

    expect(summary).toMatchObject({ status: 'succeeded', inserted: 0, updated: 1 });
    const after = await snapshotBanking(database.db);
    const isRevised = (r: StoredBankingRow) => r.date === TODAY && r.institution_id === 'banco-de-costa-rica';
    expect(after.rates.filter((r) => !isRevised(r))).toEqual(before.rates.filter((r) => !isRevised(r)));
    const bcr = revised(TODAY)!.find((r) => r.name === 'Banco de Costa Rica')!;
    expect(after.rates.find(isRevised)).toEqual({
      date: TODAY,
      institution_id: 'banco-de-costa-rica',
      buy: bcr.buy,
      sell: bcr.sell,
      // 14:20 in Costa Rica is 20:20 UTC; the token API gives no time at all.
      updated_at: route === 'site' ? new Date(`${TODAY}T20:20:00.000Z`) : null,
      source,
      fetched_at: now,
    });
  });
});

describe('window sync through the site API, update times and the banking endpoints', () => {
  it('reads dd/mm/yyyy hh:mm a.m. in Costa Rica time, and /banking/rates and /banking/best answer from what was stored', async () => {
    const yesterday = addDays(TODAY, -1);
    const summary = await syncBanking(deps(), fakeVentanilla(fake, 'site').source, SPAN);
    expect(summary.status).toBe('succeeded');
    // The official rate is stored for today only: yesterday's ranking has no vsOfficial.
    const official = fake.rateFor(TODAY)!;
    await createRatesStore(database.db).upsert([{ date: TODAY, buy: official.buy!, sell: official.sell!, source: 'BCCR', fetchedAt: now }]);

    // 08:30 a.m. is 14:30 UTC; 12:05 a.m. is five past midnight (06:05 UTC); Coopenae's 04:45 p.m. is of the day before.
    const updated = Object.fromEntries((await snapshotBanking(database.db)).rates.filter((r) => r.date === TODAY).map((r) => [r.institution_id, r.updated_at]));
    expect(updated['banco-de-costa-rica']).toEqual(new Date('2026-11-20T14:30:00.000Z'));
    expect(updated.teledolar).toEqual(new Date('2026-11-20T06:05:00.000Z'));
    expect(updated.coopenae).toEqual(new Date('2026-11-19T22:45:00.000Z'));
    const served = fake.requests.find((r) => r.route === 'ventanillaSite' && r.query.get('fechaAConsultar') === TODAY);
    expect(served).toBeDefined();

    const expectedInstitutionsOf = (date: string): Institution[] =>
      fake
        .ventanillaFor(date)
        .filter((r) => r.buy !== null && r.sell !== null)
        .map((r) => {
          const as = storedAs(r.name);
          return {
            id: as.id,
            name: as.name,
            type: as.type,
            buy: r.buy!,
            sell: r.sell!,
            spread: Math.round((r.sell! - r.buy!) * 1e4) / 1e4,
            updatedAt: new Date(r.updatedAt!).toISOString(),
            stale: as.id === 'coopenae',
          };
        });
    const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : 1);
    const collator = new Intl.Collator('es', { sensitivity: 'base' });

    const app = await startTestApp({ database, clock });
    try {
      const latest = await app.get('/banking/rates');
      expect(latest.status).toBe(200);
      const rates = latest.body.data as BankingRates;
      expect(rates.date).toBe(TODAY);
      expect([...rates.institutions].sort(byId)).toEqual(expectedInstitutionsOf(TODAY).sort(byId));
      const names = rates.institutions.map((i) => i.name);
      expect(names).toEqual([...names].sort(collator.compare));
      expect(rates.institutions.find((i) => i.id === 'casa-de-cambio-ficticia')).toMatchObject({ type: 'exchange_house', stale: false });
      expect(rates.institutions.find((i) => i.id === 'teledolar')?.updatedAt).toBe('2026-11-20T06:05:00.000Z');

      const earlier = await app.get(`/banking/rates?date=${yesterday}&type=cooperative`);
      expect(earlier.status).toBe(200);
      expect((earlier.body.data as BankingRates).institutions.map((i) => [i.id, i.updatedAt, i.stale])).toEqual([
        ['coopenae', '2026-11-18T22:45:00.000Z', true],
      ]);

      for (const operation of ['buy', 'sell'] as const) {
        const { status, body } = await app.get(`/banking/best?operation=${operation}`);
        expect(status).toBe(200);
        const best = body.data as BestRate;
        expect(best).toMatchObject({ operation, date: TODAY });
        const { ranking } = best;
        expect([...ranking].map(({ rank: _r, vsOfficial: _v, ...i }) => i).sort(byId)).toEqual(expectedInstitutionsOf(TODAY).sort(byId));
        // The stale institution comes last whatever its price; the fresh ones best price first, ties sharing a rank.
        expect(ranking.at(-1)).toMatchObject({ id: 'coopenae', stale: true });
        const fresh = ranking.slice(0, -1);
        expect(fresh.every((i) => !i.stale)).toBe(true);
        for (let i = 1; i < fresh.length; i++) {
          const [prev, cur] = [fresh[i - 1]!, fresh[i]!];
          expect(operation === 'buy' ? prev.buy >= cur.buy : prev.sell <= cur.sell).toBe(true);
          expect(cur.rank).toBe(prev[operation] === cur[operation] ? prev.rank : i + 1);
        }
        expect(ranking.at(-1)!.rank).toBe(ranking.length);
        const { rank: _rank, vsOfficial: _vs, ...first } = ranking[0]!;
        expect(best.best).toEqual(first);
        for (const i of ranking) expect(i.vsOfficial).toBeCloseTo(i[operation] - official[operation]!, 6);
      }

      const noOfficial = await app.get(`/banking/best?operation=sell&date=${yesterday}`);
      expect(noOfficial.status).toBe(200);
      const ranked = (noOfficial.body.data as BestRate).ranking;
      expect(ranked).toHaveLength(11);
      expect(ranked.every((i) => i.vsOfficial === null)).toBe(true);
    } finally {
      await app.close();
    }
  });
});

describe('window sync and an app already running', () => {
  it('answers from the new quotes after each sync: the sync announces the change to the app’s cache', async () => {
    const app = await startTestApp({ database, clock });
    try {
      expect((await app.get('/banking/rates')).status).toBe(404);
      const d = syncDeps(database.db, clock, app.changes);
      const { source: ventanilla } = fakeVentanilla(fake, 'site');
      const bcrOf = (body: { data?: unknown }) => (body.data as BankingRates).institutions.find((i) => i.id === 'banco-de-costa-rica');
      const served = fake.ventanillaFor(TODAY).find((r) => r.name === 'Banco de Costa Rica')!;

      expect(await syncBanking(d, ventanilla, { from: TODAY, to: TODAY })).toMatchObject({ status: 'succeeded', inserted: 11 });
      const first = await app.get('/banking/rates?type=public_bank');
      expect(first.status).toBe(200);
      expect(bcrOf(first.body)).toMatchObject({ buy: served.buy, sell: served.sell });
      // Answered again from the cache, then the quote changes during the day.
      expect((await app.get('/banking/rates?type=public_bank')).headers.get('etag')).toBe(first.headers.get('etag'));
      fake.setVentanilla((date) =>
        date === TODAY
          ? syntheticVentanilla(date).map((r) => (r.name === 'Banco de Costa Rica' ? { ...r, buy: r.buy! + 0.5, sell: r.sell! + 0.5 } : r))
          : undefined,
      );

      expect(await syncBanking(d, ventanilla, { from: TODAY, to: TODAY })).toMatchObject({ status: 'succeeded', inserted: 0, updated: 1 });
      const second = await app.get('/banking/rates?type=public_bank');
      expect(second.status).toBe(200);
      expect(bcrOf(second.body)).toMatchObject({ buy: served.buy! + 0.5, sell: served.sell! + 0.5 });
    } finally {
      await app.close();
    }
  });
});

describe('window sync edge cases', () => {
  it('stores nothing when a later day of the span fails after earlier days were fetched fine (site API)', async () => {
    await seedQuotesTheFakeWouldChange();
    const before = await snapshotBanking(database.db);
    // Serving the second day switches the fault on for the next request: the third day.
    fake.setVentanilla((date) => {
      if (date === SPAN_DAYS[1]) fake.setFault('ventanillaSite', 'truncated');
      return undefined;
    });

    const summary = await syncBanking(deps(), fakeVentanilla(fake, 'site').source, SPAN);

    expect(fake.requests.filter((r) => r.route === 'ventanillaSite').map((r) => r.query.get('fechaAConsultar'))).toEqual(SPAN_DAYS.slice(0, 3));
    expect(summary).toMatchObject({ status: 'failed', inserted: 0, updated: 0 });
    expect(summary.error).toMatch(/truncated/);
    expect(await snapshotBanking(database.db)).toEqual(before);
  });

  it('lets one of two syncs started together run; the other is skipped without waiting', async () => {
    fake.setFault('ventanillaSdde', { kind: 'hang', times: 1 });
    const settled: string[] = [];
    const start = async (name: string) => {
      const summary = await syncBanking(deps(), fakeVentanilla(fake, 'sdde', { timeoutMs: 300, retries: 1 }).source, SPAN);
      settled.push(name);
      return { name, summary };
    };

    const both = await Promise.all([start('first'), start('second')]);

    const winner = both.find((b) => b.summary.status === 'succeeded');
    const loser = both.find((b) => b.summary.status === 'skipped');
    expect(loser?.summary).toMatchObject({ status: 'skipped', inserted: 0, updated: 0 });
    expect(winner?.summary).toMatchObject({ status: 'succeeded', inserted: 11 * SPAN_DAYS.length });
    expect(settled).toEqual([loser!.name, winner!.name]);
    expect(await createSyncRunsStore(database.db).recent()).toHaveLength(1);
  });
});

describe('the scheduler', () => {
  let scheduler: Scheduler | null = null;
  afterEach(async () => {
    await scheduler?.stop();
    scheduler = null;
  });

  it('runs the window sync as an extra job of each tick, and stop() ends it', async () => {
    // One official day stored, so that the official catch-up of the tick covers days, not decades.
    const seeded = addDays(TODAY, -10);
    const r = fake.rateFor(seeded)!;
    await createRatesStore(database.db).upsert([{ date: seeded, buy: r.buy!, sell: r.sell!, source: 'BCCR', fetchedAt: now }]);
    const { sources } = fakeSources(fake, 'sdde');
    const { source: ventanilla } = fakeVentanilla(fake, 'site');
    const d = deps();
    const week = daysOf(addDays(TODAY, -6), TODAY);

    const s = startScheduler(d, sources, { cron: null, extraJobs: [() => syncBanking(d, ventanilla)] });
    scheduler = s;

    const count = async () => Number((await database.db('banking_rates').count<Array<{ n: number | string }>>({ n: '*' }))[0]!.n);
    await waitFor(async () => ((await count()) === 11 * week.length ? true : undefined), 'the window quotes of the week');
    await waitFor(async () => (s.current === null ? true : undefined), 'the tick to end');

    expect(await storedRows()).toEqual(expectedRows(week, 'site'));
    const runs = (await createSyncRunsStore(database.db).recent(10)).reverse();
    expect(runs.map((run) => [run.kind, run.source, run.status])).toEqual([
      ['official', 'bccr-sdde', 'succeeded'],
      ['banking', 'bccr-site', 'succeeded'],
    ]);

    await s.stop();
    const requests = fake.requests.length;
    await s.runNow();
    expect(s.current).toBeNull();
    expect(fake.requests).toHaveLength(requests);
    expect(await createSyncRunsStore(database.db).recent(10)).toHaveLength(2);
  });
});
