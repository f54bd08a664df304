/**
 * The inverse of a rate: units of the foreign currency per 1 CRC, what an ERP whose company
 * currency is the colón stores. Rounded to 10 significant digits: 6 decimals of 0.00195 would be
 * 3 significant digits, and drift by céntimos once multiplied by a large invoice.
 */
import Decimal from 'decimal.js';
import type { ExchangeRate, ProvisionalRate, RateAnswer } from '../../shared/types';
import { Dec } from './decimal';

/** Significant digits of an inverse (docs/api.md, "For ledgers and ERPs"). */
export const INVERSE_DIGITS = 10;

/**
 * 1 / rate, rounded half away from zero to 10 significant digits. The quotient is taken in `Dec`
 * (60 digits, truncated), which keeps every tie at the 11th digit exact, so the final rounding is
 * the only one (decimal.ts): 1 / 327.68 = 0.0030517578125 is 0.003051757813.
 */
export function inverseOf(rate: number): number {
  if (!(Number.isFinite(rate) && rate > 0)) throw new RangeError(`a rate must be a positive number to be inverted, got ${rate}`);
  return new Dec(1).div(rate).toSignificantDigits(INVERSE_DIGITS, Decimal.ROUND_HALF_UP).toNumber();
}

/** The record with the inverse of each side, after its other fields; a side that is null (a provisional record's buy) has a null inverse. */
export function withInverse(record: ExchangeRate): ExchangeRate;
export function withInverse(record: ProvisionalRate): ProvisionalRate;
export function withInverse(record: RateAnswer): RateAnswer;
export function withInverse(record: RateAnswer): RateAnswer {
  const sellInverse = inverseOf(record.sell);
  return record.buy === null ? { ...record, buyInverse: null, sellInverse } : { ...record, buyInverse: inverseOf(record.buy), sellInverse };
}
