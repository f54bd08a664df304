/**
 * MONEX (SDDE cuadro 219) read with the token through the common skeleton (`runSync`): every
 * published day checked (a session's figures in order and in the band, 0 in all four a day
 * without a session, a partial zero refused), then stored with its observations in the run's
 * transaction. A day the central bank publishes nothing for (a weekend) between two days it
 * published in the span is stored as a day without a session too: what the run read is that there
 * was none. Days before the first one published are not (MONEX_SINCE may come before the first
 * session the central bank has). A re-read starts at a stored, published day, so every calendar
 * day from the first stored to the last has a row, and a later day is unknown.
 *
 * A catch-up reads from a week before the last stored day (the central bank corrects recent
 * days), or from MONEX_SINCE on an empty database (MONEX began in 2006), in runs of one year, each
 * stored on its own so an interrupted backfill resumes where it stopped.
 */
import { addDays, calendarDay } from '../../shared/dates';
import { MONEX_UPSTREAM } from '../../shared/monex';
import { classifyMonexDay } from '../domain/monex';
import type { MonexPoint, MonexSource } from '../sources/bccr-monex';
import { LOCKS, withAdvisoryLock } from '../store/locks';
import { createMonexStore, type MonexInput, sessionOf } from '../store/monex';
import { enqueueMonexSessions } from '../store/webhook-events';
import { REREAD_DAYS, RUN_SPAN_DAYS, splitSpan } from './catch-up';
import { type Checked, type Rejection, runSync, type Span, type SyncDeps, type SyncSummary } from './sync-run';
import { NEWS_DAYS } from './sync-official-span';

interface CheckedMonex extends Checked {
  rows: MonexInput[];
  /** Each accepted day's numbers as published, for the observation log. */
  readings: Array<{ date: string; reading: string }>;
}

export interface MonexRunSummary extends SyncSummary {
  /** The dates stored for the first time or with other figures (a `monex.session` event each, once events exist). */
  changed: string[];
}

/**
 * Pure: what of an answer is stored and what is refused; the days between the first and the last
 * one published that have no point become days without a session; `present` is all of those days.
 */
export function checkMonex(answer: readonly MonexPoint[], span: Span, today: string, provider: MonexInput['source'], fetchedAt: Date): CheckedMonex {
  const rows: MonexInput[] = [];
  const readings: CheckedMonex['readings'] = [];
  const rejected: Rejection[] = [];
  let first: string | null = null;
  let last: string | null = null;
  let unit: string | null = null;
  const published = new Set<string>();
  for (const point of answer) {
    if (point.date < span.from || point.date > span.to) continue;
    if (last === null || point.date > last) last = point.date;
    if (first === null || point.date < first) first = point.date;
    published.add(point.date);
    unit = point.volumeUnit;
    const day = classifyMonexDay(point.date, point.figures, today);
    if (day.kind === 'refused') {
      rejected.push({ date: point.date, reason: day.reason });
      continue;
    }
    const f = point.figures;
    readings.push({ date: point.date, reading: [f.average, f.min, f.max, f.volume].join('/') });
    const figures = day.kind === 'session' ? day.figures : { average: null, min: null, max: null, volume: null };
    rows.push({ date: point.date, session: day.kind === 'session', ...figures, volumeUnit: point.volumeUnit, source: provider, fetchedAt });
  }
  // A weekend is published as nothing: not a gap, a day without a session. Only days after the last one published are unknown.
  const present = new Set<string>();
  for (let d = first ?? span.from; last !== null && d <= last; d = addDays(d, 1)) {
    present.add(d);
    if (!published.has(d))
      rows.push({ date: d, session: false, average: null, min: null, max: null, volume: null, volumeUnit: unit, source: provider, fetchedAt });
  }
  rows.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  return { rows, readings, rejected, present };
}

