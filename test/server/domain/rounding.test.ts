import Decimal from 'decimal.js';
import { money, roundHalfAway, statistic } from '../../../server/domain/rounding';

describe('roundHalfAway', () => {
  it('rounds ties away from zero, on both sides of zero', () => {
    expect(roundHalfAway(0.125, 2)).toBe(0.13);
    expect(roundHalfAway(-0.125, 2)).toBe(-0.13);
    expect(roundHalfAway(2.5, 0)).toBe(3);
    expect(roundHalfAway(-2.5, 0)).toBe(-3);
  });

  it('reads a float by its shortest representation, as a person would', () => {
    // 1.005 is stored as 1.00499999999999989…; Math.round(1.005 * 100) / 100 gives 1.
    expect(Math.round(1.005 * 100) / 100).toBe(1);
    expect(roundHalfAway(1.005, 2)).toBe(1.01);
    expect(roundHalfAway(246.675, 2)).toBe(246.68);
  });

  it('leaves non-ties to the nearest value', () => {
    expect(roundHalfAway(1.2344, 3)).toBe(1.234);
    expect(roundHalfAway(1.2346, 3)).toBe(1.235);
    expect(roundHalfAway(-1.2346, 3)).toBe(-1.235);
  });

  it('accepts strings and Decimals', () => {
    expect(roundHalfAway('0.00005', 4)).toBe(0.0001);
    expect(roundHalfAway(new Decimal('-1.23455'), 4)).toBe(-1.2346);
  });

  it('never returns negative zero', () => {
    expect(Object.is(roundHalfAway(-0.001, 2), 0)).toBe(true);
    expect(Object.is(roundHalfAway(-0, 2), 0)).toBe(true);
  });

  it('refuses non-finite values instead of returning NaN', () => {
    expect(() => roundHalfAway(Number.NaN, 2)).toThrow(RangeError);
    expect(() => roundHalfAway(Infinity, 2)).toThrow(RangeError);
  });
});

describe('money and statistic', () => {
  it('round to 2 and 4 decimals', () => {
    expect(money(50.647)).toBe(50.65);
    expect(money(-50.645)).toBe(-50.65);
    expect(statistic(1.23455)).toBe(1.2346);
    expect(statistic(-0.00005)).toBe(-0.0001);
    expect(statistic(11.547005383792516)).toBe(11.547);
  });
});
