import Decimal from 'decimal.js';
import fc from 'fast-check';
import { convert, isAmountInRange, parseAmount } from '../../../server/domain/conversion';

const usdToCrc = (amount: string, rateValue: number) => convert({ amount, from: 'USD', to: 'CRC', rate: 'sell', rateValue, date: '2025-01-15' });
const crcToUsd = (amount: string, rateValue: number) => convert({ amount, from: 'CRC', to: 'USD', rate: 'buy', rateValue, date: '2025-01-15' });

describe('convert: the examples of docs/api.md', () => {
  it('0.1 USD × 506.47 = 50.65 (50.647 rounded)', () => {
    expect(usdToCrc('0.1', 506.47).result).toBe(50.65);
  });

  it('0.5 USD × 493.35 = 246.68 (the tie 246.675 rounds away from zero)', () => {
    // In floats 0.5 × 493.35 is 246.67499999999998, which would round down.
    expect(usdToCrc('0.5', 493.35).result).toBe(246.68);
  });

  it('100 USD at 512.82 is the full record of the example', () => {
    expect(usdToCrc('100', 512.82)).toEqual({
      amount: 100,
      from: 'USD',
      to: 'CRC',
      rate: 'sell',
      rateValue: 512.82,
      date: '2025-01-15',
      result: 51282,
      currency: 'USD',
    });
  });
});

describe('convert: CRC → USD divides', () => {
  it('rounds a non-terminating quotient', () => {
    // 1000 / 512.82 = 1.950001950…
    expect(crcToUsd('1000', 512.82).result).toBe(1.95);
    // 10000 / 506.47 = 19.744508…
    expect(crcToUsd('10000', 506.47).result).toBe(19.74);
  });

  it('rounds an exact tie away from zero', () => {
    // 1002.5 / 500 = 2.005 exactly; in floats it is 2.00499999…
    expect(crcToUsd('1002.5', 500).result).toBe(2.01);
    expect(crcToUsd('2.5', 500).result).toBe(0.01);
  });

  it('does not double-round a quotient just below a tie', () => {
    // 2.0049999… / 1: the tie is never reached.
    expect(crcToUsd('2.00499999999999999999999999999999', 1).result).toBe(2);
    // 1 / 3 and 2 / 3
    expect(crcToUsd('1', 3).result).toBe(0.33);
    expect(crcToUsd('2', 3).result).toBe(0.67);
  });

  it('echoes the request', () => {
    expect(crcToUsd('1000', 512.82)).toMatchObject({ amount: 1000, from: 'CRC', to: 'USD', rate: 'buy', rateValue: 512.82 });
  });
});

