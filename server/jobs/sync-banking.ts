/**
 * One sync run of the window (ventanilla) quotes over a span of days: fetch every day, check
 * every quote against the sanity bounds, then write all days in one transaction. A bad answer
 * fails the run and changes nothing; earlier days' snapshots are never touched by later ones.
 */
import { addDays, calendarDay } from '../../shared/dates';
import type { InstitutionType } from '../../shared/institutions';
import { chunkRange } from '../sources/chunks';
import { checkRate } from '../sources/sanity';
import type { VentanillaDay, VentanillaSource } from '../sources/ventanilla/types';
import { createBankingStore, type InstitutionInput, type QuoteInput } from '../store/banking';
import { LOCKS, withAdvisoryLock } from '../store/locks';
import { createSyncRunsStore } from '../store/sync-runs';
import type { Progress, Rejection, SyncDeps } from './sync-official';
import { oneLine } from './sync-status';

/** As the README says: `--banking` alone reads the last 7 days. */
export const BANKING_DEFAULT_DAYS = 7;

export interface BankingSummary {
  status: 'succeeded' | 'failed' | 'skipped';
  source: string;
  from: string;
  to: string;
  inserted: number;
  updated: number;
  rejected: Rejection[];
  /** Days the source had no quote for. */
  missing: string[];
  unknownInstitutions: string[];
  error?: string;
}

interface CheckedDay {
  date: string;
  institutions: InstitutionInput[];
  quotes: QuoteInput[];
}

/** Splits a source's days into storable quotes and rejections, naming each rejected institution. */
export function checkDays(days: readonly VentanillaDay[], today: string): { days: CheckedDay[]; rejected: Rejection[]; unknown: string[] } {
  const rejected: Rejection[] = [];
  const unknown = new Set<string>();
  const checked = days.map((day) => {
    const institutions = new Map<string, InstitutionInput>();
    const quotes: QuoteInput[] = [];
    for (const q of day.quotes) {
      if (q.buy === null || q.sell === null) continue;
      const reason = checkRate({ date: day.date, buy: q.buy, sell: q.sell }, today);
      if (reason) {
        rejected.push({ date: day.date, reason: `${q.name}: ${reason}` });
        continue;
      }
      if (!q.known) unknown.add(q.name);
      // An institution the catalog does not know and whose name says nothing of its kind is
      // still kept; "financial" is the central bank's catch-all group for such entities.
      const type: InstitutionType = q.type ?? 'financial';
      institutions.set(q.institutionId, { id: q.institutionId, name: q.name, type, known: q.known });
      quotes.push({ institutionId: q.institutionId, buy: q.buy, sell: q.sell, updatedAt: q.updatedAt ? new Date(q.updatedAt) : null });
    }
    return { date: day.date, institutions: [...institutions.values()], quotes };
  });
  return { days: checked, rejected, unknown: [...unknown] };
}

export async function syncBankingSpan(
  deps: SyncDeps,
  source: VentanillaSource,
  span: { from: string; to: string },
  onProgress?: Progress,
): Promise<BankingSummary> {
  const { db, logger } = deps;
  const runs = createSyncRunsStore(db);
  const started = deps.clock();
  const today = calendarDay(started);
  const summary: BankingSummary = {
    status: 'failed',
    source: source.name,
    ...span,
    inserted: 0,
    updated: 0,
    rejected: [],
    missing: [],
    unknownInstitutions: [],
  };
  const runId = await runs.start({ kind: 'banking', source: source.name, spanFrom: span.from, spanTo: span.to, startedAt: started });
  try {
    const chunks = chunkRange(span.from, span.to, source.maxChunkDays);
    const answer: VentanillaDay[] = [];
    for (const [i, chunk] of chunks.entries()) {
      answer.push(...(await source.fetchRange(chunk[0], chunk[1], deps.signal)));
      onProgress?.(i + 1, chunks.length, chunk);
    }
    const checked = checkDays(answer, today);
    for (const r of checked.rejected) logger.warn({ source: source.name, ...r }, 'rejected a window quote');
    for (const name of checked.unknown) logger.warn({ institution: name }, 'an institution the catalog does not list; stored with an inferred type');
    const withQuotes = new Set(checked.days.filter((d) => d.quotes.length > 0).map((d) => d.date));
    const lastPast = span.to < today ? span.to : today;
    for (let d = span.from; d <= lastPast; d = addDays(d, 1)) if (!withQuotes.has(d)) summary.missing.push(d);

    await db.transaction(async (trx) => {
      const fetchedAt = deps.clock();
      for (const day of checked.days) {
        const counts = await createBankingStore(trx).saveDay({ ...day, source: source.name, fetchedAt });
        summary.inserted += counts.inserted;
        summary.updated += counts.updated;
      }
      await runs.finish(
        runId,
        {
          status: 'succeeded',
          counts: { inserted: summary.inserted, updated: summary.updated, rejected: checked.rejected.length, missing: summary.missing.length },
          finishedAt: deps.clock(),
        },
        trx,
      );
    });
    Object.assign(summary, { status: 'succeeded', rejected: checked.rejected, unknownInstitutions: checked.unknown });
    if (summary.inserted + summary.updated > 0) await deps.changes.ratesChanged();
  } catch (error) {
    summary.status = 'failed';
    summary.error = error instanceof Error ? error.message : String(error);
    summary.inserted = 0;
    summary.updated = 0;
    // A shutdown cutting a run short is expected, not a fault to alert on.
    if (deps.signal?.aborted) logger.warn({ source: source.name, ...span }, 'window sync stopped by a shutdown; stored data left as it was');
    else {
      // One line at warn (the message says what failed); the stack only at debug.
      logger.warn({ source: source.name, ...span, error: oneLine(summary.error) }, 'window sync failed; stored data left as it was');
      logger.debug({ source: source.name, ...span, err: error }, 'window sync failed: details');
    }
    await runs.finish(runId, {
      status: 'failed',
      counts: { inserted: 0, updated: 0, rejected: 0, missing: 0 },
      error: summary.error,
      finishedAt: deps.clock(),
    });
  }
  return summary;
}

/** Syncs the window quotes of a span (default: the last 7 days) unless another instance is at it. */
export async function syncBanking(
  deps: SyncDeps,
  source: VentanillaSource,
  span?: { from: string; to: string },
  onProgress?: Progress,
): Promise<BankingSummary> {
  const today = calendarDay(deps.clock());
  const window = span ?? { from: addDays(today, -(BANKING_DEFAULT_DAYS - 1)), to: today };
  const result = await withAdvisoryLock(deps.db, LOCKS.bankingSync, () => syncBankingSpan(deps, source, window, onProgress));
  if (!result.acquired) {
    deps.logger.info('another instance is syncing window quotes; skipped');
    return { status: 'skipped', source: source.name, ...window, inserted: 0, updated: 0, rejected: [], missing: [], unknownInstitutions: [] };
  }
  return result.value;
}