export async function syncMonexSpan(deps: SyncDeps, source: MonexSource, span: Span): Promise<MonexRunSummary> {
  const { logger } = deps;
  const upstream = `${source.provider === 'DEMO' ? 'Simulated ' : ''}${MONEX_UPSTREAM}`;
  let changed: string[] = [];
  const outcome = await runSync<MonexPoint, CheckedMonex>(
    deps,
    {
      kind: 'monex',
      source: `${source.name} MONEX`,
      label: 'MONEX sync run',
      warnsOnFailure: true,
      maxChunkDays: source.maxChunkDays,
      fetchChunk: (from, to, signal) => source.fetchRange(from, to, signal),
      check: (answer, { today, fetchedAt }) => checkMonex(answer, span, today, source.provider, fetchedAt),
      report(checked) {
        for (const r of checked.rejected) logger.warn({ source: source.name, ...r }, 'rejected an upstream MONEX day');
      },
      async store(checked, trx, fetchedAt) {
        const monex = createMonexStore(trx);
        const written = await monex.writeSessions(checked.rows, trx);
        // A session stored or corrected lately is news (\`monex.session\`); a backfill's years are history.
        const since = addDays(calendarDay(fetchedAt), -NEWS_DAYS);
        const news = new Set(written.changed.filter((date) => date >= since));
        await enqueueMonexSessions(trx, checked.rows.filter((row) => row.session && news.has(row.date)).map(sessionOf), fetchedAt);
        if (!deps.skipObservationLog) {
          await monex.observe({ route: source.name, source: source.provider, upstream, observedAt: fetchedAt, values: checked.readings }, trx);
        }
        changed = written.changed;
        return { inserted: written.inserted, updated: written.updated };
      },
    },
    span,
  );
  return { ...outcome.summary, changed: outcome.summary.status === 'succeeded' ? changed : [] };
}

export interface MonexCatchUpResult {
  /** False when another instance held the lock and this one did nothing. */
  ran: boolean;
  ok: boolean;
  runs: MonexRunSummary[];
}

/** Brings MONEX up to date (or reads `span`), one year per run; stops at the first failed run. */
export async function catchUpMonex(deps: SyncDeps, source: MonexSource, options: { since: string; span?: Span }): Promise<MonexCatchUpResult> {
  const locked = await withAdvisoryLock(deps.db, LOCKS.monexSync, async () => {
    const today = calendarDay(deps.clock());
    let span = options.span;
    if (!span) {
      const last = await createMonexStore(deps.db).lastDateFrom(source.provider);
      const from = last ? addDays(last < today ? last : today, -(REREAD_DAYS - 1)) : options.since;
      span = { from: from < options.since ? options.since : from, to: today };
    }
    const runs: MonexRunSummary[] = [];
    const parts = splitSpan(span.from, span.to, RUN_SPAN_DAYS);
    for (const [i, part] of parts.entries()) {
      if (deps.signal?.aborted) break;
      const summary = await syncMonexSpan(deps, source, part);
      runs.push(summary);
      if (summary.status === 'failed') break;
      if (parts.length > 1)
        deps.logger.info({ ...part, inserted: summary.inserted, updated: summary.updated, run: `${i + 1}/${parts.length}` }, 'MONEX backfill progress');
    }
    return runs;
  });
  if (!locked.acquired) return { ran: false, ok: true, runs: [] };
  return { ran: true, ok: locked.value.every((r) => r.status === 'succeeded'), runs: locked.value };
}

/**
 * The scheduler's job for MONEX (jobs/scheduler.ts `extraJobs`), on the dollar's ticks, which run
 * after the midday session: it reads the last week until today's day is stored, then rests until
 * the next day (a weekend or holiday is stored as a day like any other once the central bank
 * publishes it, or the week is read again on each tick, a handful of requests).
 */
export function scheduledMonex(deps: SyncDeps, source: MonexSource, since: string): (signal: AbortSignal) => Promise<void> {
  let doneFor: string | null = null;
  return async (signal) => {
    const today = calendarDay(deps.clock());
    if (doneFor === today) return;
    const result = await catchUpMonex({ ...deps, signal }, source, { since });
    if (!result.ran || !result.ok) return;
    if ((await createMonexStore(deps.db).knownThrough()) === today) doneFor = today;
  };
}
