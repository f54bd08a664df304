/** `/insights`: a grounded summary of the last days, with a verdict, in Spanish or English. */
import { LIMITS } from '../../../shared/limits';
import { INSIGHT_LOCALES, InsightsSchema } from '../../../shared/schemas';
import type { InsightsService } from '../../insights/service';
import type { SyncView } from '../../jobs/sync-status';
import { integer, oneOf } from '../params';
import { defineRoute, type Route } from '../route';
import { nothingStored } from './no-rate';

const { insights } = LIMITS;

export function insightsRoutes({ service, sync }: { service: InsightsService; sync: SyncView }): Route[] {
  return [
    defineRoute({
      path: '/insights',
      tag: 'Insights',
      access: 'key',
      summary: 'A market summary with a verdict, in Spanish or English',
      description:
        "The window's Analytics, a verdict about the colón (from the sell rate's changePercent: appreciation when ≤ −L, depreciation when ≥ L, stable otherwise, where the line L is 0.25 for windows of up to 30 days and 0.25 × √(d / 30) beyond, d being the calendar days from `from` to `to`: 0.433 for 90 days, 0.872 for 365), a summary quoting the real figures and 2 to 4 probable causes tied to them. The text is written by the configured language model from the computed metrics only, or by the built-in statistical text (`generatedBy: statistical`); it is kept for the day.",
      query: {
        days: integer(insights.minDays, insights.maxDays, 'How many calendar days, ending at the latest date.', insights.defaultDays),
        locale: oneOf(INSIGHT_LOCALES, 'Language of summary and causes.', 'es'),
      },
      response: InsightsSchema,
      example: { days: '30', locale: 'es' },
      notFound: 'No rate has been stored yet.',
      handle: async ({ days, locale }, { today }) => {
        const answer = await service.get(days, locale, today);
        if (!answer) throw await nothingStored(sync);
        return answer;
      },
    }),
  ];
}
