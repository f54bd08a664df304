/**
 * The month close: the figures a bookkeeper closes a month with (days present and missing, the
 * closing record, the Period statistics of each side).
 *
 * Computed from the month's records in the series kept in memory, as /stats is, with the same
 * exact sums (domain/exact-sums.ts).
 */
import { purposeOf } from '../../../shared/purposes';
import { MonthCloseSchema } from '../../../shared/schemas';
import { closeMonth, isAfterMonthOf, monthBounds, monthOf } from '../../domain/month-close';
import { closeDayOf, withPurpose } from '../../domain/purposes';
import type { CurrencySeries } from '../../store/currency-series';
import { badRequest, notFound } from '../../errors';
import { csvFormat } from '../formats/csv';
import { currencyCode, purpose, yearMonth } from '../params';
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
        purpose: purpose(
          'The rule the close is for: the answer adds `purpose`, citing the rule, and `purposeRate`, the side it names on the day it names at a close (the month’s last day; December 31 of the month’s year for income-tax).',
        ),
      },
      response: MonthCloseSchema,
      example: { month: '2025-01' },
      notFound: 'The month has no record.',
      formats: { csv: csvFormat },
      handle: async ({ month, currency, purpose }, { today }) => {
        const rates = currencies.of(currency);
        // Checked here rather than in the schema: "the current month" depends on the request's day.
        if (isAfterMonthOf(month, today)) {
          throw badRequest(`Parameter "month" must not be after the current month, ${monthOf(today)} (got "${month}")`);
        }
        const { first, last } = monthBounds(month);
        const records = await rates.range(first, last);
        if (records.length === 0) throw notFound(`No ${currency === 'USD' ? 'exchange' : currency} rate in ${month}`);
        const latest = await rates.latest(today);
        const close = closeMonth({ month, records, latestDate: latest?.date ?? null, today });
        if (!purpose) return close;
        const rule = purposeOf(purpose);
        // The day the rule names, which for income tax is outside the month unless it is December:
        // read on its own, with no other day's rate in its place (as `closing` has none).
        const day = closeDayOf(rule, month);
        const record = await rates.byDate(day);
        return { ...withPurpose(close, purpose), purposeRate: { date: day, side: rule.side, value: record ? record[rule.side] : null } };
      },
    }),
  ];
}
