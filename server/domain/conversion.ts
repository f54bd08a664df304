import type Decimal from 'decimal.js';
import type { RateSide } from '../../shared/currencies';
import { LIMITS } from '../../shared/limits';
import type { Conversion } from '../../shared/types';
import { Dec } from './decimal';
import { money } from './rounding';

export interface ConversionInput {
  /** The amount exactly as the user typed it, e.g. "0.1" or "1e3". */
  amount: string;
  /** `CRC` or a currency code; one of the two sides is CRC unless both are the same. */
  from: string;
  to: string;
  rate: RateSide;
  /** CRC per 1 unit of the side that is not CRC on `date`, on the `rate` side. */
  rateValue: number;
  date: string;
}

/** The side of a conversion that is not colones (the dollar when both are). */
export function foreignSide(from: string, to: string): string {
  return from !== 'CRC' ? from : to !== 'CRC' ? to : 'USD';
}

/**
 * A plain decimal number, optionally signed, with an optional exponent: "12", "12.5", ".5",
 * "5.", "1e3", "2.5E-1". Stricter than `Number()`, which also takes "0x10", "Infinity", "" and
 * surrounding spaces. The sign is accepted so that "-5" is refused by the range check ("must be
 * greater than 0") rather than as malformed.
 */
const DECIMAL_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * Parses the `amount` parameter into an exact decimal, or null when it is not a plain decimal
 * number. Range is the caller's check (`isAmountInRange`): an exponent too large or too small
 * for decimal.js yields Infinity or 0, which that check refuses.
 */
export function parseAmount(raw: string): Decimal | null {
  if (!DECIMAL_NUMBER.test(raw)) return null;
  return new Dec(raw);
}

/** docs/api.md: the amount must be > 0 and ≤ 1e12. */
export function isAmountInRange(d: Decimal): boolean {
  return d.isFinite() && d.gt(0) && d.lte(LIMITS.convert.maxAmount);
}

/**
 * Converts between a currency and CRC at `rateValue` (CRC per unit) in exact decimal arithmetic:
 * 0.1 × 506.47 is 50.647 → 50.65, where binary floats would drift. To CRC multiplies, from CRC
 * divides; the result is rounded to 2 decimals, half away from zero. The caller has
 * validated the amount; an invalid one here is a programming error and throws.
 */
export function convert(input: ConversionInput): Conversion {
  const amount = parseAmount(input.amount);
  if (amount === null || !amount.isFinite()) throw new RangeError(`invalid amount ${JSON.stringify(input.amount)}`);
  const echo = { amount: amount.toNumber(), from: input.from, to: input.to, rate: input.rate, date: input.date };
  // Last, after the fields the answer always had: a CSV's columns keep their places.
  const currency = foreignSide(input.from, input.to);

  // Same currency: nothing to convert, but the answer keeps the shape (docs/api.md: rateValue 1).
  if (input.from === input.to) return { ...echo, rateValue: 1, result: money(amount), currency };

  if (!(Number.isFinite(input.rateValue) && input.rateValue > 0)) {
    throw new RangeError(`rateValue must be a positive number, got ${input.rateValue}`);
  }
  const rate = new Dec(input.rateValue);
  const exact = input.to === 'CRC' ? amount.times(rate) : amount.div(rate);
  return { ...echo, rateValue: input.rateValue, result: money(exact), currency };
}
