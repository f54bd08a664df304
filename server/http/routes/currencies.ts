/**
 * `/currencies`: what the `currency` parameter takes, from the catalog (shared/currency-catalog.ts),
 * with the days each currency has data for. Without the central bank's token the derived ones have
 * none (`latestDate: null`): their cross rates are read from its SDDE API only.
 */
import { z } from 'zod';
import { DERIVED_CURRENCIES, DOLLAR } from '../../../shared/currency-catalog';
import { CurrencySchema } from '../../../shared/schemas';
import type { CurrencyInfo } from '../../../shared/types';
import type { CrossRatesStore } from '../../store/cross-rates';
import type { RateSeries } from '../../store/series-reader';
import { csvFormat } from '../formats/csv';
import { defineRoute, type Route } from '../route';

const DERIVED_CODES = DERIVED_CURRENCIES.map((c) => c.code);

export interface CurrenciesDeps {
  dollar: Pick<RateSeries, 'earliestDate' | 'latest'>;
  cross: Pick<CrossRatesStore, 'spans'>;
}

export function currenciesRoutes({ dollar, cross }: CurrenciesDeps): Route[] {
  return [
    defineRoute({
      path: '/currencies',
      tag: 'Exchange rate',
      access: 'key',
      summary: 'The currencies a rate can be asked in',
      description:
        'USD first (the official rate), then every currency derived from the central bank’s cross rate against the dollar, by code: its names, its SDDE indicator and the direction it is published in, and the first and latest days with a rate (null without data: other currencies need the central bank’s token).',
      query: {},
      response: z.array(CurrencySchema),
      formats: { csv: csvFormat },
      handle: async (_, { today }) => {
        const [since, latest, spans] = await Promise.all([dollar.earliestDate(), dollar.latest(today), cross.spans(DERIVED_CODES, today)]);
        const spanOf = new Map(spans.map((s) => [s.currency, s]));
        const usd: CurrencyInfo = {
          ...DOLLAR,
          name: { ...DOLLAR.name },
          kind: 'official',
          indicator: null,
          quote: null,
          since,
          latestDate: latest?.date ?? null,
        };
        return [
          usd,
          ...DERIVED_CURRENCIES.map(
            (c): CurrencyInfo => ({
              code: c.code,
              name: { ...c.name },
              kind: 'derived',
              indicator: c.indicator,
              quote: c.quote,
              since: spanOf.get(c.code)?.since ?? null,
              latestDate: spanOf.get(c.code)?.latestDate ?? null,
            }),
          ),
        ];
      },
    }),
  ];
}
