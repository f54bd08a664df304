/** Service health: the database answers, how fresh the data is, and when the last sync ended. */
import { daysBetween } from '../../../shared/dates';
import { HealthSchema } from '../../../shared/schemas';
import type { RatesStore } from '../../store/rates';
import type { SyncRunsStore } from '../../store/sync-runs';
import { HttpError } from '../errors';
import { defineRoute, type Route } from '../route';

/** The series has a value for every calendar day, so more than this many days behind is stale. */
export const STALE_AFTER_DAYS = 3;

/** A database that has not answered by then is reported down (a pool would otherwise wait far longer). */
export const DATABASE_TIMEOUT_MS = 1000;

export interface HealthDeps {
  rates: RatesStore;
  syncRuns: SyncRunsStore;
  version: string;
  startedAt: number;
}

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

export function healthRoutes({ rates, syncRuns, version, startedAt }: HealthDeps): Route[] {
  return [
    defineRoute({
      path: '/health',
      tag: 'System',
      access: 'public',
      summary: 'Service health',
      description: `"degraded" when the latest official rate is more than ${STALE_AFTER_DAYS} days before today.`,
      query: {},
      response: HealthSchema,
      cache: false,
      handle: async (_, { today }) => {
        const [latest, lastSyncAt] = await withinTimeout(Promise.all([rates.latest(today), syncRuns.lastSucceededAt('official')]), DATABASE_TIMEOUT_MS).catch(
          (error: unknown) => {
            throw new HttpError('SERVICE_UNAVAILABLE', 'Database unreachable', {}, error);
          },
        );
        const latestDate = latest?.date ?? null;
        const fresh = latestDate !== null && daysBetween(latestDate, today) <= STALE_AFTER_DAYS;
        return {
          status: fresh ? ('ok' as const) : ('degraded' as const),
          database: 'up' as const,
          latestDate,
          lastSyncAt,
          version,
          uptimeSeconds: Math.round((Date.now() - startedAt) / 1000),
        };
      },
    }),
  ];
}
