/**
 * The one way every sync runs over a span of days, whatever it reads: record the run's start,
 * fetch the span in the chunks the upstream accepts (reporting progress), check what came back,
 * then store it and record the run's end in one transaction, and announce the change once it is
 * committed. Any failure, upstream or database, fails the run before anything is kept, so a bad
 * answer never leaves stored data half-changed. Each kind of sync only says how to fetch, check,
 * store and announce (`SyncDefinition`).
 */
import type { Knex } from 'knex';
import { calendarDay, missingDays } from '../../shared/dates';
import type { ChangeFeed } from '../changes';
import type { Logger } from '../logger';
import { chunkRange } from '../sources/chunks';
import type { Database } from '../store/database';
import { createSyncRunsStore, type SyncKind } from '../store/sync-runs';
import { oneLine } from './sync-status';

export interface SyncDeps {
  db: Database;
  logger: Logger;
  changes: ChangeFeed;
  clock: () => Date;
  /** Aborts the upstream requests of a run (the server is stopping): the run fails and stores nothing. */
  signal?: AbortSignal;
  /**
   * True stores the rates without writing their observations. It exists for the measurement of
   * what the log costs a backfill (bench/backfill.ts); left unset, the log is written.
   */
  skipObservationLog?: boolean;
}

export interface Span {
  from: string;
  to: string;
}

export interface Rejection {
  date: string;
  reason: string;
}

export type Progress = (done: number, total: number, chunk: readonly [string, string]) => void;

export interface StoredCounts {
  inserted: number;
  updated: number;
}

/** What a kind's check makes of an answer, besides what it keeps to store. */
export interface Checked {
  rejected: Rejection[];
  /** The days that have a value, refused ones included: every other past day of the span is a gap. */
  present: ReadonlySet<string>;
}

export interface SyncSummary extends StoredCounts {
  status: 'succeeded' | 'failed';
  source: string;
  from: string;
  to: string;
  rejected: Rejection[];
  /** Past days of the span for which the source had no complete value. */
  missing: string[];
  error?: string;
}

/** One kind of sync: where its rows come from, how they are checked and stored, and who hears of a change. */
export interface SyncDefinition<Row, Checks extends Checked> {
  /** The `kind` of its runs in the record of sync runs. */
  kind: SyncKind;
  /** The upstream's name, for the record and the logs. */
  source: string;
  /** How its log lines name a run (`sync run`, `window sync`). */
  label: string;
  /**
   * Whether a failed run warns in one line of its own. The official sync's callers already report
   * each failure in one line (the scheduler's attempt line, the CLI's summary), so its runs keep
   * their failure to debug; nothing else reports a failed run of the window quotes.
   */
  warnsOnFailure: boolean;
  /** The longest span (in calendar days) one `fetchChunk` call accepts. */
  maxChunkDays: number;
  fetchChunk(from: string, to: string, signal?: AbortSignal): Promise<readonly Row[]>;
  /** Pure: splits the whole answer into what to store and what to refuse. */
  check(answer: readonly Row[], context: { span: Span; today: string; fetchedAt: Date }): Checks;
  /** Logs what the check found worth an operator's eye (refused rows), before anything is stored. */
  report(checks: Checks): void;
  /** Writes the checked rows in the run's transaction. */
  store(checks: Checks, trx: Knex.Transaction, fetchedAt: Date): Promise<StoredCounts>;
  /** After the commit: what else to tell and log (that the rates changed is told for every kind). */
  announce?(checks: Checks, summary: SyncSummary): Promise<void>;
}

export interface SyncRunOutcome<Checks> {
  summary: SyncSummary;
  /** What the check made of the answer; null when the run failed. */
  checks: Checks | null;
}

const NOTHING_STORED = { inserted: 0, updated: 0, rejected: 0, missing: 0 };

export async function runSync<Row, Checks extends Checked>(
  deps: SyncDeps,
  sync: SyncDefinition<Row, Checks>,
  span: Span,
  onProgress?: Progress,
): Promise<SyncRunOutcome<Checks>> {
  const { db, logger } = deps;
  const runs = createSyncRunsStore(db);
  const started = deps.clock();
  const today = calendarDay(started);
  const runId = await runs.start({ kind: sync.kind, source: sync.source, spanFrom: span.from, spanTo: span.to, startedAt: started });

  try {
    const chunks = chunkRange(span.from, span.to, sync.maxChunkDays);
    const answer: Row[] = [];
    for (const [i, chunk] of chunks.entries()) {
      answer.push(...(await sync.fetchChunk(chunk[0], chunk[1], deps.signal)));
      onProgress?.(i + 1, chunks.length, chunk);
    }
    const fetchedAt = deps.clock();
    const checks = sync.check(answer, { span, today, fetchedAt });
    sync.report(checks);
    // Tomorrow's value appears in the afternoon: its absence before then is not a gap.
    const missing = missingDays(span.from, span.to < today ? span.to : today, checks.present);

    const counts = await db.transaction(async (trx) => {
      const stored = await sync.store(checks, trx, fetchedAt);
      await runs.finish(
        runId,
        { status: 'succeeded', counts: { ...stored, rejected: checks.rejected.length, missing: missing.length }, finishedAt: deps.clock() },
        trx,
      );
      return stored;
    });
    const summary: SyncSummary = { status: 'succeeded', source: sync.source, ...span, ...counts, rejected: checks.rejected, missing };
    if (counts.inserted + counts.updated > 0) await deps.changes.ratesChanged();
    await sync.announce?.(checks, summary);
    return { summary, checks };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // A shutdown cutting a run short is expected, not a fault to alert on.
    if (deps.signal?.aborted) logger.warn({ source: sync.source, ...span }, `${sync.label} stopped by a shutdown; stored data left as it was`);
    else if (sync.warnsOnFailure) {
      // One line at warn (the message says what failed); the stack only at debug.
      logger.warn({ source: sync.source, ...span, error: oneLine(message) }, `${sync.label} failed; stored data left as it was`);
      logger.debug({ source: sync.source, ...span, err: error }, `${sync.label} failed: details`);
    } else logger.debug({ source: sync.source, ...span, err: error }, `${sync.label} failed; stored data left as it was`);
    await runs.finish(runId, { status: 'failed', counts: NOTHING_STORED, error: message, finishedAt: deps.clock() });
    const summary: SyncSummary = { status: 'failed', source: sync.source, ...span, inserted: 0, updated: 0, rejected: [], missing: [], error: message };
    return { summary, checks: null };
  }
}
