/**
 * The inverse of a rate, 1 / rate to 10 significant digits, half away from zero, exactly. Expected
 * values are computed here on their own: decimal.js at 100 digits, rounded once.
 */
import Decimal from 'decimal.js';
import fc from 'fast-check';
import { inverseOf, withInverse } from '../../../server/domain/inverse';
import type { ExchangeRate } from '../../../shared/types';

const Exact = Decimal.clone({ precision: 100 });
const expected = (rate: number | string) => new Exact(1).div(new Exact(rate)).toSignificantDigits(10, Exact.ROUND_HALF_UP).toNumber();

describe('inverseOf', () => {
  it('gives 10 significant digits of 1 / rate', () => {
    // 1 / 512.82 = 0.00195000195000195…, 1 / 506.47 = 0.0019744506091180…
    expect(inverseOf(512.82)).toBe(0.00195000195);
    expect(inverseOf(506.47)).toBe(0.001974450609);
    expect(inverseOf(512.82)).toBe(expected('512.82'));
    // Fewer digits when the quotient ends sooner.
    expect(inverseOf(800)).toBe(0.00125);
    // A small derived rate (a dong): more colones' worth of units, still 10 digits.
    expect(inverseOf(0.0199669)).toBe(50.08288718);
  });

  it('rounds a tie at the 11th digit away from zero, where half-to-even and binary floats round down', () => {
    // 1 / 327.68 = 0.0030517578125 exactly: the 11th digit is a 5 with nothing after it.
    expect(inverseOf(327.68)).toBe(0.003051757813);
    // 1 / 0.32768 = 3.0517578125 exactly; in binary floats 1 / 0.32768 is a hair below, and rounds to …812.
    expect(Number((1 / 0.32768).toPrecision(10))).toBe(3.051757812);
    expect(inverseOf(0.32768)).toBe(3.051757813);
    // Not a tie, but a binary quotient lands on the wrong side of one: 0.0000443235298(5…).
    expect(Number((1 / 22561.38).toPrecision(10))).toBe(0.00004432352985);
    expect(inverseOf(22561.38)).toBe(0.00004432352986);
  });

  it('agrees with the exact quotient for every rate with 2 decimals, and every 6-significant-digit rate', () => {
    const twoDecimals = fc.integer({ min: 1, max: 100_000_000 }).map((cents) => cents / 100);
    const sixDigits = fc
      .tuple(fc.integer({ min: 100_000, max: 999_999 }), fc.integer({ min: -9, max: 1 }))
      .map(([digits, exponent]) => Number(`${digits}e${exponent}`));
    fc.assert(
      fc.property(fc.oneof(twoDecimals, sixDigits), (rate) => inverseOf(rate) === expected(rate)),
      { numRuns: 5000 },
    );
  });

  it('refuses what is not a positive rate', () => {
    for (const bad of [0, -506.47, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => inverseOf(bad)).toThrow(RangeError);
    }
  });
});

describe('withInverse', () => {
  it('adds both inverses after the record’s fields and changes nothing else', () => {
    const record: ExchangeRate = {
      date: '2025-01-15',
      currencyFrom: 'USD',
      currencyTo: 'CRC',
      buy: 506.47,
      sell: 512.82,
      source: 'BCCR',
      fetchedAt: '2025-01-14T18:05:12.000Z',
    };
    const inverted = withInverse(record);
    expect(inverted).toEqual({ ...record, buyInverse: 0.001974450609, sellInverse: 0.00195000195 });
    expect(Object.keys(inverted).slice(-2)).toEqual(['buyInverse', 'sellInverse']);
    expect(record).not.toHaveProperty('buyInverse');
  });
});
