/** The converter: an amount between USD and CRC at the official buy or sell rate. */
import { RATE_SIDES, type Currency } from '../../../shared/currencies';
import { LIMITS } from '../../../shared/limits';
import { ConversionSchema } from '../../../shared/schemas';
import { convert, isAmountInRange, parseAmount } from '../../domain/conversion';
import type { SyncView } from '../../jobs/sync-status';
import type { RatesStore } from '../../store/rates';
import { badRequest } from '../../errors';
import { csvFormat } from '../formats/csv';
import { currency, date, decimalString, oneOf } from '../params';
import { defineRoute, type Route } from '../route';
import { noRateFor, nothingStored } from './no-rate';

const AMOUNT_RULE = `a number greater than 0 and at most ${LIMITS.convert.maxAmount.toExponential()}`;
const other = (c: Currency): Currency => (c === 'USD' ? 'CRC' : 'USD');

export function convertRoutes({ rates, sync }: { rates: RatesStore; sync: SyncView }): Route[] {
  return [
    defineRoute({
      path: '/convert',
      tag: 'Converter',
      access: 'key',
      summary: 'Convert an amount between USD and CRC',
      description:
        'USD→CRC multiplies by the rate, CRC→USD divides; the result is rounded to 2 decimals, half away from zero, in exact decimal arithmetic. The same currency on both sides returns the amount itself.',
      query: {
        amount: decimalString(`The amount to convert: ${AMOUNT_RULE}; exponent notation is allowed.`, AMOUNT_RULE, {
          exclusiveMinimum: 0,
          maximum: LIMITS.convert.maxAmount,
        }),
        from: currency('Currency of the amount (default USD).').optional(),
        to: currency('Currency wanted (default: the other one).').optional(),
        rate: oneOf(RATE_SIDES, 'Which official rate to apply.', 'sell'),
        date: date('The day whose rate applies (default: the latest).').optional(),
      },
      check: ({ amount }) => {
        const parsed = parseAmount(amount);
        if (!parsed || !isAmountInRange(parsed)) throw badRequest(`Parameter "amount" must be ${AMOUNT_RULE} (got "${amount}")`);
      },
      response: ConversionSchema,
      example: { amount: '100', from: 'USD', to: 'CRC', rate: 'sell' },
      notFound: 'The requested day has no rate, or no rate is stored yet; the message says why.',
      formats: { csv: csvFormat },
      handle: async (query, { today }) => {
        const from = query.from ?? (query.to ? other(query.to) : 'USD');
        const to = query.to ?? other(from);
        const record = query.date ? await rates.byDate(query.date) : await rates.latest(today);
        if (!record) throw await (query.date ? noRateFor(rates, sync, query.date, today) : nothingStored(sync));
        return convert({ amount: query.amount, from, to, rate: query.rate, rateValue: record[query.rate], date: record.date });
      },
    }),
  ];
}
