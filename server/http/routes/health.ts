/**
 * Service health: the database answers, how fresh the data is, how the last sync went and when the
 * next one is, and, when degraded, why in words.
 */
import { daysBetween } from '../../../shared/dates';
import { HealthSchema } from '../../../shared/schemas';
import { type LastSync, type SyncView, whyEmpty } from '../../jobs/sync-status';
import type { RatesStore } from '../../store/rates';
import type { SyncRunsStore } from '../../store/sync-runs';
import { HttpError } from '../../errors';
import { defineRoute, type Route } from '../route';

/** The series has a value for every calendar day, so more than this many days behind is stale. */
export const STALE_AFTER_DAYS = 3;

/** A database that has not answered by then is reported down (a pool would otherwise wait far longer). */
export const DATABASE_TIMEOUT_MS = 1000;

export interface HealthDeps {
  rates: RatesStore;
  syncRuns: SyncRunsStore;
  /** The official sync's last run and this instance's next attempt. */
  sync: SyncView;
  version: string;
  startedAt: number;
  /** Told when stored rates change, so the answer never lags a sync by the probe's second. */
  onRatesChanged: (listener: () => void) => void;
  /** No BCCR_TOKEN: the other currencies are not synced, which `reasons` says (the status stays ok). */
  currenciesNeedToken: boolean;
  /** No BCCR_TOKEN: MONEX is not synced, which `reasons` says (the status stays ok). */
  monexNeedsToken: boolean;
  /** The webhooks' outbox: how many deliveries wait, and since when the oldest due one. */
  webhookQueue: () => Promise<{ pending: number; oldestDueAt: Date | null }>;
  clock: () => Date;
}

/** A due delivery waiting longer than this means no worker is delivering (an attempt takes at most 10 s). */
export const WEBHOOKS_STUCK_AFTER_MS = 5 * 60_000;

/** Why the webhooks' queue looks stuck, in words, or null; a note beside the status, which it does not change. */
export function webhookQueueReason(queue: { pending: number; oldestDueAt: Date | null }, now: Date): string | null {
  if (!queue.oldestDueAt) return null;
  const waited = now.getTime() - queue.oldestDueAt.getTime();
  if (waited <= WEBHOOKS_STUCK_AFTER_MS) return null;
  return `webhook deliveries are stuck: the oldest due one has waited ${Math.round(waited / 60_000)} minutes (${queue.pending} pending)`;
}

/** What a service without the central bank's token does not serve; a note, not a degradation. */
export const CURRENCIES_NEED_TOKEN = 'other currencies than USD need BCCR_TOKEN: their cross rates come only from the central bank’s SDDE API';

/** The same for MONEX. */
export const MONEX_NEEDS_TOKEN = 'MONEX sessions and the market calendar need BCCR_TOKEN: cuadro 219 comes only from the central bank’s SDDE API';

async function withinTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `probe()` asked at most once per `ms`: calls arriving while one is under way, or within `ms` of
 * its answer, share it. A load balancer and a monitor polling every instance, or a burst of
 * callers, cost the database one round trip per second, not one per call.
 */
export function sharedFor<T>(ms: number, probe: () => Promise<T>, now: () => number = Date.now): () => Promise<T> {
  let last: { startedAt: number; answer: Promise<T> } | null = null;
  return () => {
    if (!last || now() - last.startedAt >= ms) {
      const answer = probe();
      const started = { startedAt: now(), answer };
      last = started;
      // A failed probe is not kept: the next call asks again.
      answer.catch(() => {
        if (last === started) last = null;
      });
    }
    return last.answer;
  };
}

/**
 * Why the service is degraded, one sentence each; none when it is not. The status follows from
 * them: degraded exactly when the latest official date is more than STALE_AFTER_DAYS before today
 * (or nothing is stored), so a degraded answer never comes without its reasons.
 */
export function healthReasons(latestDate: string | null, today: string, last: LastSync): string[] {
  if (latestDate === null) return [`no rate stored yet: ${whyEmpty(last)}`];
  const age = daysBetween(latestDate, today);
  if (age <= STALE_AFTER_DAYS) return [];
  const reasons = [`latest official date ${latestDate} is ${age} days old`];
  if (last.state === 'running') reasons.push('a sync is running');
  else if (last.state === 'failed') reasons.push(`the last sync failed: ${last.error}`);
  else if (last.state === 'never') reasons.push('no sync has run yet');
  return reasons;
}

export function healthRoutes({
  rates,
  syncRuns,
  sync,
  version,
  startedAt,
  onRatesChanged,
  currenciesNeedToken,
  monexNeedsToken,
  webhookQueue,
  clock,
}: HealthDeps): Route[] {
  // The database's view, keyed by the day it was asked for (the day only changes at midnight).
  type Queue = Awaited<ReturnType<HealthDeps['webhookQueue']>>;
  const probes = new Map<string, () => Promise<[Awaited<ReturnType<RatesStore['latest']>>, string | null, LastSync, Queue]>>();
  const probeFor = (today: string) => {
    let probe = probes.get(today);
    if (!probe) {
      probes.clear();
      probe = sharedFor(1000, () =>
        withinTimeout(Promise.all([rates.latest(today), syncRuns.lastSucceededAt('official'), sync.last(), webhookQueue()]), DATABASE_TIMEOUT_MS),
      );
      probes.set(today, probe);
    }
    return probe();
  };
  onRatesChanged(() => probes.clear());
  return [
    defineRoute({
      path: '/health',
      tag: 'System',
      access: 'public',
      summary: 'Service health',
      description: `"degraded" when the latest official date is more than ${STALE_AFTER_DAYS} days before today, or nothing is stored yet; \`reasons\` then says why in words (the data's age, a sync running or failed); without BCCR_TOKEN it also notes that other currencies and MONEX need one, and it notes webhook deliveries waiting more than 5 minutes past their time (no worker delivering); neither note changes the status. \`sync\` is the last run of the official sync (its state, its error in one line, when it ended) and when this instance tries next.`,
      query: {},
      response: HealthSchema,
      cache: false,
      // Probes (load balancers, monitors) poll it from one address: never refused, and asked of
      // the database at most once a second.
      rateLimit: false,
      handle: async (_, { today }) => {
        const [latest, lastSyncAt, last, queue] = await probeFor(today).catch((error: unknown) => {
          throw new HttpError('SERVICE_UNAVAILABLE', 'Database unreachable', {}, error);
        });
        const latestDate = latest?.date ?? null;
        const reasons = healthReasons(latestDate, today, last);
        return {
          status: reasons.length === 0 ? ('ok' as const) : ('degraded' as const),
          reasons: [
            ...reasons,
            ...(currenciesNeedToken ? [CURRENCIES_NEED_TOKEN] : []),
            ...(monexNeedsToken ? [MONEX_NEEDS_TOKEN] : []),
            ...[webhookQueueReason(queue, clock())].filter((r): r is string => r !== null),
          ],
          database: 'up' as const,
          latestDate,
          lastSyncAt,
          sync: {
            state: last.state,
            error: last.error,
            finishedAt: last.finishedAt,
            nextAttemptAt: sync.nextAttemptAt()?.toISOString() ?? null,
          },
          version,
          uptimeSeconds: Math.round((Date.now() - startedAt) / 1000),
        };
      },
    }),
  ];
}
