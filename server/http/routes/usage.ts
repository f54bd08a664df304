/** The caller's own usage this month: never counted against the quota it reports. */
import { UsageSchema } from '../../../shared/schemas';
import type { AccessControl } from '../../access/access';
import { defineRoute, type Route } from '../route';

export function usageRoutes({ access }: { access: AccessControl }): Route[] {
  return [
    defineRoute({
      path: '/usage',
      tag: 'Account',
      access: 'key',
      quota: false,
      rateLimit: false,
      cache: false,
      summary: "This month's usage and limits of your key",
      description:
        'Requests served (`used`) and remaining this month, when the count resets, and the per-minute rate. `used` counts the requests served by every instance, not quota an instance has set aside. Not counted against the quota.',
      query: {},
      response: UsageSchema,
      handle: async (_, { apiKey }) => {
        if (!apiKey) throw new Error('usage route reached without a key');
        return access.usage(apiKey);
      },
    }),
  ];
}
