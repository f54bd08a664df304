/**
 * The daily rhythm: a catch-up at start (in the background, the server does not wait for it),
 * then a sync on SYNC_CRON in Costa Rica time. A failed run is tried again with exponential
 * backoff and jitter, until the next scheduled run takes over. `stop()` aborts the run in
 * progress and waits for it to settle, so that nothing of it is left to log once the caller closes
 * the database.
 */
import schedule from 'node-schedule';
import { TIME_ZONE } from '../../shared/limits';
import { syncOfficial, type OfficialSources } from './catch-up';
import type { SyncDeps } from './sync-official';

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
  runNow(): Promise<void>;
  stop(): Promise<void>;
}

/** How long `stop()` waits for an aborted run to settle (it only has its database writes left). */
const STOP_WAIT_MS = 5000;
const DEFAULT_RETRY_DELAYS_MS = [60_000, 4 * 60_000, 16 * 60_000];

export function startScheduler(deps: SyncDeps, sources: OfficialSources, options: SchedulerOptions): Scheduler {
  const retryDelays = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  let current: Promise<unknown> | null = null;
  let retryTimer: NodeJS.Timeout | null = null;
  let stopped = false;
  // One for the scheduler's life: once it aborts, no run starts again.
  const stopping = new AbortController();
  const runDeps: SyncDeps = { ...deps, signal: stopping.signal };

  const tick = async (attempt: number): Promise<void> => {
    if (retryTimer) clearTimeout(retryTimer);
    retryTimer = null;
    const result = await syncOfficial(runDeps, sources).catch((error: unknown) => {
      // The database itself failed (not an upstream): retry like any failed run.
      deps.logger.error({ err: error }, 'sync could not run');
      return { ran: true, ok: false, runs: [], unfilled: [] };
    });
    for (const job of options.extraJobs ?? []) {
      if (stopped) break;
      await job(stopping.signal);
    }
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
