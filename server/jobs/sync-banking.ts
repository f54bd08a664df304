/**
 * The window (ventanilla) quotes over a span of days: every quote is checked against the sanity
 * bounds, then every day's snapshot is written; earlier days' snapshots are never touched by later
 * ones. The run itself (chunks, one transaction, record, failure) is the common one of `runSync`,
 * so a bad answer fails the run and changes nothing. `syncBanking` adds the default window and the
 * lock that keeps two instances from running it at once.
 */
import { addDays, calendarDay } from '../../shared/dates';
import type { InstitutionType } from '../../shared/institutions';
import { checkRate } from '../sources/sanity';
import type { VentanillaDay, VentanillaSource } from '../sources/ventanilla/types';
import { createBankingStore, type InstitutionInput, type QuoteInput } from '../store/banking';
import { LOCKS, withAdvisoryLock } from '../store/locks';
import { type Checked, type Progress, type Rejection, runSync, type Span, type SyncDeps, type SyncSummary } from './sync-run';

/** As the README says: `--banking` alone reads the last 7 days. */
export const BANKING_DEFAULT_DAYS = 7;

/** A window run's summary (`missing`: the past days no institution quoted); `skipped` when another instance was at it. */
export interface BankingSummary extends Omit<SyncSummary, 'status'> {
  status: SyncSummary['status'] | 'skipped';
  unknownInstitutions: string[];
}

interface CheckedDay {
  date: string;
  institutions: InstitutionInput[];
  quotes: QuoteInput[];
}

interface CheckedDays extends Checked {
  days: CheckedDay[];
  /** Names of the institutions the catalog does not list. */
  unknown: string[];
}

/**
 * Splits a source's days into storable quotes and rejections, naming each rejected institution; a
 * day counts as present when at least one of its quotes is kept.
 */
export function checkDays(days: readonly VentanillaDay[], today: string): CheckedDays {
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
  const present = new Set(checked.filter((d) => d.quotes.length > 0).map((d) => d.date));
  return { days: checked, rejected, unknown: [...unknown], present };
}

export async function syncBankingSpan(deps: SyncDeps, source: VentanillaSource, span: Span, onProgress?: Progress): Promise<BankingSummary> {
  const { logger } = deps;
  const outcome = await runSync<VentanillaDay, CheckedDays>(
    deps,
    {
      kind: 'banking',
      source: source.name,
      label: 'window sync',
      warnsOnFailure: true,
      maxChunkDays: source.maxChunkDays,
      fetchChunk: (from, to, signal) => source.fetchRange(from, to, signal),
      check: (answer, { today }) => checkDays(answer, today),
      report(checked) {
        for (const r of checked.rejected) logger.warn({ source: source.name, ...r }, 'rejected a window quote');
        for (const name of checked.unknown) logger.warn({ institution: name }, 'an institution the catalog does not list; stored with an inferred type');
      },
      async store(checked, trx, fetchedAt) {
        const banking = createBankingStore(trx);
        const counts = { inserted: 0, updated: 0 };
        for (const day of checked.days) {
          const saved = await banking.saveDay({ ...day, source: source.name, fetchedAt });
          counts.inserted += saved.inserted;
          counts.updated += saved.updated;
        }
        return counts;
      },
    },
    span,
    onProgress,
  );
  return { ...outcome.summary, unknownInstitutions: outcome.checks?.unknown ?? [] };
}

/** Syncs the window quotes of a span (default: the last 7 days) unless another instance is at it. */
export async function syncBanking(deps: SyncDeps, source: VentanillaSource, span?: Span, onProgress?: Progress): Promise<BankingSummary> {
  const today = calendarDay(deps.clock());
  const window = span ?? { from: addDays(today, -(BANKING_DEFAULT_DAYS - 1)), to: today };
  const result = await withAdvisoryLock(deps.db, LOCKS.bankingSync, () => syncBankingSpan(deps, source, window, onProgress));
  if (!result.acquired) {
    deps.logger.info('another instance is syncing window quotes; skipped');
    return { status: 'skipped', source: source.name, ...window, inserted: 0, updated: 0, rejected: [], missing: [], unknownInstitutions: [] };
  }
  return result.value;
}
