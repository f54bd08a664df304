/**
 * MONEX, the central bank's wholesale market, and the market calendar: one day, the latest
 * session, the last days, a span, where a day came from and how it changed (its provenance, the
 * revisions of a span), and per calendar day whether MONEX sat and whether the official rate is stored. A day without a session answers `session: false` with null figures, never the
 * figures of another day; a day the sync has not reached yet is unknown (404, or `session: null`
 * in the calendar).
 */
import { z } from 'zod';
import { addDays, dayNumber } from '../../../shared/dates';
import { LIMITS } from '../../../shared/limits';
import { MONEX_UPSTREAM } from '../../../shared/monex';
import { CalendarDaySchema, MonexProvenanceSchema, MonexRevisionSchema, MonexSessionSchema } from '../../../shared/schemas';
import type { CalendarDay, MonexProvenance } from '../../../shared/types';
import { summarizeMonexObservations } from '../../domain/monex-provenance';
import { badRequest, notFound } from '../../errors';
import { type MonexStore, sessionOf } from '../../store/monex';
import type { RateSeries } from '../../store/series-reader';
import { csvFormat } from '../formats/csv';
import { date, integer } from '../params';
import { defineRoute, type Route } from '../route';
import { checkFromTo } from './windows';

const TAG = 'MONEX';
const { history, range } = LIMITS;
/** Years the calendar takes: the official series starts in 1983; a few years ahead are all unknown days. */
const YEARS = { min: 1983, max: 2100 } as const;

export interface MonexDeps {
  monex: Pick<MonexStore, 'range' | 'latestSession' | 'knownThrough' | 'ofDay' | 'revisions'>;
  /** The official series, for the calendar's `referenceRate`. */
  dollar: Pick<RateSeries, 'range'>;
}

/** ISO weekday, Monday = 1 … Sunday = 7 (1970-01-01 was a Thursday). */
export function isoWeekday(day: string): number {
  return ((((dayNumber(day) + 3) % 7) + 7) % 7) + 1;
}

const NOTHING_STORED = 'No MONEX day has been stored yet: MONEX is read with the central bank’s token (BCCR_TOKEN)';

