/** Where a day's rate came from and how it changed: its provenance (JSON or a printable page) and the revisions of a span. */
import { z } from 'zod';
import { LIMITS } from '../../../shared/limits';
import { ProvenanceSchema, RevisionSchema } from '../../../shared/schemas';
import { type Lang, LANGS } from '../../../shared/languages';
import type { Provenance } from '../../../shared/types';
import { recordDigest, summarizeObservations } from '../../domain/provenance';
import type { Database } from '../../store/database';
import { createProvenanceStore } from '../../store/provenance';
import { notFound } from '../../errors';
import { date, oneOf } from '../params';
import { defineRoute, type Route } from '../route';
import { checkFromTo } from './windows';

const TAG = 'Exchange rate';

export interface ProvenanceDeps {
  db: Database;
  /** Tells the routes that the observation log changed (a sync read values, maybe the same ones again). */
  onObservationsChanged: (listener: () => void) => void;
  /** The printable page of `format=html`, in the site's look (site/provenance.ts). */
  page: ProvenancePage;
}

export interface ProvenancePage {
  /** The headers the page needs (its content security policy). */
  headers(): Readonly<Record<string, string>>;
  render(provenance: Provenance, lang: Lang): string;
}

export function provenanceRoutes({ db, onObservationsChanged, page }: ProvenanceDeps): Route[] {
  const store = createProvenanceStore(db);
  return [
    defineRoute({
      path: '/exchange-rate/provenance',
      tag: TAG,
      access: 'key',
      summary: "Where a day's rate came from",
      description:
        'The record with the upstream of each side (in words), when its values were first seen and last confirmed, how many observations the day has, the values it had before (oldest first) and a digest anyone can recompute. format=html gives the same facts as a printable page.',
      query: {
        date: date('The day, YYYY-MM-DD.'),
        locale: oneOf(LANGS, 'Language of the page with format=html.', 'es'),
      },
      response: ProvenanceSchema,
      example: { date: '2025-01-15' },
      notFound: 'The day has no rate.',
      formats: {
        html: {
          type: 'text/html; charset=utf-8',
          description: 'the same facts as a printable page (in the language of `locale`), for an audit file',
          headers: () => page.headers(),
          render: (provenance, { locale }) => page.render(provenance, locale),
        },
      },
      // A sync that reads the same values again moves lastConfirmedAt without changing any rate.
      staleWhen: (drop) => onObservationsChanged(drop),
      handle: async ({ date }): Promise<Provenance> => {
        const day = await store.ofDay(date);
        if (!day) throw notFound(`No exchange rate for ${date}`);
        return {
          record: day.record,
          ...summarizeObservations(day.record, day.observations),
          revisions: day.revisions,
          digest: recordDigest(day.record),
        };
      },
    }),

    defineRoute({
      path: '/exchange-rate/revisions',
      tag: TAG,
      access: 'key',
      summary: 'The revisions of the days of a span',
      description: `Every revision of a day between from and to (at most ${LIMITS.range.maxSpanDays} days apart), ascending by day, then by time: the values before, the values after and when; [] when none.`,
      query: { from: date('First day, inclusive.'), to: date('Last day, inclusive.') },
      check: (query) => checkFromTo(query, LIMITS.range.maxSpanDays),
      response: z.array(RevisionSchema),
      example: { from: '2025-01-01', to: '2025-01-31' },
      // Revisions change only with the rates, and every change of rates drops every kept answer.
      handle: ({ from, to }) => store.revisions(from, to),
    }),
  ];
}