describe('convert: amounts', () => {
  it('takes exponent notation', () => {
    expect(usdToCrc('1e3', 506.47)).toMatchObject({ amount: 1000, result: 506470 });
    expect(usdToCrc('2.5E-1', 506.47)).toMatchObject({ amount: 0.25, result: 126.62 }); // 126.6175
    expect(usdToCrc('1e12', 512.82)).toMatchObject({ amount: 1e12, result: 512820000000000 });
  });

  it('same currency: the amount rounded to 2, rate value 1, rate and date echoed', () => {
    expect(convert({ amount: '12.345', from: 'USD', to: 'USD', rate: 'sell', rateValue: 512.82, date: '2025-01-15' })).toEqual({
      amount: 12.345,
      from: 'USD',
      to: 'USD',
      rate: 'sell',
      rateValue: 1,
      date: '2025-01-15',
      result: 12.35,
      currency: 'USD',
    });
    expect(convert({ amount: '0.004', from: 'CRC', to: 'CRC', rate: 'buy', rateValue: 506.47, date: '2025-01-02' })).toMatchObject({
      result: 0,
      rateValue: 1,
      rate: 'buy',
      date: '2025-01-02',
    });
  });

  it('matches exact integer arithmetic for any cents amount and rate (property)', () => {
    // Reference: round(a / r) half away from zero for positive integers = floor((2a + r) / 2r),
    // in cents. Results up to 5e14 with cents have 17 digits, more than a double holds, so the
    // reference is the double nearest the exact decimal, as JSON will carry it.
    const roundDiv = (a: bigint, r: bigint) => {
      const cents = (2n * a + r) / (2n * r);
      return Number(`${cents / 100n}.${(cents % 100n).toString().padStart(2, '0')}`);
    };
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 100_000_000_000_000n }), // up to 1e12 with cents
        fc.bigInt({ min: 1n, max: 100_000n }), // rates up to 1000.00
        (cents, rateCents) => {
          const amount = new Decimal(cents.toString()).div(100).toString();
          const rateValue = Number(rateCents) / 100;
          // amount × rate in cents = cents × rateCents / 100
          expect(usdToCrc(amount, rateValue).result).toBe(roundDiv(cents * rateCents, 100n));
          // amount / rate in cents = cents × 100 / rateCents
          expect(crcToUsd(amount, rateValue).result).toBe(roundDiv(cents * 100n, rateCents));
        },
      ),
    );
  });

  it('refuses an invalid amount or rate (the caller validates first)', () => {
    expect(() => usdToCrc('abc', 500)).toThrow(RangeError);
    expect(() => usdToCrc('1', 0)).toThrow(RangeError);
    expect(() => crcToUsd('1', Number.NaN)).toThrow(RangeError);
  });
});

describe('parseAmount', () => {
  it.each(['abc', '0x10', '', '1e', 'Infinity', '-Infinity', 'NaN', ' 1', '1 ', '1,5', '.', 'e5', '1e+', '--1', '0b1', '1_000', '1.2.3', '٣'])(
    'rejects %j',
    (raw) => {
      expect(parseAmount(raw)).toBeNull();
    },
  );

  it.each([
    ['1', '1'],
    ['12.50', '12.5'],
    ['.5', '0.5'],
    ['5.', '5'],
    ['1e3', '1000'],
    ['2.5E-1', '0.25'],
    ['+2', '2'],
    ['-3', '-3'],
    ['0.1000000000000000000000000000001', '0.1000000000000000000000000000001'],
  ])('parses %j exactly', (raw, expected) => {
    expect(parseAmount(raw)?.toString()).toBe(expected);
  });
});

describe('isAmountInRange', () => {
  const inRange = (raw: string) => {
    const d = parseAmount(raw);
    if (d === null) throw new Error(`unparsable ${raw}`);
    return isAmountInRange(d);
  };

  it('accepts > 0 and ≤ 1e12', () => {
    expect(inRange('1e-20')).toBe(true);
    expect(inRange('0.01')).toBe(true);
    expect(inRange('1e12')).toBe(true);
    expect(inRange('1000000000000.00')).toBe(true);
  });

  it('refuses 0, negatives, above 1e12, and exponents beyond what decimals hold', () => {
    expect(inRange('0')).toBe(false);
    expect(inRange('-1')).toBe(false);
    expect(inRange('1000000000000.01')).toBe(false);
    expect(inRange('1e13')).toBe(false);
    expect(inRange('1e99999999999999999999')).toBe(false);
    expect(inRange('1e-99999999999999999999')).toBe(false);
  });
});

describe('convert: any currency against CRC', () => {
  it('multiplies to CRC and divides from CRC at the colones-per-unit rate, naming the currency', () => {
    expect(convert({ amount: '100', from: 'EUR', to: 'CRC', rate: 'sell', rateValue: 528.26, date: '2025-01-15' })).toMatchObject({
      result: 52826,
      currency: 'EUR',
    });
    // 1000 / 3.27848 = 305.0194…
    expect(convert({ amount: '1000', from: 'CRC', to: 'JPY', rate: 'sell', rateValue: 3.27848, date: '2025-01-15' })).toMatchObject({
      result: 305.02,
      currency: 'JPY',
    });
  });
});
