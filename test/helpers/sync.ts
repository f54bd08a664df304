/**
 * Shared pieces of the ingestion tests: sources pointed at the fake upstream with a fast policy,
 * sync dependencies on a pinned clock, whole-table snapshots, and a bounded wait.
 */
import pino from 'pino';
import { addDays } from '../../shared/dates';
import { createLocalChangeFeed, type ChangeFeed } from '../../server/changes';
import type { OfficialSources } from '../../server/sources/types';
import type { SyncDeps } from '../../server/jobs/sync-run';
import { createCrossSource, createOfficialSources, type CrossSource } from '../../server/sources';
import type { RequestPolicy } from '../../server/sources/http';
import { createVentanillaSource, type VentanillaSource } from '../../server/sources/ventanilla';
import { createApiKeysStore } from '../../server/store/api-keys';
import type { Database } from '../../server/store/database';
import type { FakeUpstream } from '../../server/demo/bccr-upstream';

/** Which route of the central bank plays the primary: the public site API (no token) or the SDDE token API. */
export type PrimaryRoute = 'site' | 'sdde';
export const PRIMARY_ROUTES: ReadonlyArray<[string, PrimaryRoute]> = [
  ['the site API (no token)', 'site'],
  ['the SDDE token API', 'sdde'],
];

export const silentLogger = pino({ level: 'silent' });

/** 12:00 in Costa Rica (UTC−6) on `day`: well inside that calendar day in every zone that matters. */
export function noonInCostaRica(day: string): Date {
  return new Date(`${day}T18:00:00.000Z`);
}

/**
 * The adapters `createOfficialSources` makes from configuration, aimed at the fake. Waits between
 * retries are recorded instead of slept (the policy's `sleep` is the injection point for that), so
 * retry counts and Retry-After handling are observable without slowing the suite; timeouts are real.
 */
export function fakeSources(fake: FakeUpstream, primary: PrimaryRoute, policy: RequestPolicy = {}): { sources: OfficialSources; delays: number[] } {
  const delays: number[] = [];
  const sources = createOfficialSources({
    bccrToken: primary === 'sdde' ? fake.token : undefined,
    bccrApiUrl: fake.sddeUrl,
    bccrSiteApiUrl: fake.siteUrl,
    haciendaUrl: fake.haciendaUrl,
    timeoutMs: 5000,
    retries: 2,
    baseDelayMs: 10,
    maxDelayMs: 1000,
    sleep: async (ms) => void delays.push(ms),
    random: () => 0.5,
    ...policy,
  });
  return { sources, delays };
}

/** The cross rates' source `createCrossSource` makes with the fake's token, waits recorded as in `fakeSources`. */
export function fakeCrossSource(fake: FakeUpstream, policy: RequestPolicy = {}): { source: CrossSource; delays: number[] } {
  const delays: number[] = [];
  const source = createCrossSource({
    bccrToken: fake.token,
    bccrApiUrl: fake.sddeUrl,
    timeoutMs: 5000,
    retries: 2,
    baseDelayMs: 10,
    maxDelayMs: 10_000,
    sleep: async (ms) => void delays.push(ms),
    random: () => 0.5,
    ...policy,
  });
  if (!source) throw new Error('a token gives a cross source');
  return { source, delays };
}

export function syncDeps(db: Database, clock: () => Date, changes: ChangeFeed = createLocalChangeFeed()): SyncDeps {
  return { db, logger: silentLogger, changes, clock };
}

/** Every calendar day of `from..to`, inclusive. */
export function daysOf(from: string, to: string): string[] {
  const days: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) days.push(d);
  return days;
}

export interface StoredRow {
  date: string;
  buy: number;
  sell: number;
  source: string;
  fetched_at: Date;
  updated_at: Date;
}

/** The whole exchange_rates table, every column, in date order. */
export function snapshotRates(db: Database): Promise<StoredRow[]> {
  return db<StoredRow>('exchange_rates').select('*').orderBy('date');
}

/** What the fake serves for each day of `days`, in the shape of a stored row's values. */
export function fakeValues(fake: FakeUpstream, days: readonly string[]): Array<{ date: string; buy: number | null; sell: number | null }> {
  return days.map((date) => ({ date, buy: fake.rateFor(date)?.buy ?? null, sell: fake.rateFor(date)?.sell ?? null }));
}

export async function clearTables(db: Database): Promise<void> {
  await db('exchange_rates').delete();
  await db('sync_runs').delete();
  // The provenance log outlives deleted rates on purpose; a test starting over clears it too.
  await db('rate_observations').delete();
  await db('rate_revisions').delete();
  await db('cross_rates').delete();
  await db('cross_observations').delete();
  await db('cross_revisions').delete();
  await db('monex_sessions').delete();
  await db('monex_observations').delete();
  await db('monex_revisions').delete();
}

/** A key with limits high enough that polling loops never meet the rate limit or the quota. */
export async function createTestKey(db: Database): Promise<{ 'x-api-key': string }> {
  const { key } = await createApiKeysStore(db).create({ name: 'ingestion tests', plan: 'custom', monthlyQuota: 1_000_000, ratePerMinute: 100_000 });
  return { 'x-api-key': key };
}

/**
 * Polls `probe` until it returns something other than undefined, for at most `timeoutMs`. The
 * assertion is on what it returns, never on how long it took.
 */
export async function waitFor<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 10_000, intervalMs = 20): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/**
 * The window (ventanilla) source `createVentanillaSource` makes from configuration, aimed at the
 * fake with the same fast policy as `fakeSources`: retry waits recorded, not slept.
 */
export function fakeVentanilla(fake: FakeUpstream, route: PrimaryRoute, policy: RequestPolicy = {}): { source: VentanillaSource; delays: number[] } {
  const delays: number[] = [];
  const source = createVentanillaSource({
    bccrToken: route === 'sdde' ? fake.token : undefined,
    bccrApiUrl: fake.sddeUrl,
    bccrSiteApiUrl: fake.siteUrl,
    timeoutMs: 5000,
    retries: 2,
    baseDelayMs: 10,
    maxDelayMs: 1000,
    sleep: async (ms) => void delays.push(ms),
    random: () => 0.5,
    ...policy,
  });
  return { source, delays };
}

export interface StoredBankingRow {
  date: string;
  institution_id: string;
  buy: number;
  sell: number;
  updated_at: Date | null;
  source: string;
  fetched_at: Date;
}

export interface StoredInstitution {
  id: string;
  name: string;
  type: string;
  known: boolean;
  first_seen_at: Date;
}

const byKey =
  <T>(key: (row: T) => string) =>
  (a: T, b: T) =>
    key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;

/** The whole banking_rates and institutions tables, every column, in a fixed order (sorted here, not by the server's collation). */
export async function snapshotBanking(db: Database): Promise<{ rates: StoredBankingRow[]; institutions: StoredInstitution[] }> {
  const rates = await db<StoredBankingRow>('banking_rates').select('*');
  const institutions = await db<StoredInstitution>('institutions').select('*');
  return {
    rates: rates.sort(byKey((r) => `${r.date} ${r.institution_id}`)),
    institutions: institutions.sort(byKey((i) => i.id)),
  };
}

export async function clearBankingTables(db: Database): Promise<void> {
  await db('banking_rates').delete();
  await db('institutions').delete();
}
