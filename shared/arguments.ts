/**
 * The rules the API checks `month` and `amount` by, as predicates and as the words a refusal
 * states, in English and Spanish. A client that checks before it asks (the Sheets add-on) refuses
 * exactly what the API refuses and says why in the same terms; the English rule is the expectation
 * of the API's own 400 (`Parameter "amount" must be <rule> (got "-5")`).
 *
 * Pure and free of zod and decimal.js, so that the add-on's bundle can take it.
 */
import { LIMITS } from './limits';

/** `YYYY-MM` with a month from 01 to 12; the year is checked by {@link isYearMonth}. */
export const YEAR_MONTH_PATTERN = '^\\d{4}-(0[1-9]|1[0-2])$';
const YEAR_MONTH = new RegExp(YEAR_MONTH_PATTERN);

/** True for a `YYYY-MM` month of the years 0001 to 9999 (there is no year 0000, as for dates). */
export function isYearMonth(value: string): boolean {
  return YEAR_MONTH.test(value) && !value.startsWith('0000');
}

/** The month a `YYYY-MM-DD` day belongs to. */
export function monthOf(date: string): string {
  return date.slice(0, 7);
}

/** Whether `month` is after the month of `today`; four-digit years make `YYYY-MM` sort like the months they name. */
export function isAfterMonthOf(month: string, today: string): boolean {
  return month > monthOf(today);
}

/**
 * A plain decimal number as text, optionally signed, with an optional exponent: "12", ".5", "5.",
 * "1e3". Stricter than `Number()`, which also takes "0x10", "Infinity" and "". The sign is
 * accepted so that "-5" is refused by the range ("greater than 0") rather than as malformed.
 */
export const DECIMAL_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** The amount rule for a JavaScript number: greater than 0 and at most the converter's maximum. */
export function isAmountWithinLimits(amount: number): boolean {
  return Number.isFinite(amount) && amount > 0 && amount <= LIMITS.convert.maxAmount;
}

export type RuleLocale = 'en' | 'es';

export interface ArgumentRules {
  /** What `month` must be (the 400's expectation when it is not a month). */
  month: string;
  /** What a month after the current one is told: "must not be after the current month, 2025-02". */
  notAfterCurrentMonth: (currentMonth: string) => string;
  /** What `amount` must be. */
  amount: string;
}

const MAX_AMOUNT = LIMITS.convert.maxAmount.toExponential();

export const ARGUMENT_RULES: Record<RuleLocale, ArgumentRules> = {
  en: {
    month: 'a calendar month as YYYY-MM, not after the current month',
    notAfterCurrentMonth: (current) => `must not be after the current month, ${current}`,
    amount: `a number greater than 0 and at most ${MAX_AMOUNT}`,
  },
  es: {
    month: 'un mes del calendario como AAAA-MM, no posterior al mes en curso',
    notAfterCurrentMonth: (current) => `no puede ser posterior al mes en curso, ${current}`,
    amount: `un número mayor que 0 y como máximo ${MAX_AMOUNT}`,
  },
};
