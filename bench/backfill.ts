/**
 * Time of a full backfill (1983 → today) from a local fake of the central bank, on a fresh
 * database: with the observation log, as production syncs, and without it
 * (`SyncDeps.skipObservationLog`), alternately, so that the machine's passing noise falls on both.
 * With its CPU time, which a shared machine's other work moves much less than the wall time.
 */
import pino from 'pino';
import { createLocalChangeFeed } from '../server/changes';
import { catchUpOfficial } from '../server/jobs/catch-up';
import { createOfficialSources } from '../server/sources';
import type { Database } from '../server/store/database';
import { createRatesStore } from '../server/store/rates';
import { startFakeUpstream } from '../server/demo/bccr-upstream';
import { cpuMicros } from './processes';
import { median } from './report';

/**
 * Backfills with and without the log, in turns (with, without, with, …), after one unmeasured
 * backfill that compiles the code they run (else the first one, with the log, would pay for it).
 * Three each, so each median is one of them and a single disturbed one is left out.
 */
export const BACKFILL_PAIRS = 3;

export interface Timing {
  /** Median, ms. */
  ms: number;
  /** Each backfill, in the order run, ms. */
  samples: number[];
  /**
   * CPU time, median and each, ms: this process's (the sync, the fake upstream and, embedded, the
   * database) plus, on PostgreSQL, the backends serving the database.
   */
  cpuMs: number;
  cpuSamples: number[];
}

export interface Backfill {
  days: number;
  /** Sync runs per backfill (a year each). */
  runs: number;
  withLog: Timing;
  withoutLog: Timing;
  /** withLog.ms / withoutLog.ms: what the observation log adds to a backfill. */
  ratio: number;
  /** withLog.cpuMs / withoutLog.cpuMs. */
  cpuRatio: number;
}

/** A fresh, migrated database, a way to drop it, and on PostgreSQL the processes serving it. */
type Open = () => Promise<{ db: Database; drop(): Promise<void>; backendPids?(): Promise<number[]> }>;

interface Once {
  days: number;
  ms: number;
  cpuMs: number;
  runs: number;
}

/** CPU time so far (µs) of this process and of each process `backendPids` lists. */
async function cpuByProcess(backendPids?: () => Promise<number[]>): Promise<Map<string, number>> {
  const own = process.cpuUsage();
  const readings = new Map([['self', own.user + own.system]]);
  for (const pid of (await backendPids?.()) ?? []) readings.set(String(pid), cpuMicros(pid));
  return readings;
}

/** CPU µs spent between two readings; a backend that started in between counts from zero. */
const cpuSpent = (before: Map<string, number>, after: Map<string, number>) => [...after].reduce((sum, [id, micros]) => sum + micros - (before.get(id) ?? 0), 0);

/** One backfill into a fresh database from `open`, checked afterwards: every day stored, and logged only when it should be. */
async function backfillOnce(open: Open, skipObservationLog: boolean): Promise<Once> {
  const fake = await startFakeUpstream();
  const database = await open();
  try {
    // The token API answers a year per request, as the real one does.
    const sources = createOfficialSources({ bccrToken: fake.token, bccrApiUrl: fake.sddeUrl, bccrSiteApiUrl: fake.siteUrl, haciendaUrl: fake.haciendaUrl });
    const deps = { db: database.db, logger: pino({ level: 'silent' }), changes: createLocalChangeFeed(), clock: () => new Date(), skipObservationLog };
    const cpuBefore = await cpuByProcess(database.backendPids);
    const started = process.hrtime.bigint();
    const result = await catchUpOfficial(deps, sources);
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    const cpuMs = cpuSpent(cpuBefore, await cpuByProcess(database.backendPids)) / 1000;
    if (!result.ok) throw new Error(`backfill failed: ${result.runs.map((r) => r.error).join('; ')}`);
    const days = (await createRatesStore(database.db).range('1983-01-01', '2100-01-01')).length;
    const row = await database.db('rate_observations').count<{ count: string | number }>('* as count').first();
    const observations = Number(row?.count ?? 0);
    // A timing of the wrong thing would still look like one: check what each backfill wrote. With
    // the log, every stored day was read at least once (today twice if the fallback had to step in).
    if (skipObservationLog ? observations !== 0 : observations < days) {
      throw new Error(`backfill ${skipObservationLog ? 'without' : 'with'} the log wrote ${observations} observations for ${days} days`);
    }
    return { days, ms, cpuMs, runs: result.runs.length };
  } finally {
    await database.drop();
    await fake.close();
  }
}

const timing = (backfills: readonly Once[]): Timing => ({
  ms: Math.round(median(backfills.map((once) => once.ms))),
  samples: backfills.map((once) => Math.round(once.ms)),
  cpuMs: Math.round(median(backfills.map((once) => once.cpuMs))),
  cpuSamples: backfills.map((once) => Math.round(once.cpuMs)),
});
const ratioOf = (pick: (once: Once) => number, withLog: readonly Once[], withoutLog: readonly Once[]) =>
  Math.round((median(withLog.map(pick)) / median(withoutLog.map(pick))) * 100) / 100;

/** `open` gives a fresh, migrated database and a way to drop it. */
export async function benchBackfill(open: Open, onEach?: (line: string) => void): Promise<Backfill> {
  const withLog: Once[] = [];
  const withoutLog: Once[] = [];
  await backfillOnce(open, false);
  for (let pair = 0; pair < BACKFILL_PAIRS; pair++) {
    for (const skip of [false, true]) {
      const once = await backfillOnce(open, skip);
      (skip ? withoutLog : withLog).push(once);
      onEach?.(`${skip ? 'without' : 'with'} the log: ${(once.ms / 1000).toFixed(2)} s, CPU ${(once.cpuMs / 1000).toFixed(2)} s`);
    }
  }
  const all = [...withLog, ...withoutLog];
  const first = all[0] as Once;
  if (all.some((once) => once.days !== first.days || once.runs !== first.runs)) throw new Error('the backfills did not all store the same history');
  return {
    days: first.days,
    runs: first.runs,
    withLog: timing(withLog),
    withoutLog: timing(withoutLog),
    ratio: ratioOf((once) => once.ms, withLog, withoutLog),
    cpuRatio: ratioOf((once) => once.cpuMs, withLog, withoutLog),
  };
}
