/**
 * The daily rhythm: a catch-up at start (in the background, the server does not wait for it),
 * then a sync on SYNC_CRON in Costa Rica time. A failed run is tried again with exponential
 * backoff and jitter, until the next scheduled run takes over.
 */
import schedule from 'node-schedule';
import { TIME_ZONE } from '../../shared/limits';
import { syncOfficial, type OfficialSources } from './catch-up';
import type { SyncDeps } from './sync-official';

export interface SchedulerOptions {
  cron: string | null;
  /** Delays of the retries after a failed run, before jitter. */
  retryDelaysMs?: readonly number[];
  /** Extra work on each tick (the ventanilla sync joins here). */
  extraJobs?: ReadonlyArray<() => Promise<unknown>>;
}

export interface Scheduler {
  /** The run in progress, if any (tests and shutdown wait on it). */
  readonly current: Promise<unknown> | null;
  runNow(): Promise<void>;
  stop(): Promise<void>;
}

const STOP_WAIT_MS = 5000;
const DEFAULT_RETRY_DELAYS_MS = [60_000, 4 * 60_000, 16 * 60_000];

export function startScheduler(deps: SyncDeps, sources: OfficialSources, options: SchedulerOptions): Scheduler {
  const retryDelays = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  let current: Promise<unknown> | null = null;
  let retryTimer: NodeJS.Timeout | null = null;
  let stopped = false;

  const tick = async (attempt: number): Promise<void> => {
    if (retryTimer) clearTimeout(retryTimer);
    retryTimer = null;
    const result = await syncOfficial(deps, sources).catch((error: unknown) => {
      // The database itself failed (not an upstream): retry like any failed run.
      deps.logger.error({ err: error }, 'sync could not run');
      return { ran: true, ok: false, runs: [] };
    });
    for (const job of options.extraJobs ?? []) await job();
    if (!result.ok && !stopped && attempt < retryDelays.length) {
      const delay = (retryDelays[attempt] ?? 0) * (0.5 + Math.random() / 2);
      deps.logger.warn({ attempt: attempt + 1, inMs: Math.round(delay) }, 'sync failed; retrying later');
      retryTimer = setTimeout(() => void run(attempt + 1), delay);
      retryTimer.unref();
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

  const job = options.cron ? schedule.scheduleJob({ rule: options.cron, tz: TIME_ZONE }, () => void run()) : null;
  setImmediate(() => void run());

  return {
    get current() {
      return current;
    },
    runNow: () => run(),
    async stop() {
      stopped = true;
      job?.cancel();
      if (retryTimer) clearTimeout(retryTimer);
      // A run cut short writes nothing (its transaction never commits), so waiting is a courtesy.
      await Promise.race([current, new Promise((resolve) => setTimeout(resolve, STOP_WAIT_MS).unref())]);
    },
  };
}
