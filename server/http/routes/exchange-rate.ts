/**
 * The series of each currency against the colón: latest, by date, history, range, analytics,
 * period stats and chart. The dollar's is the official one; every other is derived from the
 * central bank's cross rate (`currency`), with gaps where that has none (`fill=previous`).
 */
import { z } from 'zod';
import { LIMITS } from '../../../shared/limits';
import { AnalyticsSchema, ChartSchema, ExchangeRateSchema, PeriodStatsSchema, RateAnswerSchema } from '../../../shared/schemas';
import { analyze } from '../../domain/analytics';
import { withInverse } from '../../domain/inverse';
import { withPurpose } from '../../domain/purposes';
import type { PurposeId } from '../../../shared/purposes';
import { chartOfColumns } from '../../domain/chart';
import type { ExchangeRate, RateAnswer } from '../../../shared/types';
import type { SyncView } from '../../jobs/sync-status';
import type { CurrencySeries } from '../../store/currency-series';
import { notFound } from '../../errors';
import { csvFormat } from '../formats/csv';
import { currencyCode, date, fill, flag, integer, oneOf, purpose } from '../params';
import { latestOf, recordOf } from './carried';
import { defineRoute, type Route } from '../route';
import { noRateFor, nothingStored } from './no-rate';
import { orProvisional } from './provisional';
import { checkFromTo, checkOneWindowForm, lastDays } from './windows';

const TAG = 'Exchange rate';
const { history, range, analytics, chart } = LIMITS;

/**
 * `inverse=true` adds each side's inverse to the records; `false` (the default) hands back the
 * window itself, whose JSON is written from the series' kept text (answer-json.ts).
 */
const inverted = (records: readonly ExchangeRate[], inverse: 'true' | 'false'): readonly ExchangeRate[] =>
  inverse === 'true' ? records.map((record) => withInverse(record)) : records;

/** A single record as its routes answer it (a provisional one too): with its inverses and the purpose's citation when asked. */
const shaped = (record: RateAnswer, { inverse, purpose }: { inverse: 'true' | 'false'; purpose?: PurposeId | undefined }) =>
  withPurpose(inverse === 'true' ? withInverse(record) : record, purpose);

