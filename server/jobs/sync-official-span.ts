/**
 * One sync run of the official series over a span, from one source: every row is checked against
 * the sanity bounds, then the rates and the log of what was read (observations) are written
 * together. The run itself (chunks, transaction, record, failure) is the common one of `runSync`.
 */
import type { OfficialSource, SourceRate } from '../sources/types';
import { addDays, calendarDay } from '../../shared/dates';
import { checkRate } from '../sources/sanity';
import { createProvenanceStore } from '../store/provenance';
import { createRatesStore, type RateInput } from '../store/rates';
import { enqueueRateEvents, lastRevisionId } from '../store/webhook-events';
import { type Checked, type Progress, type Rejection, runSync, type Span, type SyncDeps, type SyncSummary } from './sync-run';

interface CheckedRates extends Checked {
  rows: RateInput[];
}

/** Splits what a source answered into rows to store and rows refused by the sanity bounds; days with no complete value are absent from `present`. */
export function checkRows(answer: readonly SourceRate[], span: Span, today: string, provider: RateInput['source'], fetchedAt: Date): CheckedRates {
  const rows: RateInput[] = [];
  const rejected: Rejection[] = [];
  const present = new Set<string>();
  for (const r of answer) {
    if (r.date < span.from || r.date > span.to) continue;
    if (r.buy === null || r.sell === null) continue;
    const reason = checkRate({ date: r.date, buy: r.buy, sell: r.sell }, today);
    present.add(r.date);
    if (reason) {
      rejected.push({ date: r.date, reason });
      continue;
    }
    rows.push({ date: r.date, buy: r.buy, sell: r.sell, source: provider, fetchedAt });
  }
  return { rows, rejected, present };
}

/** How far back a newly stored day is still news (a catch-up after a few days' outage is). */
export const NEWS_DAYS = 7;

/**
 * The days a write adds after the greatest day stored before it, and no more than NEWS_DAYS
 * before the day of the write: what `rate.published` tells. A backfill of older days (the first
 * start's 40 years, run in chunks from the oldest) is history, not news.
 */
export function newDays(rows: readonly { date: string }[], before: ReadonlyMap<string, unknown>, lastDate: string | null, writtenAt: Date): string[] {
  const since = addDays(calendarDay(writtenAt), -NEWS_DAYS);
  return rows.map((r) => r.date).filter((date) => !before.has(date) && date >= since && (lastDate === null || date > lastDate));
}

export async function syncOfficialSpan(deps: SyncDeps, source: OfficialSource, span: Span, onProgress?: Progress): Promise<SyncSummary> {
  const { logger } = deps;
  const outcome = await runSync<SourceRate, CheckedRates>(
    deps,
    {
      kind: 'official',
      source: source.name,
      label: 'sync run',
      warnsOnFailure: false,
      maxChunkDays: source.maxChunkDays,
      fetchChunk: (from, to, signal) => source.fetchRange(from, to, signal),
      check: (answer, { today, fetchedAt }) => checkRows(answer, span, today, source.provider, fetchedAt),
      report(checked) {
        for (const r of checked.rejected) logger.warn({ source: source.name, ...r }, 'rejected an upstream row');
      },
      async store(checked, trx, fetchedAt) {
        const rates = createRatesStore(trx);
        const before = new Map((await rates.range(span.from, span.to)).map((r) => [r.date, r]));
        const [lastDate, revisionsAfter] = await Promise.all([rates.lastStoredDate(), lastRevisionId(trx)]);
        const counts = await rates.upsert(checked.rows);
        // In the same transaction: the webhooks' outbox says what changed exactly when the rates do.
        await enqueueRateEvents(trx, { newDates: newDays(checked.rows, before, lastDate, fetchedAt), revisionsAfter }, fetchedAt);
        // In the same transaction: the log says what was read exactly when the rates say it.
        if (!deps.skipObservationLog) {
          await createProvenanceStore(trx).observe({
            route: source.name,
            source: source.provider,
            upstream: source.upstream,
            observedAt: fetchedAt,
            rates: checked.rows,
          });
        }
        for (const row of checked.rows) {
          const old = before.get(row.date);
          if (old && old.source === row.source && (old.buy !== row.buy || old.sell !== row.sell)) {
            logger.info({ date: row.date, from: { buy: old.buy, sell: old.sell }, to: { buy: row.buy, sell: row.sell } }, 'corrected a stored rate');
          }
        }
        return counts;
      },
      async announce(checked, summary) {
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
      },
    },
    span,
    onProgress,
  );
  return outcome.summary;
}
