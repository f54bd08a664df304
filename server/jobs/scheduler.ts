/**
 * The daily rhythm: a catch-up at start (in the background, the server does not wait for it),
 * then a sync on SYNC_CRON in Costa Rica time. A failed run is tried again with exponential
 * backoff and jitter, until the next scheduled run takes over; each failed attempt is one log
 * line (the error, the source, the attempt, the next retry), its stack traces at debug level.
 * `stop()` aborts the run in progress and waits for it to settle, so that nothing of it is left
 * to log once the caller closes the database.
 */
import schedule from 'node-schedule';
import { TIME_ZONE } from '../../shared/limits';
import type { OfficialSources } from '../sources/types';
import { catchUpOfficial, type CatchUpResult } from './catch-up';
import type { SyncDeps } from './sync-run';
import { oneLine } from './sync-status';

export interface SchedulerOptions {
  cron: string | null;
  /** Delays of the retries after a failed run, before jitter. */
  retryDelaysMs?: readonly number[];
  /**
   * Extra work on each tick (the ventanilla sync joins here). The signal aborts when the scheduler
   * stops: pass it on (as `SyncDeps.signal`) so that a stop does not wait out the job's requests.
   */
  extraJobs?: ReadonlyArray<(signal: AbortSignal) => Promise<unknown>>;
}

export interface Scheduler {
  /** The run in progress, if any (tests and shutdown wait on it). */
  readonly current: Promise<unknown> | null;
  /** When it syncs next: the pending retry or the next scheduled run, whichever comes first; null when neither is planned. */
  nextAttemptAt(): Date | null;
  runNow(): Promise<void>;
  stop(): Promise<void>;
}

/** How long `stop()` waits for an aborted run to settle (it only has its database writes left). */
const STOP_WAIT_MS = 5000;
const DEFAULT_RETRY_DELAYS_MS = [60_000, 4 * 60_000, 16 * 60_000];

/**
 * The fields of the one line a failed attempt logs: the first failed run's source and error (the
 * central bank's, as a rule) and, when the fallback failed too, its own.
 */
export function attemptFailure(result: CatchUpResult): { source: string; error: string; fallback?: { source: string; error: string } } {
  const [failed, fallback] = result.runs
    .filter((run) => run.status === 'failed')
    .map((run) => ({ source: run.source, error: oneLine(run.error ?? 'failed without a message') }));
  // Not ok means a run of the central bank failed (a fallback's failure alone leaves it ok).
  if (!failed) return { source: 'unknown', error: 'the sync failed without a failed run' };
  return fallback ? { ...failed, fallback } : failed;
}

export function startScheduler(deps: SyncDeps, sources: OfficialSources, options: SchedulerOptions): Scheduler {
  const retryDelays = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  let current: Promise<unknown> | null = null;
  let retryTimer: NodeJS.Timeout | null = null;
  /** When the pending retry fires (epoch ms), for `nextAttemptAt`. */
  let retryAt: number | null = null;
  let stopped = false;
  // One for the scheduler's life: once it aborts, no run starts again.
  const stopping = new AbortController();
  const runDeps: SyncDeps = { ...deps, signal: stopping.signal };

  const tick = async (attempt: number): Promise<void> => {
    if (retryTimer) clearTimeout(retryTimer);
    retryTimer = null;
    retryAt = null;
    const outcome = await catchUpOfficial(runDeps, sources).then(
      (result) => ({ result, crash: null }),
      (error: unknown) => {
        // The database itself failed (not an upstream): retry like any failed run.
        deps.logger.debug({ err: error }, 'sync could not run');
        const result: CatchUpResult = { ran: true, ok: false, runs: [], unfilled: [] };
        return { result, crash: oneLine(error instanceof Error ? error.message : String(error)) };
      },
    );
    for (const job of options.extraJobs ?? []) {
      if (stopped) break;
      await job(stopping.signal);
    }
    // A shutdown cutting the run short is no failure to report (the run said it stopped).
    if (outcome.result.ok || stopped) return;
    const failure = outcome.crash === null ? attemptFailure(outcome.result) : { source: 'database', error: outcome.crash };
    if (attempt < retryDelays.length) {
      const delay = (retryDelays[attempt] ?? 0) * (0.5 + Math.random() / 2);
      retryAt = Date.now() + delay;
      deps.logger.warn({ ...failure, attempt: attempt + 1, nextRetryAt: new Date(retryAt).toISOString() }, 'sync attempt failed; retrying');
      retryTimer = setTimeout(() => void run(attempt + 1), delay);
      retryTimer.unref();
    } else {
      const next = cronJob?.nextInvocation();
      deps.logger.error(
        { ...failure, attempt: attempt + 1, nextRetryAt: null, nextScheduledAt: next ? new Date(next.getTime()).toISOString() : null },
        'sync attempt failed; no retry left',
      );
    }
  };

  const run = (attempt = 0): Promise<void> => {
    if (current || stopped) return Promise.resolve();
    const started = tick(attempt)
      .catch((error: unknown) => deps.logger.error({ err: error }, 'scheduled sync crashed'))
      .finally(() => {
        current = null;
      });
    current = started;
    return started;
  };

  const cronJob = options.cron ? schedule.scheduleJob({ rule: options.cron, tz: TIME_ZONE }, () => void run()) : null;
  setImmediate(() => void run());

  return {
    get current() {
      return current;
    },
    nextAttemptAt() {
      if (stopped) return null;
      const scheduled = cronJob?.nextInvocation()?.getTime() ?? null;
      const times = [retryAt, scheduled].filter((t): t is number => t !== null);
      return times.length > 0 ? new Date(Math.min(...times)) : null;
    },
    runNow: () => run(),
    async stop() {
      stopped = true;
      cronJob?.cancel();
      if (retryTimer) clearTimeout(retryTimer);
      retryAt = null;
      stopping.abort();
      const running = current;
      if (!running) return;
      // The aborted run still records its end in the database: the caller closes it only after
      // this resolves, or the run would log connection errors after the process said "stopped".
      let timer: NodeJS.Timeout | undefined;
      const settled = await Promise.race([
        running.then(() => true),
        new Promise<false>((resolve) => {
          timer = setTimeout(() => resolve(false), STOP_WAIT_MS);
        }),
      ]);
      clearTimeout(timer);
      if (!settled) deps.logger.warn({ waitedMs: STOP_WAIT_MS }, 'the sync did not stop in time; it may log errors once the database closes');
    },
  };
}
