/** A minimal health check: the database answers and the latest date it holds. */
import { HealthSchema } from '../../../shared/schemas';
import type { RatesStore } from '../../store/rates';
import { defineRoute, type Route } from '../route';

export function healthRoutes({ rates, version, startedAt }: { rates: RatesStore; version: string; startedAt: number }): Route[] {
  return [
    defineRoute({
      path: '/health',
      tag: 'System',
      access: 'public',
      summary: 'Service health',
      query: {},
      response: HealthSchema,
      cache: false,
      handle: async (_, { today }) => {
        const latest = await rates.latest(today);
        return {
          status: 'ok' as const,
          database: 'up' as const,
          latestDate: latest?.date ?? null,
          lastSyncAt: null,
          version,
          uptimeSeconds: Math.round((Date.now() - startedAt) / 1000),
        };
      },
    }),
  ];
}
