/**
 * The month close: the figures a bookkeeper closes a month with (days present and missing, the
 * closing record, the Period statistics of each side).
 *
 * Computed from the month's records in the series kept in memory, not from the rate_months
 * summaries: a summary has the counts and the statistics but neither which days are missing nor
 * the closing record, so the month's rows would be read anyway; at most 31 records are summed in
 * decimal arithmetic, which is exact (as /stats is), and the route keeps answering from memory
 * like the other read routes.
 */
import { MonthCloseSchema } from '../../../shared/schemas';
import { closeMonth, isAfterMonthOf, monthBounds, monthOf } from '../../domain/month-close';
import type { CurrencySeries } from '../../store/currency-series';
import { badRequest, notFound } from '../../errors';
import { csvFormat } from '../formats/csv';
import { currencyCode, yearMonth } from '../params';
import { defineRoute, type Route } from '../route';

const TAG = 'Exchange rate';

export function closeRoutes({ currencies }: { currencies: CurrencySeries }): Route[] {
  return [
    defineRoute({
      path: '/exchange-rate/close',
      tag: TAG,
      access: 'key',
      summary: 'The figures to close a month with',
      description:
        'The first and last dates present, the calendar days of the month and how many have a record, the days up to the latest date with none, whether every day has one (a month still running never is), the record of the last calendar day (null when that day has none, never another day) and, per side, average, min, max, first, last and change over the month’s records. The month may not be after the current one (Costa Rica time).',
      query: {
        month: yearMonth('The month, YYYY-MM; not after the current month.', 'a calendar month as YYYY-MM, not after the current month'),
        currency: currencyCode(),
      },
      response: MonthCloseSchema,
      example: { month: '2025-01' },
      notFound: 'The month has no record.',
      formats: { csv: csvFormat },
      handle: async ({ month, currency }, { today }) => {
        const rates = currencies.of(currency);
        // Checked here rather than in the schema: "the current month" depends on the request's day.
        if (isAfterMonthOf(month, today)) {
          throw badRequest(`Parameter "month" must not be after the current month, ${monthOf(today)} (got "${month}")`);
        }
        const { first, last } = monthBounds(month);
        const records = await rates.range(first, last);
        if (records.length === 0) throw notFound(`No ${currency === 'USD' ? 'exchange' : currency} rate in ${month}`);
        const latest = await rates.latest(today);
        return closeMonth({ month, records, latestDate: latest?.date ?? null, today });
      },
    }),
  ];
}
