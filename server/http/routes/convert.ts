/**
 * The converter: an amount between CRC and the dollar at the official buy or sell rate, or any
 * other currency of the catalog at its derived rate.
 */
import { RATE_SIDES } from '../../../shared/currencies';
import { LIMITS } from '../../../shared/limits';
import { ConversionSchema } from '../../../shared/schemas';
import { purposeOf } from '../../../shared/purposes';
import { convert, foreignSide, isAmountInRange, parseAmount } from '../../domain/conversion';
import { withPurpose } from '../../domain/purposes';
import type { SyncView } from '../../jobs/sync-status';
import type { CurrencySeries } from '../../store/currency-series';
import { badRequest } from '../../errors';
import { csvFormat } from '../formats/csv';
import { convertibleCurrency, date, decimalString, fill, oneOf, purpose } from '../params';
import { latestOf, recordOf } from './carried';
import { defineRoute, type Route } from '../route';
import { noRateFor, nothingStored } from './no-rate';

const AMOUNT_RULE = `a number greater than 0 and at most ${LIMITS.convert.maxAmount.toExponential()}`;
/** The side a conversion takes when only one is given: colones against anything else, the dollar against colones. */
const other = (c: string): string => (c === 'CRC' ? 'USD' : 'CRC');

export function convertRoutes({ currencies, sync }: { currencies: CurrencySeries; sync: SyncView }): Route[] {
  return [
    defineRoute({
      path: '/convert',
      tag: 'Converter',
      access: 'key',
      summary: 'Convert an amount between CRC and another currency',
      description:
        'One side is CRC, the other USD (the official rate) or any code from /currencies (its derived rate). To CRC multiplies by the rate, from CRC divides; the result is rounded to 2 decimals, half away from zero, in exact decimal arithmetic. The same currency on both sides returns the amount itself.',
      query: {
        amount: decimalString(`The amount to convert: ${AMOUNT_RULE}; exponent notation is allowed.`, AMOUNT_RULE, {
          exclusiveMinimum: 0,
          maximum: LIMITS.convert.maxAmount,
        }),
        from: convertibleCurrency('Currency of the amount: CRC or a code from /currencies (default USD, or CRC when "to" is another currency).').optional(),
        to: convertibleCurrency('Currency wanted (default: CRC, or USD when "from" is CRC).').optional(),
        rate: oneOf(RATE_SIDES, 'Which rate to apply (not with "purpose", which names it).', 'sell'),
        date: date('The day whose rate applies (default: the latest).').optional(),
        fill: fill(),
        purpose: purpose(
          'The rule the conversion is for, instead of "rate": the side it names applies, and the answer cites the rule in `purpose`; give the day the rule names as "date".',
        ),
      },
      check: ({ amount, from, to, purpose }, raw) => {
        // `rate` has a default: whether the caller gave it is in the raw query alone.
        if (purpose && raw.rate !== undefined) {
          throw badRequest(`Give either "rate" or "purpose", not both: the purpose names the side (${purpose}: ${purposeOf(purpose).side})`);
        }
        const parsed = parseAmount(amount);
        if (!parsed || !isAmountInRange(parsed)) throw badRequest(`Parameter "amount" must be ${AMOUNT_RULE} (got "${amount}")`);
        if (from && to && from !== to && from !== 'CRC' && to !== 'CRC') {
          throw badRequest(`Parameters "from" and "to": one of them must be CRC, every rate is against the colón (got ${from} and ${to})`);
        }
      },
      response: ConversionSchema,
      // `from` left to its default: each side alone may then be any currency (the other one is CRC).
      // `rate` left to its default too: the example is then valid with `purpose` as well.
      example: { amount: '100', to: 'CRC' },
      notFound: 'The requested day has no rate, or no rate is stored yet; the message says why.',
      formats: { csv: csvFormat },
      handle: async (query, { today }) => {
        const from = query.from ?? (query.to ? other(query.to) : 'USD');
        const to = query.to ?? other(from);
        const currency = foreignSide(from, to);
        const rates = currencies.of(currency);
        const fill = query.fill !== undefined;
        const record = query.date ? await recordOf(rates, query.date, today, fill) : await latestOf(rates, today, fill);
        if (!record) throw await (query.date ? noRateFor(rates, sync, query.date, today, currency) : nothingStored(sync, currency));
        const side = query.purpose ? purposeOf(query.purpose).side : query.rate;
        const conversion = convert({ amount: query.amount, from, to, rate: side, rateValue: record[side], date: record.date });
        return withPurpose(
          { ...conversion, ...(record.derived ? { derived: record.derived } : {}), ...(record.carriedFrom ? { carriedFrom: record.carriedFrom } : {}) },
          query.purpose,
        );
      },
    }),
  ];
}
