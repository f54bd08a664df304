/**
 * One sync run of the official series over a span: fetch every chunk, check every row, then
 * write them all, with the log of what was read (observations), in one transaction. Any upstream
 * failure fails the run before anything is written, so a bad answer never leaves the stored
 * series half-changed.
 */
import { addDays, calendarDay } from '../../shared/dates';
import type { ChangeFeed } from '../changes';
import type { Logger } from '../logger';
import type { OfficialSource, SourceRate } from '../sources/types';
import { chunkRange } from '../sources/chunks';
import { checkRate } from '../sources/sanity';
import type { Database } from '../store/database';
import { createProvenanceStore } from '../store/provenance';
import { createRatesStore, type RateInput } from '../store/rates';
import { createSyncRunsStore } from '../store/sync-runs';

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

export interface Rejection {
  date: string;
  reason: string;
}

export interface SyncSummary {
  status: 'succeeded' | 'failed';
  source: string;
  from: string;
  to: string;
  inserted: number;
  updated: number;
  rejected: Rejection[];
  /** Past days of the span for which the source had no complete value. */
  missing: string[];
  error?: string;
}

export type Progress = (done: number, total: number, chunk: readonly [string, string]) => void;

interface Checked {
  rows: RateInput[];
  rejected: Rejection[];
  missing: string[];
}

/** Splits what a source answered into rows to store, rows refused by the sanity bounds, and gaps (days with no complete value). */
export function checkRows(
  answer: readonly SourceRate[],
  span: { from: string; to: string },
  today: string,
  provider: RateInput['source'],
  fetchedAt: Date,
): Checked {
  const rows: RateInput[] = [];
  const rejected: Rejection[] = [];
  const seen = new Set<string>();
  for (const r of answer) {
    if (r.date < span.from || r.date > span.to) continue;
    if (r.buy === null || r.sell === null) continue;
    const reason = checkRate({ date: r.date, buy: r.buy, sell: r.sell }, today);
    seen.add(r.date);
    if (reason) {
      rejected.push({ date: r.date, reason });
      continue;
    }
    rows.push({ date: r.date, buy: r.buy, sell: r.sell, source: provider, fetchedAt });
  }
  // Tomorrow's value appears in the afternoon: its absence before then is not a gap.
  const missing: string[] = [];
  const lastPast = span.to < today ? span.to : today;
  for (let d = span.from; d <= lastPast; d = addDays(d, 1)) {
    if (!seen.has(d)) missing.push(d);
  }
  return { rows, rejected, missing };
}

export async function syncOfficialSpan(
  deps: SyncDeps,
  source: OfficialSource,
  span: { from: string; to: string },
  onProgress?: Progress,
): Promise<SyncSummary> {
  const { db, logger } = deps;
  const runs = createSyncRunsStore(db);
  const rates = createRatesStore(db);
  const provenance = createProvenanceStore(db);
  const started = deps.clock();
  const today = calendarDay(started);
  const runId = await runs.start({ kind: 'official', source: source.name, spanFrom: span.from, spanTo: span.to, startedAt: started });
  const summary: SyncSummary = { status: 'failed', source: source.name, ...span, inserted: 0, updated: 0, rejected: [], missing: [] };

  try {
    const chunks = chunkRange(span.from, span.to, source.maxChunkDays);
    const answer: SourceRate[] = [];
    for (const [i, chunk] of chunks.entries()) {
      answer.push(...(await source.fetchRange(chunk[0], chunk[1], deps.signal)));
      onProgress?.(i + 1, chunks.length, chunk);
    }
    const fetchedAt = deps.clock();
    const checked = checkRows(answer, span, today, source.provider, fetchedAt);
    for (const r of checked.rejected) logger.warn({ source: source.name, ...r }, 'rejected an upstream row');

    await db.transaction(async (trx) => {
      const before = new Map((await createRatesStore(trx).range(span.from, span.to)).map((r) => [r.date, r]));
      const counts = await rates.upsert(checked.rows, trx);
      // In the same transaction: the log says what was read exactly when the rates say it.
      if (!deps.skipObservationLog) {
        await provenance.observe({ route: source.name, source: source.provider, upstream: source.upstream, observedAt: fetchedAt, rates: checked.rows }, trx);
      }
      for (const row of checked.rows) {
        const old = before.get(row.date);
        if (old && old.source === row.source && (old.buy !== row.buy || old.sell !== row.sell)) {
          logger.info({ date: row.date, from: { buy: old.buy, sell: old.sell }, to: { buy: row.buy, sell: row.sell } }, 'corrected a stored rate');
        }
      }
      Object.assign(summary, counts, { status: 'succeeded', rejected: checked.rejected, missing: checked.missing });
      await runs.finish(
        runId,
        { status: 'succeeded', counts: { ...counts, rejected: checked.rejected.length, missing: checked.missing.length }, finishedAt: deps.clock() },
        trx,
      );
    });
    if (summary.inserted + summary.updated > 0) await deps.changes.ratesChanged();
    // Values read again change no rate, but they move lastConfirmedAt and the observation count.
    if (checked.rows.length > 0) await deps.changes.observationsChanged();
    logger.info(
      {
        source: source.name,
        ...span,
        inserted: summary.inserted,
        updated: summary.updated,
        rejected: summary.rejected.length,
        missing: summary.missing.length,
      },
      'sync run stored',
    );
  } catch (error) {
    summary.status = 'failed';
    summary.error = error instanceof Error ? error.message : String(error);
    // A shutdown cutting a run short is expected, not a fault to alert on.
    if (deps.signal?.aborted) logger.warn({ source: source.name, ...span }, 'sync run stopped by a shutdown; stored data left as it was');
    // Debug only, stack and all: the scheduler logs each failed attempt in one line, and
    // `npm run sync` prints the error in its summary (the CLI's exit reasons).
    else logger.debug({ source: source.name, ...span, err: error }, 'sync run failed; stored data left as it was');
    await runs.finish(runId, {
      status: 'failed',
      counts: { inserted: 0, updated: 0, rejected: 0, missing: 0 },
      error: summary.error,
      finishedAt: deps.clock(),
    });
  }
  return summary;
}
