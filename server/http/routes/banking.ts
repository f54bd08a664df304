/** Window (ventanilla) quotes per institution, and the best-rate ranking against the official rate. */
import { RATE_SIDES } from '../../../shared/currencies';
import { INSTITUTION_TYPES, type InstitutionType } from '../../../shared/institutions';
import { BankingRatesSchema, BestRateSchema } from '../../../shared/schemas';
import { describeQuote, sortByName } from '../../domain/institutions';
import { rankInstitutions } from '../../domain/ranking';
import type { BankingStore } from '../../store/banking';
import type { RateSeries } from '../../store/series-reader';
import { notFound } from '../../errors';
import { csvFormat } from '../formats/csv';
import { date, oneOf } from '../params';
import { defineRoute, type Route } from '../route';

const TAG = 'Banking';

export function bankingRoutes({ banking, rates }: { banking: BankingStore; rates: Pick<RateSeries, 'byDate'> }): Route[] {
  const snapshot = async (requested: string | undefined, today: string, type: InstitutionType | undefined) => {
    const day = requested ?? (await banking.latestDate(today));
    if (!day) throw notFound('No window rates have been stored yet');
    const quotes = await banking.snapshot(day);
    if (quotes.length === 0) throw notFound(`No window rates for ${day}`);
    const institutions = sortByName(quotes.filter((q) => !type || q.type === type).map((q) => describeQuote(q, day)));
    return { date: day, institutions };
  };

  const common = {
    date: date('The day of the snapshot (default: the latest).').optional(),
    type: oneOf(INSTITUTION_TYPES, 'Only institutions of this group.').optional(),
  };

  return [
    defineRoute({
      path: '/banking/rates',
      tag: TAG,
      access: 'key',
      summary: 'Buy and sell rates of every institution at the window',
      description: "Each institution's own quote for the day, ordered by name; `stale` when its last update is older than the day.",
      query: common,
      response: BankingRatesSchema,
      example: { type: 'public_bank' },
      notFound: 'No snapshot for that day.',
      formats: { csv: csvFormat },
      handle: ({ date, type }, { today }) => snapshot(date, today, type),
    }),
    defineRoute({
      path: '/banking/best',
      tag: TAG,
      access: 'key',
      summary: 'Where to buy or sell dollars at the best price',
      description:
        '`operation` is the institution’s side: `buy` ranks who pays the most colones for your dollars (highest buy first); `sell` ranks who charges the fewest colones for a dollar (lowest sell first). Fresh quotes rank before stale ones; ties share a rank. `vsOfficial` compares with the official rate of the same side and day.',
      query: { operation: oneOf(RATE_SIDES, 'The institution’s side: buy or sell.'), ...common },
      response: BestRateSchema,
      example: { operation: 'sell' },
      notFound: 'Nothing to rank for that day and group.',
      formats: { csv: csvFormat },
      handle: async ({ operation, date, type }, { today }) => {
        const { date: day, institutions } = await snapshot(date, today, type);
        const official = await rates.byDate(day);
        const ranking = rankInstitutions(institutions, operation, official);
        const [first] = ranking;
        if (!first) throw notFound(`No institution${type ? ` of type ${type}` : ''} to rank on ${day}`);
        const { rank: _rank, vsOfficial: _vs, ...best } = first;
        return { operation, date: day, best, ranking };
      },
    }),
  ];
}
