/**
 * `/purposes`: what the `purpose` parameter takes, from the table in shared/purposes.ts: each
 * rule's side, the day it names, the rule itself and where it comes from.
 */
import { z } from 'zod';
import { PURPOSES } from '../../../shared/purposes';
import { PurposeSchema } from '../../../shared/schemas';
import { purposeInfo } from '../../domain/purposes';
import { csvFormat } from '../formats/csv';
import { defineRoute, type Route } from '../route';

/** The table is data of the repository: the group needs nothing from the app. */
export type PurposesDeps = Record<string, never>;

export function purposesRoutes(_deps: PurposesDeps): Route[] {
  return [
    defineRoute({
      path: '/purposes',
      tag: 'Exchange rate',
      access: 'key',
      summary: 'Which official rate Costa Rican rules name for what',
      description:
        'Each value of `purpose` (on /exchange-rate, /exchange-rate/latest, /convert and /exchange-rate/close): the side of the central bank’s reference rate its rule names, whose date applies, the day a month close uses, the rule in Spanish and English, its legal basis and Spanish aliases. Cited for information, not legal advice.',
      query: {},
      response: z.array(PurposeSchema),
      formats: { csv: csvFormat },
      handle: async () => PURPOSES.map(purposeInfo),
    }),
  ];
}
