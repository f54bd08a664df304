import Decimal from 'decimal.js';

/**
 * The decimal context for intermediate arithmetic (sums, products, quotients) whose result is
 * rounded afterwards with `roundHalfAway`.
 *
 * It truncates instead of rounding: a quotient such as 2.00499999… must not become 2.005 at the
 * working precision and then round up again to 2.01 (double rounding). With truncation toward
 * zero and 60 significant digits, every value below 1e54 keeps at least 6 decimals, so every tie
 * the final rounding can meet (at most 5 decimals: 4-decimal statistics) lies on the working
 * grid, and truncation never moves a value across one. The final rounding is then the only one
 * that decides, exactly as if the arithmetic had been exact.
 */
export const Dec = Decimal.clone({ precision: 60, rounding: Decimal.ROUND_DOWN });