/** `sync` tells a 404 on an empty series what the sync is doing about it. */
export function exchangeRateRoutes({ currencies, sync }: { currencies: CurrencySeries; sync: SyncView }): Route[] {
  const currency = currencyCode();
  const forPurpose = purpose(
    'The rule the rate is for (invoice, income-tax, consumer-pay-colones, consumer-pay-dollars, customs): the answer adds `purpose`, citing the rule and the side it names; ask for the day the rule names.',
  );
  const inverse = flag(
    'true: each record adds buyInverse and sellInverse, units of the currency per 1 CRC (1 / buy, 1 / sell) to 10 significant digits, for ledgers whose currency is the colón.',
  );
  return [
    defineRoute({
      path: '/exchange-rate/latest',
      tag: TAG,
      access: 'key',
      summary: 'The latest official rate',
      description:
        'The record with the greatest date that is not after today (Costa Rica time). With fill=previous, a derived currency whose latest rate is older than today answers it for today, its own date in carriedFrom. EUR before the central bank publishes today’s cross rate: Hacienda’s provisional sell for today (source Hacienda, buy null), unless purpose names the buy side.',
      query: { currency, fill: fill(), purpose: forPurpose, inverse },
      response: RateAnswerSchema,
      notFound: 'No rate has been stored yet; the message says what the sync is doing about it.',
      formats: { csv: csvFormat },
      handle: async ({ currency, fill, ...shape }, { today }) => {
        const own = await latestOf(currencies.of(currency), today, fill !== undefined);
        const latest = await orProvisional(own, { currencies, currency, date: today, today, purpose: shape.purpose });
        if (!latest) throw await nothingStored(sync, currency);
        return shaped(latest, shape);
      },
    }),

    defineRoute({
      path: '/exchange-rate',
      tag: TAG,
      access: 'key',
      summary: 'The official rate of one day',
      description:
        'Every calendar day has a value, weekends and holidays included; 404 when the day has none. EUR today, before the central bank publishes its cross rate: Hacienda’s provisional sell (source Hacienda, buy null); a purpose naming the buy side is then a 404 that says so.',
      query: { date: date('The day, YYYY-MM-DD.'), currency, fill: fill(), purpose: forPurpose, inverse },
      response: RateAnswerSchema,
      example: { date: '2025-01-15' },
      notFound:
        'The day has no rate; the message says why: before the first day of the series, after its latest date (each day is published the afternoon before), or a gap.',
      formats: { csv: csvFormat },
      handle: async ({ date, currency, fill, ...shape }, { today }) => {
        const rates = currencies.of(currency);
        const own = await recordOf(rates, date, today, fill !== undefined);
        const record = await orProvisional(own, { currencies, currency, date, today, purpose: shape.purpose });
        if (!record) throw await noRateFor(rates, sync, date, today, currency);
        return shaped(record, shape);
      },
    }),

    defineRoute({
      path: '/exchange-rate/history',
      tag: TAG,
      access: 'key',
      summary: 'The last days of the series',
      description: 'Records of the `days` calendar days ending at the latest date (inclusive), ascending by date.',
      query: { days: integer(history.minDays, history.maxDays, 'How many calendar days.', history.defaultDays), currency, inverse },
      response: z.array(ExchangeRateSchema),
      example: { days: '7' },
      notFound: 'No rate has been stored yet; the message says what the sync is doing about it.',
      formats: { csv: csvFormat },
      handle: async ({ days, currency, inverse }, { today }) => {
        const rates = currencies.of(currency);
        const window = await lastDays(rates, sync, today, days, currency);
        return inverted(await rates.range(window.from, window.to), inverse);
      },
    }),

    defineRoute({
      path: '/exchange-rate/range',
      tag: TAG,
      access: 'key',
      summary: 'The records between two dates',
      description: `Records with from <= date <= to, ascending; at most ${range.maxSpanDays} days apart; [] when none.`,
      query: { from: date('First day, inclusive.'), to: date('Last day, inclusive.'), currency, inverse },
      check: (query) => checkFromTo(query, range.maxSpanDays),
      response: z.array(ExchangeRateSchema),
      example: { from: '2025-01-01', to: '2025-01-31' },
      formats: { csv: csvFormat },
      handle: async ({ from, to, currency, inverse }) => inverted(await currencies.of(currency).range(from, to), inverse),
    }),

    defineRoute({
      path: '/exchange-rate/analytics',
      tag: TAG,
      access: 'key',
      summary: 'Statistics of a window, per side',
      description:
        'Average, extremes, change, volatility (sample standard deviation of daily % changes), least-squares slope and trend over the last `days` days, or over from/to (not both forms).',
      query: {
        days: integer(analytics.minDays, analytics.maxDays, 'How many calendar days, ending at the latest date.', analytics.defaultDays),
        from: date('First day (with "to" instead of "days").').optional(),
        to: date('Last day (with "from" instead of "days").').optional(),
        currency,
      },
      check: (query, raw) => {
        checkOneWindowForm(raw);
        checkFromTo(query);
      },
      response: AnalyticsSchema,
      example: { days: '30' },
      notFound: 'The window holds no record, or no rate has been stored yet (the message then says what the sync is doing about it).',
      handle: async ({ days, from, to, currency }, { today }) => {
        const rates = currencies.of(currency);
        const window = from && to ? { from, to } : await lastDays(rates, sync, today, days, currency);
        const points = await rates.points(window.from, window.to);
        if (points.length === 0) throw notFound(`No exchange rate between ${window.from} and ${window.to}`);
        return analyze(points);
      },
    }),

    defineRoute({
      path: '/exchange-rate/stats',
      tag: TAG,
      access: 'key',
      summary: 'Monthly or yearly statistics',
      description: 'Per period: average, min, max, first, last and change of each side; periods with no record are left out.',
      query: {
        period: oneOf(['monthly', 'yearly'] as const, 'Length of each period.', 'monthly'),
        from: date('First day, inclusive.'),
        to: date('Last day, inclusive.'),
        currency,
      },
      check: (query) => checkFromTo(query),
      response: z.array(PeriodStatsSchema),
      example: { period: 'monthly', from: '2024-01-01', to: '2024-12-31' },
      formats: { csv: csvFormat },
      handle: ({ period, from, to, currency }) => currencies.of(currency).periodStats(period, from, to),
    }),

    defineRoute({
      path: '/exchange-rate/chart',
      tag: TAG,
      access: 'key',
      summary: 'A series ready to plot, with its trend line',
      description:
        'At most `points` entries, first and last always kept, downsampled with Largest-Triangle-Three-Buckets on sell; the trend is the least-squares line over every record of the window.',
      query: {
        days: integer(chart.minDays, chart.maxDays, 'How many calendar days, ending at the latest date.', chart.defaultDays),
        points: integer(chart.minPoints, chart.maxPoints, 'At most this many points in the series.', chart.defaultPoints),
        currency,
      },
      response: ChartSchema,
      example: { days: '365', points: '90' },
      notFound: 'The window holds no record, or no rate has been stored yet (the message then says what the sync is doing about it).',
      handle: async ({ days, points, currency }, { today }) => {
        const rates = currencies.of(currency);
        const window = await lastDays(rates, sync, today, days, currency);
        const columns = await rates.columns(window.from, window.to);
        if (columns.days.length === 0) throw notFound(`No exchange rate between ${window.from} and ${window.to}`);
        return chartOfColumns(columns, points);
      },
    }),
  ];
}