export function monexRoutes({ monex, dollar }: MonexDeps): Route[] {
  return [
    defineRoute({
      path: '/monex/latest',
      tag: TAG,
      access: 'key',
      summary: 'The latest MONEX session',
      description: 'The latest day, not after today (Costa Rica time), on which MONEX held a session.',
      query: {},
      response: MonexSessionSchema,
      notFound: 'No MONEX session has been stored yet.',
      formats: { csv: csvFormat },
      handle: async (_, { today }) => {
        const latest = await monex.latestSession(today);
        if (!latest) throw notFound(NOTHING_STORED);
        return sessionOf(latest);
      },
    }),

    defineRoute({
      path: '/monex',
      tag: TAG,
      access: 'key',
      summary: 'One day of MONEX',
      description:
        'The day’s session, or `session: false` with null figures when MONEX did not sit (a weekend, a holiday): never another day’s figures. 404 for a day not known yet.',
      query: { date: date('The day, YYYY-MM-DD.') },
      response: MonexSessionSchema,
      example: { date: '2025-01-15' },
      notFound: 'The day is not known yet: after the last day synced, or before the first.',
      formats: { csv: csvFormat },
      handle: async ({ date }) => {
        const [row] = await monex.range(date, date);
        if (row) return sessionOf(row);
        const known = await monex.knownThrough();
        throw notFound(
          known === null
            ? NOTHING_STORED
            : date > known
              ? `MONEX of ${date} is not known yet: the latest day synced is ${known}`
              : `MONEX of ${date} is not stored: the stored days begin later`,
        );
      },
    }),

    defineRoute({
      path: '/monex/history',
      tag: TAG,
      access: 'key',
      summary: 'The last days of MONEX',
      description: 'Every calendar day of the `days` ending at the latest day known, sessions and days without one, ascending.',
      query: { days: integer(history.minDays, history.maxDays, 'How many calendar days.', history.defaultDays) },
      response: z.array(MonexSessionSchema),
      example: { days: '7' },
      notFound: 'No MONEX day has been stored yet.',
      formats: { csv: csvFormat },
      handle: async ({ days }, { today }) => {
        const known = await monex.knownThrough();
        if (known === null) throw notFound(NOTHING_STORED);
        const to = known < today ? known : today;
        return (await monex.range(addDays(to, -(days - 1)), to)).map(sessionOf);
      },
    }),

    defineRoute({
      path: '/monex/range',
      tag: TAG,
      access: 'key',
      summary: 'MONEX between two dates',
      description: `Every known day with from <= date <= to, sessions and days without one, ascending; at most ${range.maxSpanDays} days apart; [] when none is known.`,
      query: { from: date('First day, inclusive.'), to: date('Last day, inclusive.') },
      check: (query) => checkFromTo(query, range.maxSpanDays),
      response: z.array(MonexSessionSchema),
      example: { from: '2025-01-01', to: '2025-01-31' },
      formats: { csv: csvFormat },
      handle: async ({ from, to }) => (await monex.range(from, to)).map(sessionOf),
    }),

    defineRoute({
      path: '/monex/provenance',
      tag: TAG,
      access: 'key',
      summary: 'Where a MONEX day came from',
      description:
        'The stored day, where it was read (in words), when its figures were first read and last confirmed, how many readings the day has, and its revisions (oldest first). A weekend, published as nothing, has no reading: 0 observations, first seen when it was stored. 404 for a day not stored.',
      query: { date: date('The day, YYYY-MM-DD.') },
      response: MonexProvenanceSchema,
      example: { date: '2025-01-15' },
      notFound: 'The day is not stored.',
      // A sync that reads the same figures again moves lastConfirmedAt without changing any day: never kept.
      cache: false,
      handle: async ({ date }): Promise<MonexProvenance> => {
        const day = await monex.ofDay(date);
        if (!day) throw notFound(`MONEX of ${date} is not stored`);
        const session = sessionOf(day.row);
        return {
          session,
          ...summarizeMonexObservations(session, day.observations, MONEX_UPSTREAM),
          revisions: day.revisions,
        };
      },
    }),

    defineRoute({
      path: '/monex/revisions',
      tag: TAG,
      access: 'key',
      summary: 'The revisions of the MONEX days of a span',
      description: `Every revision of a MONEX day between from and to (at most ${range.maxSpanDays} days apart), ascending by day, then by time: the figures before, the figures after, when the figures before were read and when they were replaced; [] when none.`,
      query: { from: date('First day, inclusive.'), to: date('Last day, inclusive.') },
      check: (query) => checkFromTo(query, range.maxSpanDays),
      response: z.array(MonexRevisionSchema),
      example: { from: '2025-01-01', to: '2025-01-31' },
      formats: { csv: csvFormat },
      // Revisions change only with the days, and every change of days drops every kept answer.
      handle: ({ from, to }) => monex.revisions(from, to),
    }),

    defineRoute({
      path: '/calendar',
      tag: TAG,
      access: 'key',
      summary: 'The market calendar',
      description: `Every calendar day of from..to (at most ${range.maxSpanDays} days apart) or of a year: its ISO weekday, whether MONEX held a session (null for a day not known yet, e.g. the future), and whether the official USD rate of that date is stored.`,
      query: {
        from: date('First day (with "to" instead of "year").').optional(),
        to: date('Last day (with "from" instead of "year").').optional(),
        year: integer(YEARS.min, YEARS.max, 'A whole year instead of from/to.').optional(),
      },
      check: (query) => {
        if (query.year !== undefined && (query.from !== undefined || query.to !== undefined))
          throw badRequest('Give either "year" or "from" and "to", not both');
        if (query.year === undefined && query.from === undefined && query.to === undefined) throw badRequest('Give "from" and "to", or "year"');
        checkFromTo(query, range.maxSpanDays);
      },
      response: z.array(CalendarDaySchema),
      example: { year: '2025' },
      formats: { csv: csvFormat },
      handle: async ({ from, to, year }) => {
        const first = year === undefined ? (from as string) : `${year}-01-01`;
        const last = year === undefined ? (to as string) : `${year}-12-31`;
        const [days, rates] = await Promise.all([monex.range(first, last), dollar.range(first, last)]);
        const session = new Map(days.map((d) => [d.date, d.session]));
        const rated = new Set(rates.map((r) => r.date));
        const calendar: CalendarDay[] = [];
        for (let d = first; d <= last; d = addDays(d, 1)) {
          calendar.push({ date: d, weekday: isoWeekday(d), session: session.get(d) ?? null, referenceRate: rated.has(d) });
        }
        return calendar;
      },
    }),
  ];
}
