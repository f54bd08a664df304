/**
 * Brings the official series up to date: from a week before the last stored day (the central
 * bank corrects recent values) through tomorrow (published the afternoon before), or the whole
 * history on an empty database. Long spans go in runs of one year, each stored on its own, so an
 * interrupted backfill resumes where it stopped instead of starting over.
 */
import { addDays, calendarDay, missingDays } from '../../shared/dates';
import { SANITY_BOUNDS } from '../sources/sanity';
import type { OfficialSources } from '../sources/types';
import { LOCKS, withAdvisoryLock } from '../store/locks';
import { createRatesStore } from '../store/rates';
import { syncOfficialSpan } from './sync-official-span';
import type { Progress, SyncDeps, SyncSummary } from './sync-run';

export const REREAD_DAYS = 7;
export const RUN_SPAN_DAYS = 366;

export interface CatchUpResult {
  /** False when another instance held the sync lock and this one did nothing. */
  ran: boolean;
  ok: boolean;
  runs: SyncSummary[];
  /**
   * Days of the span before today that still have no stored rate once the sync is done, whatever
   * source gave the others. The series has a rate for every calendar day, so each is a gap; today
   * and tomorrow are left out, their rates may not be published yet.
   */
  unfilled: string[];
}

export interface SpanOptions {
  from?: string;
  to?: string;
  onProgress?: (run: { from: string; to: string }, ...args: Parameters<Progress>) => void;
}

export function splitSpan(from: string, to: string, days = RUN_SPAN_DAYS): Array<{ from: string; to: string }> {
  const spans: Array<{ from: string; to: string }> = [];
  for (let start = from; start <= to; start = addDays(start, days)) {
    const end = addDays(start, days - 1);
    spans.push({ from: start, to: end < to ? end : to });
  }
  return spans;
}

/**
 * The span to read when none is given: the last week again, through tomorrow. The week counts back
 * from the last day of the central bank's own series: Hacienda rows are left out, as the fallback
 * fills today even when a backfill was interrupted years earlier, and starting from that row would
 * skip the missing years for good.
 */
export async function defaultSpan(deps: SyncDeps): Promise<{ from: string; to: string }> {
  const last = await createRatesStore(deps.db).lastDateFrom('BCCR');
  const today = calendarDay(deps.clock());
  const from = last ? addDays(last < today ? last : today, -(REREAD_DAYS - 1)) : SANITY_BOUNDS.firstDate;
  return { from, to: addDays(today, 1) };
}

/** The days of `span` before `today` (and not before the official history) without a stored rate. */
async function unfilledDays(deps: SyncDeps, span: { from: string; to: string }, today: string): Promise<string[]> {
  const first = span.from > SANITY_BOUNDS.firstDate ? span.from : SANITY_BOUNDS.firstDate;
  const yesterday = addDays(today, -1);
  const last = span.to < yesterday ? span.to : yesterday;
  if (first > last) return [];
  const stored = new Set((await createRatesStore(deps.db).points(first, last)).map((p) => p.date));
  return missingDays(first, last, stored);
}

async function catchUpUnlocked(deps: SyncDeps, sources: OfficialSources, options: SpanOptions): Promise<Omit<CatchUpResult, 'ran'>> {
  const span = options.from && options.to ? { from: options.from, to: options.to } : await defaultSpan(deps);
  const runs: SyncSummary[] = [];
  for (const part of splitSpan(span.from, span.to)) {
    const summary = await syncOfficialSpan(deps, sources.primary, part, (...args) => options.onProgress?.(part, ...args));
    runs.push(summary);
    if (summary.status === 'failed') break;
  }
  const ok = runs.every((r) => r.status === 'succeeded');

  // Hacienda only knows today's rate: ask it when the central bank could not give one (unless the
  // server is stopping: that is why the central bank gave nothing).
  const today = calendarDay(deps.clock());
  if (!deps.signal?.aborted && today >= span.from && today <= span.to && !(await createRatesStore(deps.db).byDate(today))) {
    // After a failed run this is part of the failed attempt, which the scheduler logs in one line.
    deps.logger[ok ? 'warn' : 'debug']({ today }, 'no official rate for today from the central bank; trying the fallback');
    runs.push(await syncOfficialSpan(deps, sources.fallback, { from: today, to: today }));
  }
  return { ok, runs, unfilled: await unfilledDays(deps, span, today) };
}

/** Syncs the span (default: catch up) unless another instance is syncing right now. */
export async function catchUpOfficial(deps: SyncDeps, sources: OfficialSources, options: SpanOptions = {}): Promise<CatchUpResult> {
  const result = await withAdvisoryLock(deps.db, LOCKS.officialSync, () => catchUpUnlocked(deps, sources, options));
  if (!result.acquired) {
    deps.logger.info('another instance is syncing; skipped');
    return { ran: false, ok: true, runs: [], unfilled: [] };
  }
  return { ran: true, ...result.value };
}
